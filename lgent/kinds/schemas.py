"""Reading a JSON Schema value the way the evidence rules need it: ``$ref`` followed, the null
member of a union dropped, a list's items looked into, names in snake case, example values
collected (``example``, ``examples``, ``default``, ``const``, and values quoted after "e.g." in
a description). Never raises on any input: what cannot be read is left out."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from lgent.catalog.readers.schema_types import resolve_ref
from lgent.kinds.clauses import head_ends, leading_noun_phrase
from lgent.kinds.words import MAX_TEXT, normal_name

MAX_REF_HOPS = 16
"""``$ref`` aliases followed at most, one after another."""
MAX_EXAMPLES = 12
"""Example values kept per schema."""

_EXAMPLE_MARK = re.compile(
    r"(?:\be\.?\s?g\b\.?|\bfor example\b|\bfor instance\b|\bsuch as\b|\bexamples?:|例如|比如|如：)"
    r"[,:：]?\s*(.{1,200}?)(?:\)|$|\.\s|。|；|;|\n)",
    re.IGNORECASE,
)
_QUOTED = re.compile(r"'([^'\n]{1,80})'|\"([^\"\n]{1,80})\"|`([^`\n]{1,80})`|“([^”\n]{1,80})”")
_SPLIT = re.compile(r"\s*(?:,|，|、|\bor\b)\s*")


def deref(schema: Any, document: Any) -> Mapping[str, Any] | None:
    """``schema`` with its local ``$ref`` followed (in ``document``, else in ``schema``), or
    None when it is not an object or points nowhere."""
    for _ in range(MAX_REF_HOPS):
        if not isinstance(schema, Mapping):
            return None
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            return schema
        found = resolve_ref(document, ref) if document is not None else None
        schema = found if isinstance(found, Mapping) else None
    return None


def _is_null(schema: Any) -> bool:
    return isinstance(schema, Mapping) and schema.get("type") == "null"


def unwrap(schema: Any, document: Any) -> Mapping[str, Any] | None:
    """``schema`` dereferenced, and a union of one type and null (``anyOf``/``oneOf``), or a
    one-member ``allOf``, read as that type; the outer schema's own keys (its description)
    are kept over the member's."""
    current = deref(schema, document)
    for _ in range(MAX_REF_HOPS):
        if current is None:
            return None
        for key in ("anyOf", "oneOf", "allOf"):
            members = current.get(key)
            if isinstance(members, list) and members:
                kept = [m for m in members if not _is_null(m)]
                if len(kept) == 1:
                    inner = deref(kept[0], document)
                    if inner is None:
                        return current
                    outer = {k: v for k, v in current.items() if k != key}
                    current = {**inner, **outer}
                    break
        else:
            return current
    return current


def json_types(schema: Mapping[str, Any] | None, document: Any) -> frozenset[str]:
    """The JSON types a value of ``schema`` may have (``null`` left out; empty when unknown)."""
    if schema is None:
        return frozenset()
    found: set[str] = set()
    kind = schema.get("type")
    if isinstance(kind, str):
        found.add(kind)
    elif isinstance(kind, list):
        found.update(k for k in kind if isinstance(k, str))
    for key in ("anyOf", "oneOf"):
        members = schema.get(key)
        if isinstance(members, list):
            for member in members[:20]:
                inner = deref(member, document)
                if inner is not None and isinstance(inner.get("type"), str):
                    found.add(inner["type"])
    if not found:
        if isinstance(schema.get("properties"), Mapping):
            found.add("object")
        elif isinstance(schema.get("items"), Mapping):
            found.add("array")
        elif isinstance(schema.get("enum"), list) and all(
            isinstance(v, str) for v in schema["enum"]
        ):
            found.add("string")
    found.discard("null")
    if "file" in found:  # Swagger 2.0 uploads
        found.discard("file")
        found.add("string")
    return frozenset(found)


def text_of(value: Any) -> str:
    """``value`` if it is a string (cut to ``MAX_TEXT``), else ``""``."""
    return value[:MAX_TEXT] if isinstance(value, str) else ""


def description_of(schema: Mapping[str, Any] | None) -> str:
    """A schema's description and title, as one text."""
    if schema is None:
        return ""
    parts = [text_of(schema.get("description")), text_of(schema.get("title"))]
    return " \n".join(p for p in parts if p.strip())[:MAX_TEXT]


def _scalar_text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str | int | float):
        text = str(value).strip()
        return text if 0 < len(text) <= 200 else None
    return None


def schema_examples(schema: Mapping[str, Any] | None) -> list[str]:
    """``example``, ``examples`` (a list or an OpenAPI map of examples), ``default`` and
    ``const``, as text."""
    if schema is None:
        return []
    found: list[str] = []
    candidates: list[Any] = [schema.get("example"), schema.get("default"), schema.get("const")]
    listed = schema.get("examples")
    if isinstance(listed, list):
        candidates.extend(listed[:MAX_EXAMPLES])
    elif isinstance(listed, Mapping):
        candidates.extend(
            v.get("value") for v in list(listed.values())[:MAX_EXAMPLES] if isinstance(v, Mapping)
        )
    for value in candidates:
        text = _scalar_text(value)
        if text is not None and text not in found:
            found.append(text)
    return found[:MAX_EXAMPLES]


