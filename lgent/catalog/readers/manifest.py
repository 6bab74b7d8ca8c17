"""L-gent manifests: ``*.json`` and ``*.yaml``/``*.yml`` files holding one record, a list of
records, or ``{"entries": [...], "types": [...]}``. The fallback for JSON and YAML files that no
other reader recognises, so its errors are the ones a malformed file gets."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import yaml

from lgent.catalog.readers.base import (
    JSON_SUFFIXES,
    YAML_SUFFIXES,
    Document,
    Located,
    ReadContext,
    parse_failure,
)
from lgent.catalog.readers.parsing import load_yaml
from lgent.catalog.readers.records import parse_record, records_of
from lgent.errors import LoadError


class ManifestReader:
    name: ClassVar[str] = "manifest"
    title: ClassVar[str] = "L-gent JSON/YAML manifest (entries and type declarations)"
    suffixes: ClassVar[frozenset[str]] = JSON_SUFFIXES | YAML_SUFFIXES
    skips_bad_sources: ClassVar[bool] = False

    def detect(self, doc: Document) -> bool:
        return doc.suffix in self.suffixes

    def read(self, doc: Document, ctx: ReadContext) -> Iterator[Located]:
        if doc.suffix in JSON_SUFFIXES:
            obj = doc.data
            if doc.parse_error is not None:
                ctx.problem(parse_failure(doc))
                return
            for item in records_of(obj, doc.source, 1, ctx):
                located = parse_record(item, doc.source, 1, ctx)
                if located is not None:
                    yield located
            return
        yield from read_yaml_records(doc.text, doc.source, ctx, first_line=1)


def read_yaml_records(
    text: str, source: str, ctx: ReadContext, *, first_line: int, single: bool = False
) -> Iterator[Located]:
    """The records of YAML ``text`` (a manifest, or Markdown front matter when ``single``), each
    located at its own line, and a validation error at the line of the field it names."""
    try:
        node, obj = load_yaml(text, source, first_line=first_line, string_keys=True)
    except LoadError as err:
        ctx.problem(err)
        return
    if obj is None:
        ctx.problem(LoadError("empty manifest", source=source, line=first_line))
        return
    if single and not isinstance(obj, dict):
        ctx.problem(
            LoadError(
                "front matter must be a mapping of entry fields", source=source, line=first_line
            )
        )
        return
    items = records_of(obj, source, first_line, ctx)
    nodes = _item_nodes(node, obj)
    for index, item in enumerate(items):
        item_node = nodes[index] if index < len(nodes) else None
        line = first_line + (item_node.start_mark.line if item_node is not None else 0)
        located = parse_record(item, source, line, ctx, item_node, first_line)
        if located is not None:
            yield located


def _item_nodes(node: yaml.Node | None, obj: Any) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if (
        isinstance(node, yaml.MappingNode)
        and isinstance(obj, dict)
        and ("entries" in obj or "types" in obj)
    ):
        found: list[yaml.Node] = []
        for key in ("types", "entries"):
            for k, v in node.value:
                if k.value == key and isinstance(v, yaml.SequenceNode):
                    found.extend(v.value)
        return found
    return [node] if node is not None else []
