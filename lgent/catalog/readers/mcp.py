"""MCP servers: the result of a ``tools/list`` request (``{"tools": [...]}``, a bare list of
tools, or the whole JSON-RPC response), from a file or harvested live (``lgent.catalog.harvest``).

The server becomes an artifact (its name from ``serverInfo`` when harvested, else the file name),
and each tool an artifact ``part_of`` it, with the id ``<server>/<tool>``. A tool's input type is
the type of its one required argument (a tool's ``inputSchema`` is its argument list, not a data
type, so its own title names nothing); its output type comes from ``outputSchema`` (a FastMCP
``{"result": ...}`` wrapper, an object whose only property is ``result``, is unwrapped: the SDKs
wrap a plain return value so). Annotations become contracts: ``readOnlyHint`` ->
``read-only``, ``destructiveHint`` -> ``destructive``, ``idempotentHint`` -> ``idempotent``,
``openWorldHint`` -> ``open-world`` (only hints that are true). Each tool's value kinds are
inferred from its name, description and schemas (``kinds``: ``lgent.catalog.kind_inference``).

Each tool's ``origin`` keeps the tool exactly as listed (JSON Schemas and annotations included),
so it can be called; the server's and its tools' origins say how to start or reach the server
when the document says so: a ``launch`` object beside ``tools`` (a live harvest writes it, and
``lgent.origin.Launch`` is its shape: a command and args, or a URL and transport; environment
variables by name only). Descriptions are made plain text, the tool's own words kept in it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from lgent.catalog.readers import provenance
from lgent.catalog.readers.base import (
    JSON_SUFFIXES,
    YAML_SUFFIXES,
    Document,
    Located,
    ReadContext,
    parse_failure,
    pointer,
)
from lgent.catalog.readers.common import cleaned, entry, source_key, stable, type_records
from lgent.catalog.readers.parameters import (
    parameters_paragraph,
    results_paragraph,
    with_paragraphs,
)
from lgent.catalog.readers.provenance import execution_of_launches
from lgent.catalog.readers.schema_types import SchemaTyper
from lgent.errors import LGentError, LoadError
from lgent.ids import normalise_id
from lgent.origin import Launch

PARTIAL = "x-lgent-partial"
"""A harvest's note that its tool list is incomplete (``lgent.catalog.harvest.PARTIAL``)."""

_HINTS = {
    "readOnlyHint": "read-only",
    "destructiveHint": "destructive",
    "idempotentHint": "idempotent",
    "openWorldHint": "open-world",
}


def _tools_of(data: Any) -> tuple[list[Any], str] | None:
    """The tool list of a ``tools/list`` result and its JSON pointer, or None."""
    if isinstance(data, dict) and isinstance(data.get("result"), dict) and "jsonrpc" in data:
        found = _tools_of(data["result"])
        return None if found is None else (found[0], "/result" + found[1])
    if isinstance(data, dict) and isinstance(data.get("tools"), list):
        return data["tools"], "/tools"
    if isinstance(data, list):
        return data, ""
    return None


def launches_of(data: Any, source: str, warn: Callable[[str], None]) -> list[dict[str, Any]]:
    """The ``launch`` of a harvested document (one object or a list), each checked against
    ``Launch``; an environment mapping is kept by its names only. One that does not fit is
    left out with a warning."""
    found = data.get("launch") if isinstance(data, dict) else None
    items = found if isinstance(found, list) else [] if found is None else [found]
    launches: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            warn(f"{source}#/launch: expected an object; left out")
            continue
        env = item.get("env")
        named = {**item, "env": list(env)} if isinstance(env, dict) else item
        try:
            launches.append(Launch(**named).model_dump(mode="json", exclude_none=True))
        except (LGentError, ValueError) as err:
            warn(f"{source}#/launch/{index}: {err}; left out")
    return launches


def _is_tool(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("name"), str) and "inputSchema" in item


