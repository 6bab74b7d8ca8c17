"""OpenAI function-calling definitions: ``{"type": "function", "function": {...}}`` tools, the
bare ``{"name", "description", "parameters"}`` form, a list of either, or ``{"tools": [...]}`` /
``{"functions": [...]}``.

A file of functions has no container artifact of its own: each function is an artifact
``<file>/<name>`` (the file name keeps two files' ``search`` apart). Its input type follows the
MCP rule (the type of its one required parameter); functions declare no output. Each function's
value kinds are inferred from its name, description and parameters (``kinds``:
``lgent.catalog.kind_inference``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from lgent.catalog.readers.base import (
    JSON_SUFFIXES,
    YAML_SUFFIXES,
    Document,
    Located,
    ReadContext,
    parse_failure,
    pointer,
)
from lgent.catalog.readers.common import entry, source_key, stable, type_records
from lgent.catalog.readers.parameters import parameters_paragraph, with_paragraphs
from lgent.catalog.readers.schema_types import SchemaTyper
from lgent.errors import LoadError


def _function(item: Any) -> tuple[dict[str, Any], str] | None:
    """The function definition inside ``item`` and its pointer below it, or None."""
    if not isinstance(item, dict):
        return None
    if item.get("type") == "function" and isinstance(item.get("function"), dict):
        inner = item["function"]
        return (inner, "/function") if isinstance(inner.get("name"), str) else None
    if item.get("type") == "function" and isinstance(item.get("name"), str):
        return item, ""  # the Responses API's flat tool form
    if isinstance(item.get("name"), str) and isinstance(item.get("parameters"), dict):
        return item, ""
    return None


def _items(data: Any) -> tuple[list[Any], str] | None:
    if isinstance(data, dict):
        for key in ("tools", "functions"):
            if isinstance(data.get(key), list):
                return data[key], f"/{key}"
        return ([data], "") if _function(data) else None
    if isinstance(data, list):
        return data, ""
    return None


class OpenAiToolsReader:
    name: ClassVar[str] = "openai"
    title: ClassVar[str] = "OpenAI function-calling tools (JSON or YAML)"
    suffixes: ClassVar[frozenset[str]] = JSON_SUFFIXES | YAML_SUFFIXES
    skips_bad_sources: ClassVar[bool] = True

    def detect(self, doc: Document) -> bool:
        found = _items(doc.data)
        if found is None:
            return False
        items, at = found
        if at == "" and isinstance(doc.data, dict):
            return _function(doc.data) is not None
        return bool(items) and all(_function(i) is not None for i in items)

    def read(self, doc: Document, ctx: ReadContext) -> Iterator[Located]:
        data = doc.data
        if doc.parse_error is not None:
            ctx.problem(parse_failure(doc))
            return
        found = _items(data)
        if found is None:
            ctx.problem(LoadError("no OpenAI function definitions found", source=doc.source))
            return
        items, at = found
        if isinstance(data, dict) and at == "":
            items = [data]
        prefix = stable(source_key(doc), "file name", doc, "")
        typer = SchemaTyper(prefix, None, ctx.warn, doc.source)
        records: list[Located] = []
        seen: set[str] = set()
        for index, item in enumerate(items):
            where = f"{at}/{index}" if at or isinstance(data, list) else ""
            function = _function(item)
            if function is None:
                ctx.problem(
                    LoadError(
                        "not a function definition (needs 'name', and 'parameters' or "
                        "'type': 'function')",
                        source=f"{doc.source}#{where}",
                    )
                )
                continue
            spec, inner = function
            where += inner
            function_id = stable(f"{prefix}/{spec['name']}", "function name", doc, where)
            if function_id in seen:
                ctx.warn(
                    f"{doc.source}#{where}: function {spec['name']!r} listed twice; kept the first"
                )
                continue
            seen.add(function_id)
            located = _function_entry(doc, ctx, spec, function_id, where, typer)
            if located is not None:
                records.append(located)
        yield from type_records(doc, typer)
        yield from records


def _function_entry(
    doc: Document,
    ctx: ReadContext,
    spec: dict[str, Any],
    function_id: str,
    where: str,
    typer: SchemaTyper,
) -> Located | None:
    """The entry of one function definition ``spec`` (at JSON pointer ``where``): its one
    required parameter's type as the input type, its parameters described and kinds inferred."""
    parameters = spec.get("parameters")
    typer.rebase(parameters, f"{where}/parameters")
    properties = parameters.get("properties") if isinstance(parameters, dict) else None
    properties = properties if isinstance(properties, dict) else {}
    required = parameters.get("required") if isinstance(parameters, dict) else None
    required = [r for r in required if r in properties] if isinstance(required, list) else []
    input_type = (
        typer.type_of(
            properties[required[0]],
            f"{where}/parameters{pointer('properties', required[0])}",
        )
        if len(required) == 1
        else None
    )
    kinds = (
        None
        if ctx.kinds is None
        else ctx.kinds.tool_kinds(
            name=str(spec["name"]),
            description=str(spec.get("description") or ""),
            input_schema=parameters if isinstance(parameters, dict) else {},
        )
    )
    return entry(
        doc,
        ctx,
        where,
        {
            "id": function_id,
            "name": spec["name"],
            "entity_type": "tool",
            "description": with_paragraphs(
                str(spec.get("description") or spec["name"]),
                parameters_paragraph(properties, required),
            ),
            "keywords": ["function", *list(properties)[:20]],
            "input_type": input_type,
            "contracts": ["strict"] if spec.get("strict") is True else [],
            "origin": {"protocol": "openai", "role": "function", "tool": spec},
            "kinds": kinds,
        },
    )
