"""Reading one YAML entry: `Reader` pops its keys with their types checked, and every
problem goes, with its `file:line` and the op's name, to a `Problems` collector, which
raises them all at once as one `SpecError`.

`OpSpec.from_yaml` and `BackwardSpec.from_yaml` (`model.py`) read their entries through a
`Reader`; `KeyLines` keeps each key's line for errors found after parsing.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from opgrad.codegen import naming
from opgrad.codegen.loader import Entry, Location, is_control, kind_name
from opgrad.codegen.signature import Arg, GrammarError, Output, check_identifier, parse_args, parse_outputs


class SpecError(Exception):
    """The spec is invalid; `errors` lists every problem as `file:line: op 'name': ...`."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__(f"{len(errors)} error(s) in the op spec:\n" + "\n".join(errors))
        self.errors = errors


class Problems:
    """Collects errors so that all of them can be reported at once."""

    def __init__(self) -> None:
        self._files: list[str] = []
        self._items: list[tuple[int, int, int, str]] = []

    def _rank(self, file: str) -> int:
        if file not in self._files:
            self._files.append(file)
        return self._files.index(file)

    def add(self, loc: Location, op: str | None, message: str) -> None:
        who = f"op {_short(op)}" if op else "entry"
        self._items.append((self._rank(loc.file), loc.line, len(self._items), f"{loc}: {who}: {message}"))

    def add_raw(self, file: str, line: int, message: str) -> None:
        """A message that already starts with `file:line:` (from the loader)."""
        self._items.append((self._rank(file), line, len(self._items), message))

    def __len__(self) -> int:
        return len(self._items)

    def messages(self) -> list[str]:
        """Every message, file by file (in the order files were read), by line."""
        return [text for *_, text in sorted(self._items)]

    def raise_if_any(self) -> None:
        if self._items:
            raise SpecError(self.messages())


@dataclass(frozen=True)
class KeyLines:
    """The line of each key of an entry, for errors found after parsing."""

    file: str
    line: int
    keys: tuple[tuple[str, int], ...]

    def __call__(self, key: str | None = None) -> Location:
        for k, line in self.keys:
            if k == key:
                return Location(self.file, line)
        return Location(self.file, self.line)


