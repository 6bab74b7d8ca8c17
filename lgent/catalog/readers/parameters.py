"""A tool's parameters and results as paragraphs of its description.

Real tools say much of what they do in their arguments ("query: text to extract nutrition
information from") and their results ("calories, protein_g"). Written into the description, those
words reach the keyword index and the embedded text of every brain without a new field; the first
paragraph stays the tool's own description, which compact answers show.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import Any

from lgent.catalog.readers.plain_text import html_to_text
from lgent.catalog.readers.schema_types import clean_line

MAX_PARAMETERS = 20
"""Parameters (and result fields) listed at most; the rest are counted."""
MAX_PARAMETER_TEXT = 1000
"""Characters kept of one parameter's description."""
MAX_ENUM_VALUES = 8
"""Allowed values listed at most for one parameter."""


def _kind(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = "/".join(str(k) for k in kind if k != "null")
    if kind == "array" and isinstance(schema.get("items"), Mapping):
        inner = schema["items"].get("type")
        return f"array of {inner}" if isinstance(inner, str) else "array"
    return str(kind) if isinstance(kind, str) and kind else ""


def _fields(schema: Mapping[str, Any]) -> list[str]:
    """The property names of an object schema, or of the items of an array schema."""
    items = schema.get("items")
    inner = items if schema.get("type") == "array" and isinstance(items, Mapping) else schema
    properties = inner.get("properties")
    return [str(n) for n in properties] if isinstance(properties, Mapping) else []


def _described(name: str, schema: Any) -> str:
    schema = schema if isinstance(schema, Mapping) else {}
    text = clean_line(str(name), 80)
    kind = _kind(schema)
    fields = _fields(schema)
    if fields:
        shown = ", ".join(clean_line(f, 80) for f in fields[:MAX_PARAMETERS])
        more = f" and {len(fields) - MAX_PARAMETERS} more" if len(fields) > MAX_PARAMETERS else ""
        kind = f"{kind or 'object'} with {shown}{more}"
    if kind:
        text += f" ({kind})"
    about = schema.get("description") or schema.get("title")
    if isinstance(about, str) and about.strip():
        text += f": {clean_line(html_to_text(about), MAX_PARAMETER_TEXT).rstrip('.;')}"
    values = schema.get("enum")
    if isinstance(values, list) and values:
        shown = ", ".join(clean_line(str(v), 40) for v in values[:MAX_ENUM_VALUES])
        more = (
            f" (and {len(values) - MAX_ENUM_VALUES} more)" if len(values) > MAX_ENUM_VALUES else ""
        )
        text += f"; one of {shown}{more}"
    return text


def _listed(label: str, items: list[str], total: int) -> str:
    if not items:
        return ""
    more = f"; and {total - len(items)} more" if total > len(items) else ""
    return f"{label}: {'; '.join(items)}{more}."


def parameters_paragraph(properties: Mapping[str, Any], required: Iterable[str] = ()) -> str:
    """``Parameters: q (string): the search text; limit (integer).`` for a JSON Schema
    ``properties`` object, the ``required`` ones first; empty when there are none."""
    needed = [str(r) for r in required if r in properties]
    names = [*needed, *(n for n in properties if n not in needed)]
    items = [_described(n, properties[n]) for n in names[:MAX_PARAMETERS]]
    return _listed("Parameters", items, len(names))


def results_paragraph(schema: Any) -> str:
    """``Returns: calories (number); name (string).`` for an output JSON Schema (its
    top-level properties, or its own type); empty when it says nothing."""
    if not isinstance(schema, Mapping):
        return ""
    properties = schema.get("properties")
    if isinstance(properties, Mapping) and properties:
        names = list(properties)
        items = [_described(n, properties[n]) for n in names[:MAX_PARAMETERS]]
        return _listed("Returns", items, len(names))
    kind = _kind(schema)
    about = schema.get("description")
    if isinstance(about, str) and about.strip():
        about = html_to_text(about)
        kind = (
            f"{kind}: {clean_line(about, MAX_PARAMETER_TEXT)}" if kind else clean_line(about, 160)
        )
    return f"Returns: {kind}." if kind else ""


def with_paragraphs(description: str, *paragraphs: str) -> str:
    """``description`` followed by the non-empty ``paragraphs``, a blank line between each.

    The description is cleaned as Python cleans a docstring (``inspect.cleandoc``): many tools
    take theirs from one, so every line after the first carries the source's indentation; it
    is removed (the lines' indentation relative to each other stays), as are blank lines at
    either end."""
    return "\n\n".join(p for p in (inspect.cleandoc(description), *paragraphs) if p)
