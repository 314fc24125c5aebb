"""The argument and output grammar of the spec (DESIGN §2), parsed without `eval`.

    args:    (Tensor x, Tensor? bias = None, int[] axis = [], bool keepdim = false)
    output:  Tensor(out) | (Tensor(out), Tensor(indices)) | Tensor[](out){num}

Argument types: `Tensor`, `Tensor[]` (a list of tensors), `Tensor?` (optional tensor),
and the attribute types `Scalar`, `int`, `float`, `bool`, `str`, `int[]`, `DataType`,
each of which may also be optional (`int?`, `DataType?`, ...: `None` is then a valid
value and a valid default). Defaults are literals only: `true`/`false`, numbers, quoted
strings, `[]`/`[1, 2]` for `int[]`, dtype names (`float32`) for `DataType`, `None` for
optional types. Anything else -- in particular any Python expression -- is rejected.

Parse functions raise `GrammarError` with a message; the caller adds `file:line` and
the op's name.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Sequence
from dataclasses import dataclass

TENSOR_TYPES = ("Tensor", "Tensor[]", "Tensor?")
ATTR_BASE_TYPES = ("Scalar", "int", "float", "bool", "str", "int[]", "DataType")
ARG_TYPES = TENSOR_TYPES + ATTR_BASE_TYPES + tuple(t + "?" for t in ATTR_BASE_TYPES)
OUTPUT_TYPES = ("Tensor", "Tensor[]")
DTYPE_NAMES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ARG = re.compile(
    r"(?P<type>[A-Za-z]+(?:\[\])?\??)\s+(?P<name>[^\s=]+)\s*(?:=\s*(?P<default>.*?))?\s*\Z", re.S
)
_OUTPUT = re.compile(
    r"(?P<type>Tensor(?:\[\])?)\s*\(\s*(?P<name>[^()\s]*)\s*\)(?:\s*\{\s*(?P<count>[^{}]*?)\s*\})?\Z"
)
_INT = re.compile(r"[+-]?[0-9]+\Z")
_FLOAT = re.compile(
    r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?:\.[0-9]*)?[eE][+-]?[0-9]+|[0-9]+\.[0-9]*[eE][+-]?[0-9]+)\Z"
)
_STRING = re.compile(r"""(?:"(?P<dq>[^"\\\n]*)"|'(?P<sq>[^'\\\n]*)')\Z""")


class GrammarError(ValueError):
    """A piece of the spec does not follow the grammar; the message says how."""


def is_identifier(name: str) -> bool:
    """A Python identifier that is not a keyword (`def`, `lambda`, ...)."""
    return bool(_IDENT.fullmatch(name)) and not keyword.iskeyword(name) and not keyword.issoftkeyword(name)


def check_identifier(name: str, what: str) -> None:
    if not _IDENT.fullmatch(name):
        raise GrammarError(f"{what} {name!r} is not a valid identifier")
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        raise GrammarError(f"{what} {name!r} is a Python keyword")


@dataclass(frozen=True)
class DType:
    """A dtype name used as a `DataType` default (`float32`)."""

    name: str


@dataclass(frozen=True)
class Default:
    """A literal default: its parsed value and its spelling in the spec."""

    value: None | bool | int | float | str | tuple[int, ...] | DType
    source: str


@dataclass(frozen=True)
class Arg:
    """One argument of an op: `Tensor x`, `int[] axis = []`."""

    type: str
    name: str
    default: Default | None = None

    def __post_init__(self) -> None:
        assert self.type in ARG_TYPES, self.type
        assert is_identifier(self.name), self.name

    @property
    def is_tensor(self) -> bool:
        return self.type in TENSOR_TYPES

    @property
    def is_tensor_list(self) -> bool:
        return self.type == "Tensor[]"

    @property
    def is_optional(self) -> bool:
        return self.type.endswith("?")

    @property
    def base_type(self) -> str:
        return self.type.rstrip("?")

    def __str__(self) -> str:
        if self.default is None:
            return f"{self.type} {self.name}"
        return f"{self.type} {self.name} = {self.default.source}"


@dataclass(frozen=True)
class Output:
    """One output: `Tensor(out)` or `Tensor[](out){num}` (count: an argument's name)."""

    type: str
    name: str
    count: str | None = None

    def __post_init__(self) -> None:
        assert self.type in OUTPUT_TYPES, self.type
        assert is_identifier(self.name), self.name

    @property
    def is_list(self) -> bool:
        return self.type == "Tensor[]"

    def __str__(self) -> str:
        return f"{self.type}({self.name})" + (f"{{{self.count}}}" if self.count else "")


def describe_signature(name: str, args: Sequence[Arg], outputs: Sequence[Output]) -> str:
    """`name (Tensor x, bool keepdim) -> (Tensor(out), Tensor(indices))`, as `forward:`
    entries spell it (argument types and names, no defaults)."""
    outs = ", ".join(str(o) for o in outputs)
    if len(outputs) > 1:
        outs = f"({outs})"
    return f"{name} ({', '.join(f'{a.type} {a.name}' for a in args)}) -> {outs}"


def split_top_level(text: str) -> list[str]:
    """Split on commas that are not inside brackets or quotes."""
    parts: list[str] = []
    depth = 0
    quote = ""
    start = 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                raise GrammarError(f"unbalanced {ch!r} in {text!r}")
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if quote:
        raise GrammarError(f"unterminated string in {text!r}")
    if depth != 0:
        raise GrammarError(f"unbalanced brackets in {text!r}")
    parts.append(text[start:])
    return [p.strip() for p in parts]


