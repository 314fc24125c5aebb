"""Reading the YAML spec files, keeping the line of every entry and every key.

The files are parsed with PyYAML's *safe* loader (plain data only: no tags, no objects).
A small subclass records where each mapping starts and where each of its keys sits, so
that every error the generator reports can point at `file:line`. Nothing here knows
what an op is; `model.py` turns these entries into validated dataclasses.

Hostile input is refused with a `file:line` message, never a traceback or a hang: bytes
that are not UTF-8, control characters, aliases (`*name`: an alias bomb expands to
billions of nodes, and the spec has no use for them), nesting deeper than `MAX_DEPTH`
(the composer recurses), and a file larger than `MAX_BYTES`.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

# Limits that keep a hostile file from hanging or crashing the loader. The real spec nests
# four levels deep and is about 100 kB.
MAX_DEPTH = 32
MAX_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True, order=True)
class Location:
    """A place in a spec file, 1-based, printed as `file:line`."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


class Entry(dict):
    """A YAML mapping that remembers its own line and the line of each key."""

    line: int
    key_lines: dict[str, int]
    duplicate_keys: list[tuple[str, int]]
    section: str  # the title of the `# --- Title` comment above a top-level entry ("" if none)


class Items(list):
    """A YAML sequence that remembers the line of each item (composite steps use it)."""

    lines: list[int]


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that builds `Entry` mappings and `Items` sequences annotated with lines,
    and refuses aliases and deep nesting."""

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None,
                None,
                f"alias *{event.anchor} is not allowed in the spec (write the value out)",
                event.start_mark,
            )
        if self._depth >= MAX_DEPTH:
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark
            )
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_items(self, node: yaml.SequenceNode) -> Items:
        items = Items(self.construct_object(child, deep=True) for child in node.value)
        items.lines = [child.start_mark.line + 1 for child in node.value]
        return items

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> Entry:
        entry = Entry(super().construct_mapping(node, deep=True))
        entry.section = ""
        entry.line = node.start_mark.line + 1
        entry.key_lines = {}
        entry.duplicate_keys = []
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, str):
                line = key_node.start_mark.line + 1
                if key in entry.key_lines:
                    entry.duplicate_keys.append((key, line))
                else:
                    entry.key_lines[key] = line
        return entry


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LineLoader.construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _LineLoader.construct_items)


def kind_name(value: Any) -> str:
    """What a YAML value is, in the spec's words (`mapping`, `list`, `str`, ...)."""
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


class LoadError(Exception):
    """The file is not a YAML list of mappings; `problems` holds (line, `file:line: ...`)."""

    def __init__(self, problems: list[tuple[int, str]]) -> None:
        super().__init__("\n".join(message for _, message in problems))
        self.problems = problems


def _read_text(path: Path, name: str) -> str:
    """The file as text; bytes that are not UTF-8 and control characters are refused."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise LoadError([(0, f"{name}:0: cannot be read: {exc.strerror or exc}")]) from None
    if len(data) > MAX_BYTES:
        raise LoadError([(1, f"{name}:1: larger than {MAX_BYTES} bytes; this is not an op spec")])
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise LoadError(
            [(line, f"{name}:{line}: byte 0x{data[exc.start]:02x} is not UTF-8 (the spec must be UTF-8)")]
        ) from None
    bad = [
        (line, f"{name}:{line}: control character {_codepoint(ch)} is not allowed in the spec")
        for line, text_line in enumerate(text.split("\n"), 1)
        for ch in dict.fromkeys(text_line)
        if is_control(ch) and ch not in "\t\r"
    ]
    if bad:
        raise LoadError(bad)
    return text


def is_control(ch: str) -> bool:
    """A character that must not reach generated code: C0/C1 controls, DEL, the line and
    paragraph separators and other unprintable format characters."""
    return not ch.isprintable() and ch not in " \t\n"


def _codepoint(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def _syntax_hint(problem: str, source_line: str) -> str:
    """What most likely went wrong, for the YAML mistakes a spec author makes."""
    if "\t" in source_line or "'\\t'" in problem:
        return " (this line holds a tab: YAML indents with spaces only)"
    if "mapping values are not allowed" in problem:
        return (
            ' (a value containing `: ` must be quoted, `doc: "a: b"`; or a key is indented '
            "differently from the keys above it)"
        )
    if "expected <block end>" in problem or "could not find expected ':'" in problem or "indent" in problem:
        return (
            " (check the indentation: each entry starts with `- ` at column 0 and its keys are "
            "indented two spaces, like the entries around it)"
        )
    return ""


def load_entries(path: Path, display_name: str | None = None) -> tuple[str, list[Entry]]:
    """Parse `path` into its list of entries; returns (display name, entries).

    `display_name` is what error messages call the file (default: its name).
    """
    name = display_name or path.name
    text = _read_text(path, name)
    loader = _LineLoader(text)
    try:
        root = loader.get_single_node()
        data: Any = loader.construct_document(root) if root is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc)
        hint = _syntax_hint(
            problem, text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else ""
        )
        raise LoadError([(line, f"{name}:{line}: not valid YAML: {problem}{hint}")]) from None
    except RecursionError:  # pragma: no cover - MAX_DEPTH stops nesting long before this
        raise LoadError([(1, f"{name}:1: not valid YAML: nested too deeply")]) from None
    finally:
        loader.dispose()
    if data is None:
        return name, []
    if not isinstance(data, list):
        raise LoadError([(1, f"{name}:1: expected a list of entries (`- op: ...`), got a {kind_name(data)}")])
    assert root is not None  # data is a list: the document has a root node
    bad = [
        (
            node.start_mark.line + 1,
            f"{name}:{node.start_mark.line + 1}: expected a mapping entry (`- op: ...`), "
            f"got {kind_name(item)} {reprlib.repr(item)}",
        )
        for item, node in zip(data, root.value, strict=True)
        if not isinstance(item, Entry)
    ]
    if bad:
        raise LoadError(bad)
    headings = sections(text)
    for entry in data:
        entry.section = next((title for line, title in reversed(headings) if line < entry.line), "")
    return name, data


SECTION_PREFIX = "# --- "


def sections(text: str) -> list[tuple[int, str]]:
    """(line, text) of every section comment `# --- Text` at column 0, in file order."""
    out: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(SECTION_PREFIX):
            title = line.removeprefix(SECTION_PREFIX).strip()
            if title:
                out.append((number, title))
    return out
