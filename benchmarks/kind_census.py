"""What real schemas say about their values: the census the kind vocabulary was chosen from.

    python -m benchmarks.kind_census            # prints the tables
    python -m benchmarks.kind_census --top 40 --json counts.json

Counts, over the 70 MCP servers' ``tools/list`` files, the 567 Swagger 2.0 specs and the OpenAPI 3
examples of ``../shared/ecosystem`` (read in place; the archive is unpacked into a temporary
folder): JSON Schema ``format``s, property and parameter names (whole and by last word),
value ``pattern``s, the shapes of string enums, units named for numbers, what descriptions say a
tool returns, and output wrappers (an object whose only property is ``result``, ``data``...).
docs/importing.md summarises one run.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from benchmarks.ecosystem_tools import (
    ToolSchemas,
    mcp_tools,
    openapi3_operations,
    swagger_operations,
    unpacked_specs,
)
from lgent.analysis.identifiers import split_identifier

MAX_WALK = 6
"""How deep a schema is walked below a tool's input or output (through properties and items)."""

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_UNIT = re.compile(
    r"\b(?:in|as|of)\s+(?:the\s+)?(milliseconds?|seconds?|minutes?|hours?|days?|weeks?|months?|"
    r"years?|pixels?|px|points?|inches|inch|cm|centimet(?:er|re)s?|mm|millimet(?:er|re)s?|"
    r"met(?:er|re)s?|km|kilomet(?:er|re)s?|miles?|feet|degrees?|celsius|fahrenheit|kelvin|"
    r"bytes?|kb|mb|gb|percent(?:age)?|bpm|hz|usd|cents?|dollars?|utc)\b",
    re.IGNORECASE,
)
_UNIT_SUFFIX = re.compile(
    r"_(ms|sec|secs|seconds|minutes|mins|hours|days|px|pixels|inches|cm|mm|km|m|meters|"
    r"bytes|kb|mb|pct|percent|bpm|hz|usd)$"
)
_RETURNS = re.compile(
    r"\b(?:returns?|returning)\s+((?:(?:the|a|an|all|its|their|list of|json|back)\s+)*"
    r"[\w\-]+(?:\s+[\w\-]+){0,2})",
    re.IGNORECASE,
)
_AS_FORMAT = re.compile(
    r"\b(?:as|in|to)\s+(?:a\s+|an\s+)?([\w\-]+\s+(?:format|string|image|file|code|document|"
    r"text|data|url|link|path))\b|\bas\s+(?:a\s+|an\s+)?([A-Z][\w\-]+)",
)
_FIRST_WORDS = re.compile(r"^\s*((?:[\w\-]+\s+){2}[\w\-]+)")
_LEADING_VERB = re.compile(
    r"^\s*(get|gets|fetch|fetches|retrieve|retrieves|list|lists|search|searches|find|finds|"
    r"read|reads|download|downloads|convert|converts|generate|generates|create|creates|"
    r"extract|extracts|take|takes|calculate|calculates)\s+(?:for\s+)?"
    r"((?:(?:the|a|an|all|detailed|current|latest|specific|information|info|about|of)\s+)*"
    r"[\w\-]+(?:\s+[\w\-]+)?)",
    re.IGNORECASE,
)
_WRAPPERS = ("result", "results", "data", "items", "value", "output", "response", "content")
_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("three upper-case letters (ISO 4217 currency?)", re.compile(r"[A-Z]{3}")),
    ("two lower-case letters (ISO 639-1 language?)", re.compile(r"[a-z]{2}")),
    ("two upper-case letters (ISO 3166 country?)", re.compile(r"[A-Z]{2}")),
    ("language tag xx-XX / xx_XX", re.compile(r"[a-z]{2}[-_][A-Z]{2}")),
    ("MIME type", re.compile(r"[a-z]+/[\w.+\-]+")),
    ("HTTP method", re.compile(r"GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS")),
    ("file extension", re.compile(r"\.?(?:pdf|png|jpe?g|svg|csv|json|xml|html?|md|txt|docx?)")),
)