def _unparen(text: str, what: str) -> str:
    text = text.strip()
    if not (text.startswith("(") and text.endswith(")")):
        raise GrammarError(
            f"{what} must be written in parentheses, like `(Tensor x, int axis = 0)`; got {text!r}"
        )
    return text[1:-1].strip()


def parse_args(text: str) -> tuple[list[Arg], list[str]]:
    """Parse `(Tensor x, ...)`; returns the arguments that parsed and one message per bad one."""
    inner = _unparen(text, "args")
    if not inner:
        return [], []
    args: list[Arg] = []
    problems: list[str] = []
    for piece in split_top_level(inner):
        try:
            args.append(parse_arg(piece))
        except GrammarError as exc:
            problems.append(str(exc))
    return args, problems


def parse_arg(piece: str) -> Arg:
    m = _ARG.fullmatch(piece)
    if m is None:
        raise GrammarError(f"argument {piece!r} is not `<type> <name>` or `<type> <name> = <default>`")
    type_, name, default_src = m["type"], m["name"], m["default"]
    if type_ not in ARG_TYPES:
        raise GrammarError(
            f"argument {name!r} has unknown type {type_!r}; known types: {', '.join(ARG_TYPES)}"
        )
    check_identifier(name, "argument name")
    if default_src is None:
        return Arg(type_, name)
    return Arg(type_, name, parse_default(type_, name, default_src))


def parse_default(type_: str, name: str, src: str) -> Default:
    """Parse a literal default for an argument of type `type_` (no evaluation)."""

    def bad(expected: str) -> GrammarError:
        return GrammarError(f"default of {type_} {name} must be {expected}; got `{src}`")

    src = src.strip()
    optional = type_.endswith("?")
    base = type_.rstrip("?")
    if src in ("None", "null"):
        if not optional:
            hint = "" if base in TENSOR_TYPES else f" (declare it `{base}? {name} = None`)"
            raise GrammarError(f"default of {type_} {name} is None but the type is not optional{hint}")
        return Default(None, src)
    if base in ("Tensor", "Tensor[]"):
        raise GrammarError(f"{type_} {name} cannot have a default other than None (and only as `Tensor?`)")
    if base == "bool":
        if src in ("true", "True"):
            return Default(True, src)
        if src in ("false", "False"):
            return Default(False, src)
        raise bad("true or false")
    if base == "int":
        if _INT.fullmatch(src):
            return Default(int(src), src)
        raise bad("an integer literal")
    if base in ("float", "Scalar"):
        if _INT.fullmatch(src):
            return Default(float(src) if base == "float" else int(src), src)
        if _FLOAT.fullmatch(src):
            return Default(float(src), src)
        raise bad("a number literal")
    if base == "str":
        m = _STRING.fullmatch(src)
        if m is None:
            raise bad('a quoted string literal without quotes or backslashes inside ("mean")')
        return Default(m["dq"] if m["dq"] is not None else m["sq"], src)
    if base == "int[]":
        if not (src.startswith("[") and src.endswith("]")):
            raise bad("a list of integer literals ([] or [0, 1])")
        inner = src[1:-1].strip()
        items = [p.strip() for p in inner.split(",")] if inner else []
        if not all(_INT.fullmatch(p) for p in items):
            raise bad("a list of integer literals ([] or [0, 1])")
        return Default(tuple(int(p) for p in items), src)
    if base == "DataType":
        if src in DTYPE_NAMES:
            return Default(DType(src), src)
        raise bad(f"a dtype name ({', '.join(DTYPE_NAMES)})")
    raise AssertionError(base)  # pragma: no cover - ARG_TYPES is exhaustive


def parse_outputs(text: str) -> list[Output]:
    """Parse `Tensor(out)`, `(Tensor(a), Tensor(b))` or `Tensor[](out){n}`."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        pieces = split_top_level(text[1:-1])
    else:
        pieces = [text]
    outputs = []
    for piece in pieces:
        m = _OUTPUT.fullmatch(piece)
        if m is None:
            raise GrammarError(
                f"output {piece!r} is not `Tensor(name)`, `Tensor[](name)` or `Tensor[](name){{count}}`"
            )
        check_identifier(m["name"], "output name")
        count = m["count"]
        if count is not None:
            if m["type"] != "Tensor[]":
                raise GrammarError(f"output {m['name']!r}: only a Tensor[] output takes a {{count}}")
            check_identifier(count, "output count")
        outputs.append(Output(m["type"], m["name"], count))
    return outputs


_FORWARD = re.compile(r"(?P<name>[^\s(]+)\s*(?P<args>\(.*\))\s*->\s*(?P<outputs>.+?)\s*\Z", re.S)


def parse_forward(text: str) -> tuple[str, list[Arg], list[Output]]:
    """Parse a backward entry's `forward:` signature `name (args) -> outputs`."""
    m = _FORWARD.fullmatch(text.strip())
    if m is None:
        raise GrammarError(f"forward {text!r} is not `<op> (<args>) -> <outputs>`")
    check_identifier(m["name"], "forward op name")
    args, problems = parse_args(m["args"])
    if problems:
        raise GrammarError("forward signature: " + "; ".join(problems))
    return m["name"], args, parse_outputs(m["outputs"])