@lru_cache(maxsize=4096)
def description_examples(text: str) -> tuple[str, ...]:
    """The values a description gives as examples: quoted ones after "e.g.", "for example",
    "such as", "例如"..., else the bare comma-separated words there."""
    return tuple(_description_examples(text))


def _description_examples(text: str) -> list[str]:
    found: list[str] = []
    for mark in _EXAMPLE_MARK.finditer(text[:MAX_TEXT]):
        span = mark.group(1)
        quoted = [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(span)]
        words = quoted or [w.strip(" '\"`“”") for w in _SPLIT.split(span)]
        for word in words:
            word = word.strip()
            if word and len(word) <= 80 and (quoted or " " not in word) and word not in found:
                found.append(word)
            if len(found) >= MAX_EXAMPLES:
                return found
    return found


@dataclass(frozen=True)
class Value:
    """A value as the evidence rules read it: its name (snake case), JSON types (of the items,
    for a list), whether it is a list, its format, pattern, enum, examples, description, and,
    for a record, its properties. ``where`` says where it is (for the evidence)."""

    name: str
    types: frozenset[str]
    many: bool
    format: str
    pattern: str
    enum: tuple[str, ...] | None
    examples: tuple[str, ...]
    description: str
    properties: Mapping[str, Any] | None
    required: tuple[str, ...]
    where: str
    document: Any = None
    described: bool = False
    """True when the schema has a description of its own (not only a title)."""
    head: tuple[str, frozenset[int]] | None = None
    """The noun phrase the description starts with and where its heads end (computed once)."""


def value_of(name: str, schema: Any, document: Any, where: str) -> Value:
    """``schema`` (the schema of the value called ``name``) read as a :class:`Value`; a list's
    format, pattern, enum and properties are its items'; descriptions of both are kept."""
    outer = unwrap(schema, document)
    outer_types = json_types(outer, document)
    many = outer is not None and outer_types == frozenset({"array"})
    inner = unwrap(outer.get("items"), document) if many and outer is not None else outer
    types = json_types(inner, document) if many else outer_types
    described = [description_of(outer)]
    if many and inner is not None:
        described.append(description_of(inner))
    description = "\n".join(d for d in described if d)[:MAX_TEXT]
    fmt = inner.get("format") if inner is not None else None
    pattern = inner.get("pattern") if inner is not None else None
    enum = inner.get("enum") if inner is not None else None
    enum_values = (
        tuple(v for v in enum[:1000] if isinstance(v, str))
        if isinstance(enum, list) and enum and all(isinstance(v, str) for v in enum)
        else None
    )
    examples = [*schema_examples(outer), *(schema_examples(inner) if many else [])]
    examples += [e for e in description_examples(description) if e not in examples]
    properties = inner.get("properties") if inner is not None else None
    required = inner.get("required") if inner is not None else None
    return Value(
        name=normal_name(name) if name else "",
        types=types,
        many=many,
        format=fmt.lower() if isinstance(fmt, str) else "",
        pattern=pattern[:MAX_TEXT] if isinstance(pattern, str) else "",
        enum=enum_values,
        examples=tuple(examples[:MAX_EXAMPLES]),
        description=description,
        properties=properties if isinstance(properties, Mapping) else None,
        required=tuple(r for r in required if isinstance(r, str))
        if isinstance(required, list)
        else (),
        where=where,
        document=document,
        described=any(
            text_of(s.get("description")).strip() for s in (outer, inner) if s is not None
        ),
        head=_head(description),
    )


@lru_cache(maxsize=4096)
def _head(description: str) -> tuple[str, frozenset[int]] | None:
    if not description:
        return None
    phrase = leading_noun_phrase(description)
    return phrase, head_ends(phrase)


def object_properties(schema: Any, document: Any) -> Iterator[tuple[str, Any, bool]]:
    """``(name, schema, required)`` of each property of an object schema, required ones first
    (in the schema's order otherwise)."""
    root = unwrap(schema, document)
    if root is None:
        return
    properties = root.get("properties")
    if not isinstance(properties, Mapping):
        return
    required_list = root.get("required")
    required = (
        {r for r in required_list if isinstance(r, str)}
        if isinstance(required_list, list)
        else set()
    )
    items = [(str(n), s) for n, s in properties.items()]
    ordered = [i for i in items if i[0] in required] + [i for i in items if i[0] not in required]
    for name, sub in ordered:
        yield name, sub, name in required


__all__ = [
    "MAX_EXAMPLES",
    "MAX_REF_HOPS",
    "Value",
    "deref",
    "description_examples",
    "description_of",
    "json_types",
    "object_properties",
    "schema_examples",
    "text_of",
    "unwrap",
    "value_of",
]