class Reader:
    """Pops typed values from one YAML entry, reporting problems with their lines."""

    def __init__(self, entry: Entry, file: str, problems: Problems, name_key: str) -> None:
        self.entry = dict(entry)
        self.lines = KeyLines(file, entry.line, tuple(entry.key_lines.items()))
        self.problems = problems
        self.ok = True
        self.name: str | None = None
        raw = self.entry.get(name_key)
        if isinstance(raw, str) and raw:
            self.name = raw
        for key, line in entry.duplicate_keys:
            self.error(None, f"key {key!r} appears twice (again on line {line})")

    def error(self, key: str | None, message: str) -> None:
        self.ok = False
        self.problems.add(self.lines(key), self.name, message)

    def pop(self, key: str, kind: Callable[[Any], bool], expected: str, required: bool = False) -> Any:
        if key not in self.entry:
            if required:
                self.error(None, f"missing required key {key!r}")
            return None
        value = self.entry.pop(key)
        if not kind(value):
            self.error(key, f"{key!r} must be {expected}, got {_describe(value)}")
            return None
        bad = sorted({f"U+{ord(ch):04X}" for text in _strings(value) for ch in text if _is_bad_char(ch)})
        if bad:
            self.error(key, f"{key!r} contains control character(s) {', '.join(bad)}")
            return None
        return value

    def pop_str(self, key: str, required: bool = False) -> str | None:
        return self.pop(key, lambda v: isinstance(v, str) and v.strip() != "", "a non-empty string", required)

    def pop_name(
        self, key: str, what: str, required: bool = False, reserved: frozenset[str] = frozenset()
    ) -> str | None:
        value = self.pop_str(key, required)
        if value is None:
            return None
        if not self.check_name(key, value, what, reserved):
            return None
        return value

    def check_name(self, key: str, name: str, what: str, reserved: frozenset[str] = frozenset()) -> bool:
        try:
            check_identifier(name, what)
        except GrammarError as exc:
            self.error(key, str(exc))
            return False
        if name.startswith("_"):
            self.error(key, f"{what} {name!r} starts with an underscore (reserved for generated code)")
            return False
        if name in reserved:
            self.error(key, f"{what} {name!r} is reserved: the generated code uses that name")
            return False
        return True

    def pop_names(self, key: str, what: str) -> tuple[str, ...]:
        """A comma-separated string or a YAML list of identifiers."""
        value = self.pop(
            key,
            lambda v: isinstance(v, str) or (isinstance(v, list) and all(isinstance(i, str) for i in v)),
            "a comma-separated string or a list of names",
        )
        if value is None:
            return ()
        items = (
            [p.strip() for p in value.split(",")] if isinstance(value, str) else [p.strip() for p in value]
        )
        names: list[str] = []
        for item in items:
            if item in names:
                self.error(key, f"{what} {item!r} is listed twice")
            elif self.check_name(key, item, what):
                names.append(item)
        return tuple(names)

    def pop_args(self, key: str) -> list[Arg] | None:
        text = self.pop_str(key, required=True)
        if text is None:
            return None
        try:
            args, bad = parse_args(text)
        except GrammarError as exc:
            self.error(key, str(exc))
            return None
        for message in bad:
            self.error(key, message)
        seen: set[str] = set()
        has_default = False
        for arg in args:
            if arg.name in seen:
                self.error(key, f"argument {arg.name!r} appears twice")
            seen.add(arg.name)
            self.check_name(key, arg.name, "argument name", naming.RESERVED_ARG_NAMES)
            if arg.default is not None:
                has_default = True
            elif has_default:
                self.error(key, f"argument {arg.name!r} has no default but follows an argument that has one")
        return args if not bad else None

    def pop_outputs(self, key: str) -> list[Output] | None:
        text = self.pop_str(key, required=True)
        if text is None:
            return None
        try:
            outputs = parse_outputs(text)
        except GrammarError as exc:
            self.error(key, str(exc))
            return None
        seen: set[str] = set()
        for i, out in enumerate(outputs):
            if out.name in seen:
                self.error(key, f"output {out.name!r} appears twice")
            seen.add(out.name)
            self.check_name(key, out.name, "output name", naming.RESERVED_ARG_NAMES)
            if out.is_list and i != len(outputs) - 1:
                self.error(key, f"Tensor[] output {out.name!r} must be the last output")
        return outputs

    def pop_doc(self, key: str = "doc") -> str | None:
        """The doc on one line (whitespace runs collapsed); quotes and backslashes are kept
        as written and escaped where the docstring is rendered."""
        doc = self.pop_str(key)
        if doc is None:
            return None
        return " ".join(doc.split())

    def pop_arg_docs(self) -> tuple[tuple[str, str, int], ...]:
        """`arg_docs:` items as (name, text on one line, line). An empty value is kept as ""
        for validate.py to report with the other text rules; a value that is not text, or a
        name given twice, is reported here at its own line."""
        raw = self.pop(
            "arg_docs",
            lambda v: isinstance(v, dict) and all(isinstance(k, str) for k in v),
            "a mapping `<argument name>: <text>`",
        )
        if raw is None:
            return ()
        key_lines = getattr(raw, "key_lines", {})
        out: list[tuple[str, str, int]] = []
        for key, value in raw.items():
            where = Location(self.lines.file, key_lines.get(key, self.lines("arg_docs").line))
            if value is not None and not isinstance(value, str):
                self.ok = False
                message = f"arg_docs {key!r} must be text, got a {kind_name(value)}"
                self.problems.add(where, self.name, message)
                continue
            out.append((key, " ".join((value or "").split()), where.line))
        for key, again in getattr(raw, "duplicate_keys", ()):
            self.ok = False
            self.problems.add(Location(self.lines.file, again), self.name, f"arg_docs {key!r} appears twice")
        return tuple(out)

    def finish(self, known: tuple[str, ...]) -> None:
        for key in self.entry:
            self.error(
                key if isinstance(key, str) else None,
                f"unknown key {_short(key)}; known keys: {', '.join(known)}",
            )


def _is_bad_char(ch: str) -> bool:
    """A control character inside a value (newlines and tabs are layout, not content)."""
    return ch not in "\n\t" and is_control(ch)


def _strings(value: Any) -> list[str]:
    """Every string in a value a key accepted: a string, a list of them, or a mapping."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    return []


def _short(value: Any, limit: int = 60) -> str:
    """`repr(value)` cut to `limit` characters (a value may be huge)."""
    text = reprlib.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(value: Any) -> str:
    return f"{kind_name(value)} {_short(value)}"
