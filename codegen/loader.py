"""Reading the YAML spec files, keeping the line of every entry and every key.

The files are parsed with PyYAML's *safe* loader (plain data only: no tags, no objects).
A small subclass records where each mapping starts and where each of its keys sits, so
that every error the generator reports can point at `file:line`. Nothing here knows
what an op is; `model.py` turns these entries into validated dataclasses.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml


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


class Items(list):
    """A YAML sequence that remembers the line of each item (composite steps use it)."""

    lines: list[int]


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that builds `Entry` mappings and `Items` sequences annotated with lines."""

    def construct_items(self, node: yaml.SequenceNode) -> Items:
        items = Items(self.construct_object(child, deep=True) for child in node.value)
        items.lines = [child.start_mark.line + 1 for child in node.value]
        return items

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> Entry:  # type: ignore[override]
        entry = Entry(super().construct_mapping(node, deep=True))
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


class LoadError(Exception):
    """The file is not a YAML list of mappings; `problems` holds (line, `file:line: ...`)."""

    def __init__(self, problems: list[tuple[int, str]]) -> None:
        super().__init__("\n".join(message for _, message in problems))
        self.problems = problems


def load_entries(path: Path, display_name: str | None = None) -> tuple[str, list[Entry]]:
    """Parse `path` into its list of entries; returns (display name, entries).

    `display_name` is what error messages call the file (default: its name).
    """
    name = display_name or path.name
    text = path.read_text(encoding="utf-8")
    loader = _LineLoader(text)
    try:
        root = loader.get_single_node()
        data: Any = loader.construct_document(root) if root is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc)
        raise LoadError([(line, f"{name}:{line}: not valid YAML: {problem}")]) from None
    finally:
        loader.dispose()
    if data is None:
        return name, []
    if not isinstance(data, list):
        raise LoadError(
            [(1, f"{name}:1: expected a list of entries (`- op: ...`), got {type(data).__name__}")]
        )
    bad = [
        (
            node.start_mark.line + 1,
            f"{name}:{node.start_mark.line + 1}: expected a mapping entry (`- op: ...`), "
            f"got {type(item).__name__} {item!r}",
        )
        for item, node in zip(data, root.value, strict=True)
        if not isinstance(item, Entry)
    ]
    if bad:
        raise LoadError(bad)
    return name, data