def normal_name(name: str) -> str:
    """``fileAbsolutePath`` -> ``file_absolute_path``: a property name, case and separators
    made one form, so names from different styles count together."""
    return "_".join(w.lower() for w in split_identifier(_CAMEL.sub("_", name)) if w)


@dataclass
class Census:
    """The counts, each a Counter, and how many tools and schemas they came from."""

    tools: Counter[str] = field(default_factory=Counter)
    formats: Counter[str] = field(default_factory=Counter)
    names: Counter[str] = field(default_factory=Counter)
    last_words: Counter[str] = field(default_factory=Counter)
    patterns: Counter[str] = field(default_factory=Counter)
    enum_shapes: Counter[str] = field(default_factory=Counter)
    enum_sets: Counter[str] = field(default_factory=Counter)
    units: Counter[str] = field(default_factory=Counter)
    returns: Counter[str] = field(default_factory=Counter)
    formats_said: Counter[str] = field(default_factory=Counter)
    leading: Counter[str] = field(default_factory=Counter)
    wrappers: Counter[str] = field(default_factory=Counter)
    outputs: Counter[str] = field(default_factory=Counter)
    described: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {k: dict(v) for k, v in vars(self).items()}


def _deref(schema: Any, document: Any) -> Any:
    from lgent.catalog.readers.schema_types import resolve_ref

    for _ in range(8):
        if not isinstance(schema, Mapping) or not isinstance(schema.get("$ref"), str):
            return schema
        schema = resolve_ref(document, schema["$ref"])
    return None


def _members(schema: Mapping[str, Any]) -> Iterator[Any]:
    for key in ("anyOf", "oneOf", "allOf"):
        found = schema.get(key)
        if isinstance(found, list):
            yield from found