class McpReader:
    name: ClassVar[str] = "mcp"
    title: ClassVar[str] = "MCP server: a tools/list result (file, or harvested live)"
    suffixes: ClassVar[frozenset[str]] = JSON_SUFFIXES | YAML_SUFFIXES
    skips_bad_sources: ClassVar[bool] = True

    def detect(self, doc: Document) -> bool:
        found = _tools_of(doc.data)
        return found is not None and bool(found[0]) and all(_is_tool(t) for t in found[0])

    def read(self, doc: Document, ctx: ReadContext) -> Iterator[Located]:
        data = doc.data
        if doc.parse_error is not None:
            ctx.problem(parse_failure(doc))
            return
        found = _tools_of(data)
        if found is None:
            ctx.problem(
                LoadError(
                    'not an MCP tools/list result: expected {"tools": [...]} or a list of tools',
                    source=doc.source,
                    line=1,
                )
            )
            return
        tools, at = found
        info = data.get("serverInfo") if isinstance(data, dict) else None
        info = info if isinstance(info, dict) else {}
        server_name = str(info.get("name") or source_key(doc))
        server_id = stable(server_name, "server name", doc, "")
        typer = SchemaTyper(server_id, None, ctx.warn, doc.source)
        launch = launches_of(data, doc.source, ctx.warn)
        provided = {**provenance.versioned(info.get("version")), **execution_of_launches(launch)}
        parts = list(self._tools(doc, ctx, tools, at, server_id, launch, typer, provided))
        names = [str(tool["name"]) for tool, _ in parts]
        origin: dict[str, Any] = {"protocol": "mcp", "role": "server", "launch": launch}
        (description,) = cleaned(
            origin,
            info.get("instructions")
            or (data.get("instructions") if isinstance(data, dict) else None),
        )
        summary = f"MCP server {server_name} with {len(names)} tool(s): {', '.join(names[:30])}"
        server = entry(
            doc,
            ctx,
            "",
            {
                "id": server_id,
                "name": server_name,
                "entity_type": "other",
                "description": f"{description}\n\n{summary}" if description else summary,
                "keywords": ["mcp", "mcp-server"],
                "origin": origin,
                **provided,
            },
        )
        yield from type_records(doc, typer)
        partial = data.get(PARTIAL) if isinstance(data, dict) else None
        if isinstance(partial, str):
            ctx.warn(f"{doc.source}: {partial}")
        if server is not None:
            if not isinstance(partial, str):  # a cut listing retires nothing
                ctx.wholes.append(server_id)
            yield server
        yield from (located for _, located in parts)

    def _tools(
        self,
        doc: Document,
        ctx: ReadContext,
        tools: list[Any],
        at: str,
        server_id: str,
        launch: list[dict[str, Any]],
        typer: SchemaTyper,
        provided: dict[str, Any],
    ) -> Iterator[tuple[dict[str, Any], Located]]:
        """Each tool of the listing (at JSON pointer ``at``) with its entry, in order; a tool
        that is malformed, gives no id of its own or is listed twice is told to ``ctx`` and
        left out."""
        seen: set[str] = set()
        for index, tool in enumerate(tools):
            where = f"{at}/{index}"
            if not _is_tool(tool):
                ctx.problem(
                    LoadError(
                        "a tool needs a string 'name' and an 'inputSchema'",
                        source=f"{doc.source}#{where}",
                    )
                )
                continue
            tool_id = normalise_id(f"{server_id}/{tool['name']}")
            if tool_id.rstrip("/") in ("", server_id):
                ctx.warn(
                    f"{doc.source}#{where}: tool name {tool['name']!r} gives no id of its own "
                    "(blank, invisible or punctuation only); that tool was left out"
                )
                continue
            if tool_id in seen:
                ctx.warn(
                    f"{doc.source}#{where}: tool {tool['name']!r} listed twice; kept the first"
                )
                continue
            seen.add(tool_id)
            tool_origin: dict[str, Any] = {
                "protocol": "mcp",
                "role": "tool",
                "tool": tool,
                "server": server_id,
                "launch": launch,
            }
            located = self._tool(doc, ctx, tool, tool_id, tool_origin, where, typer, provided)
            if located is not None:
                yield tool, located

    def _tool(
        self,
        doc: Document,
        ctx: ReadContext,
        tool: dict[str, Any],
        tool_id: str,
        origin: dict[str, Any],
        where: str,
        typer: SchemaTyper,
        provided: dict[str, Any],
    ) -> Located | None:
        schema = tool.get("inputSchema")
        typer.rebase(schema, f"{where}/inputSchema")
        arguments = schema.get("properties") if isinstance(schema, dict) else None
        arguments = arguments if isinstance(arguments, dict) else {}
        required = schema.get("required") if isinstance(schema, dict) else None
        required = [r for r in required if r in arguments] if isinstance(required, list) else []
        input_type = None
        if len(required) == 1:
            input_type = typer.type_of(
                arguments[required[0]], f"{where}/inputSchema{pointer('properties', required[0])}"
            )
        output_type = None
        output = tool.get("outputSchema")
        if isinstance(output, dict):
            typer.rebase(output, f"{where}/outputSchema")
            inner = output.get("properties")
            if isinstance(inner, dict) and list(inner) == ["result"]:
                output_type = typer.type_of(
                    inner["result"], f"{where}/outputSchema/properties/result"
                )
            else:
                output_type = typer.type_of(output, f"{where}/outputSchema")
        annotations = tool.get("annotations")
        contracts = (
            [c for hint, c in _HINTS.items() if annotations.get(hint) is True]
            if isinstance(annotations, dict)
            else []
        )
        title = tool.get("title")
        if not isinstance(title, str) and isinstance(annotations, dict):
            title = annotations.get("title")
        title = title if isinstance(title, str) and title.strip() else None
        (description,) = cleaned(origin, tool.get("description") or title or "")
        kinds = (
            None
            if ctx.kinds is None
            else ctx.kinds.tool_kinds(
                name=str(tool["name"]),
                description=str(tool.get("description") or ""),
                input_schema=schema if isinstance(schema, dict) else {},
                output_schema=output,
            )
        )
        return entry(
            doc,
            ctx,
            where,
            {
                "id": tool_id,
                "name": tool["name"],
                "entity_type": "tool",
                "description": with_paragraphs(
                    description,
                    parameters_paragraph(arguments, required),
                    results_paragraph(output),
                ),
                "keywords": [*([title] if title else []), *list(arguments)[:20]],
                "input_type": input_type,
                "output_type": output_type,
                "contracts": contracts,
                "relations": [{"type": "part_of", "target": origin["server"]}],
                "origin": origin,
                "kinds": kinds,
                **provided,
            },
        )
