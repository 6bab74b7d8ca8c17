"""L-gent's own record shape, shared by the native readers: a mapping with an ``id`` is an entry,
one with a ``type`` and no ``id`` is a type declaration; ``{"entries": [...], "types": [...]}``
holds both."""

from __future__ import annotations

from typing import Any

import yaml

from lgent.catalog.readers.base import Located, ReadContext
from lgent.errors import LoadError, ValidationError
from lgent.models import CatalogEntry, TypeDecl


def records_of(obj: Any, source: str, line: int, ctx: ReadContext) -> list[Any]:
    """The records a parsed manifest holds: a list, a single record, or entries and types."""
    if isinstance(obj, list):
        return obj
    if isinstance(obj, dict) and ("entries" in obj or "types" in obj) and "id" not in obj:
        extra = set(obj) - {"entries", "types"}
        if extra:
            ctx.problem(
                LoadError(
                    f"unknown top-level key(s): {', '.join(sorted(extra))}",
                    source=source,
                    line=line,
                )
            )
        types, entries = obj.get("types") or [], obj.get("entries") or []
        if not isinstance(types, list) or not isinstance(entries, list):
            ctx.problem(LoadError("'entries' and 'types' must be lists", source=source, line=line))
            return []
        return [*types, *entries]
    return [obj]


def parse_record(
    obj: Any,
    source: str,
    line: int,
    ctx: ReadContext,
    node: yaml.Node | None = None,
    first_line: int = 1,
) -> Located | None:
    """``obj`` validated into an entry or a type declaration, or None (the problem reported)."""
    if not isinstance(obj, dict):
        ctx.problem(
            LoadError(f"expected an object, got {type(obj).__name__}", source=source, line=line)
        )
        return None
    try:
        record: CatalogEntry | TypeDecl
        if "id" in obj:
            record = CatalogEntry.parse(obj, source=source, line=line)
        elif "type" in obj:
            record = TypeDecl.parse(obj, source=source, line=line)
        else:
            ctx.problem(
                LoadError(
                    "record is neither an entry (needs 'id') nor a type declaration (needs 'type')",
                    source=source,
                    line=line,
                )
            )
            return None
    except ValidationError as err:
        if node is not None and err.problems:
            key_line = _key_line(node, err.problems[0].field.split(".")[0])
            if key_line is not None:
                err = err.located(line=first_line + key_line)
        ctx.problem(err)
        return None
    return Located(record, source, line)


def _key_line(node: yaml.Node, key: str) -> int | None:
    if isinstance(node, yaml.MappingNode):
        for k, _ in node.value:
            if getattr(k, "value", None) == key:
                return int(k.start_mark.line)
    return None