def _values(
    schema: Any, document: Any, name: str, depth: int, seen: set[int]
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(property name, schema)`` of ``schema`` and everything under it, ``$ref`` followed
    once per schema object (so a recursive schema is visited once). The name is given with a
    property's own schema only, not again with its ``anyOf`` members or its items."""
    schema = _deref(schema, document)
    if not isinstance(schema, Mapping) or depth > MAX_WALK or id(schema) in seen:
        return
    seen.add(id(schema))
    yield name, schema
    for member in _members(schema):
        yield from _values(member, document, "", depth + 1, seen)
    items = schema.get("items")
    if isinstance(items, Mapping):
        yield from _values(items, document, "", depth + 1, seen)
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        for key, sub in properties.items():
            yield from _values(sub, document, str(key), depth + 1, seen)


def _count_value(census: Census, family: str, name: str, schema: Mapping[str, Any]) -> None:
    fmt = schema.get("format")
    if isinstance(fmt, str):
        census.formats[fmt] += 1
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        census.patterns[pattern] += 1
    enum = schema.get("enum")
    if isinstance(enum, list) and len(enum) >= 2 and all(isinstance(v, str) for v in enum):
        for label, shape in _SHAPES:
            if all(shape.fullmatch(v) for v in enum):
                census.enum_shapes[label] += 1
                break
        else:
            census.enum_shapes["other"] += 1
        shown = ",".join(sorted(enum)[:6]) + (",..." if len(enum) > 6 else "")
        census.enum_sets[f"{len(enum)}: {shown}"] += 1
    if name:
        normal = normal_name(name)
        if normal:
            census.names[normal] += 1
            census.last_words[normal.rsplit("_", 1)[-1]] += 1
    about = schema.get("description")
    text = about if isinstance(about, str) else ""
    first = _FIRST_WORDS.match(text)
    if first and name:
        census.described[" ".join(first.group(1).lower().split())] += 1
    if schema.get("type") in ("number", "integer"):
        for found in _UNIT.finditer(text):
            census.units[found.group(1).lower()] += 1
        suffix = _UNIT_SUFFIX.search(normal_name(name)) if name else None
        if suffix:
            census.units[f"name _{suffix.group(1)}"] += 1


def _count_description(census: Census, text: str) -> None:
    for found in _RETURNS.finditer(text):
        census.returns[" ".join(found.group(1).lower().split())] += 1
    for found in _AS_FORMAT.finditer(text):
        census.formats_said[(found.group(1) or found.group(2)).lower()] += 1
    lead = _LEADING_VERB.match(text)
    if lead:
        census.leading[f"{lead.group(1).lower()} {' '.join(lead.group(2).lower().split())}"] += 1


def _count_output(census: Census, tool: ToolSchemas) -> None:
    schema = _deref(tool.output_schema, tool.document)
    if not isinstance(schema, Mapping):
        census.outputs[f"{tool.family}: no output schema"] += 1
        return
    properties = schema.get("properties")
    if isinstance(properties, Mapping) and len(properties) == 1:
        (only,) = properties
        census.wrappers[f"{tool.family}: lone {only!r}"] += 1
        inner = _deref(properties[only], tool.document)
        kind = inner.get("type") if isinstance(inner, Mapping) else None
        census.outputs[f"{tool.family}: lone-property wrapper of {kind or 'other'}"] += 1
        return
    kind = schema.get("type") or ("object" if properties else "other")
    census.outputs[f"{tool.family}: {kind}"] += 1


def count(tools: Iterable[ToolSchemas], census: Census | None = None) -> Census:
    """Add the counts of ``tools`` to ``census`` (a new one by default) and return it."""
    census = census or Census()
    for tool in tools:
        census.tools[tool.family] += 1
        seen: set[int] = set()
        for name, schema in _values(tool.input_schema, tool.document, "", 0, seen):
            _count_value(census, tool.family, name, schema)
        for name, schema in _values(tool.output_schema, tool.document, "", 0, seen):
            _count_value(census, tool.family, name, schema)
        _count_description(census, tool.description)
        if tool.output_description:
            _count_description(census, tool.output_description)
        _count_output(census, tool)
    return census


def _table(title: str, counter: Counter[str], top: int) -> str:
    rows = [f"{n:>7,}  {key[:110]}" for key, n in counter.most_common(top)]
    return (
        f"== {title} ({len(counter):,} distinct, {sum(counter.values()):,} in all)\n"
        + "\n".join(rows)
    )


def report(census: Census, top: int) -> str:
    """The census as text tables, the ``top`` of each."""
    parts = [
        "tools: " + ", ".join(f"{k} {v:,}" for k, v in sorted(census.tools.items())),
        _table("JSON Schema formats", census.formats, top),
        _table("property and parameter names", census.names, top),
        _table("last word of names", census.last_words, top),
        _table("value patterns", census.patterns, top),
        _table("string enums by shape", census.enum_shapes, top),
        _table("string enums, most frequent sets", census.enum_sets, top),
        _table("units of numbers (description, name suffix)", census.units, top),
        _table("property descriptions: the first three words", census.described, top),
        _table("descriptions: what follows 'returns'", census.returns, top),
        _table(
            "descriptions: 'as/in/to X format|image|file...', 'as Capitalised'",
            census.formats_said,
            top,
        ),
        _table("descriptions: the leading verb and its object", census.leading, top),
        _table("output wrappers (an object with one property)", census.wrappers, top),
        _table("output schema shapes", census.outputs, top),
    ]
    return "\n\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=30, help="rows per table")
    parser.add_argument("--json", help="also write every count to this JSON file")
    parser.add_argument("--mcp-only", action="store_true", help="count only the MCP servers")
    args = parser.parse_args()
    censuses = {"MCP servers": count(mcp_tools())}
    if not args.mcp_only:
        openapi = count(openapi3_operations())
        with unpacked_specs() as specs:
            censuses["OpenAPI and Swagger"] = count(swagger_operations(specs), openapi)
    for title, census in censuses.items():
        print(f"######## {title}\n\n{report(census, args.top)}\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            dumped = {title: census.as_dict() for title, census in censuses.items()}
            json.dump(dumped, out, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
