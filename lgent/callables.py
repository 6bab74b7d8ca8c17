"""An artifact's callable definition: what an agent needs to call it, in its ecosystem's own shape.

Built from ``CatalogEntry.origin`` (``lgent.origin``), which the importers fill:

- an MCP tool: ``{"kind": "mcp_tool", "tool": <the MCP Tool as its server lists it>,
  "server": {"id", "launch": [...]}}``;
- an MCP server: ``{"kind": "mcp_server", "name", "launch": [...]}`` (and its registry record,
  ``server_json``, when it was imported from one);
- an HTTP API operation: an OpenAI-style function (``{"type": "function", "function": {"name",
  "description", "parameters"}}``) plus ``"http": {"method", "path", "base_url", "parameters":
  [{"name", "in", "required", "argument"}], "body", "security"}``, which says where each
  argument of the function goes;
- an HTTP API: ``{"kind": "http_api", "name", "base_url"}``;
- an A2A agent or skill: ``{"kind": "a2a_agent" | "a2a_skill", "url", ...}``;
- an OpenAI function: ``{"type": "function", "function": <as listed>}``.

An artifact whose source said nothing of how to call it has none (None). A launch names
environment variables and headers, never their values.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lgent.models import CatalogEntry
    from lgent.origin import HttpOperation, Origin

FUNCTION_NAME = re.compile(r"[^a-zA-Z0-9_-]+")
MAX_FUNCTION_NAME = 64
"""OpenAI-style function names: letters, digits, ``_`` and ``-``, at most 64 characters."""
_OUR_PARAGRAPHS = ("Parameters: ", "Returns: ")


def callable_definition(entry: CatalogEntry) -> dict[str, Any] | None:
    """How to call ``entry`` (see the module), or None when its source did not say."""
    origin = entry.origin
    if origin is None:
        return None
    if origin.protocol == "mcp" and origin.role == "tool" and origin.tool is not None:
        return {
            "kind": "mcp_tool",
            "tool": origin.tool,
            "server": {"id": origin.server, "launch": _launches(origin)},
        }
    if origin.protocol == "mcp" and origin.role == "server":
        server = {"kind": "mcp_server", "name": entry.name, "launch": _launches(origin)}
        return server | ({"server_json": origin.record} if origin.record is not None else {})
    if origin.protocol == "openapi" and origin.http is not None:
        return http_function(entry, origin.http)
    if origin.protocol == "openapi":
        return {"kind": "http_api", "name": entry.name, "base_url": origin.url}
    if origin.protocol == "a2a" and origin.role == "agent":
        return {"kind": "a2a_agent", "name": entry.name, "url": origin.url}
    if origin.protocol == "a2a":
        return {
            "kind": "a2a_skill",
            "agent": origin.server,
            "url": origin.url,
            "skill": origin.tool,
        }
    if origin.protocol == "openai" and origin.tool is not None:
        return {"kind": "function", "type": "function", "function": origin.tool}
    return None


def _launches(origin: Origin) -> list[dict[str, Any]]:
    """Each launch, its empty fields left out."""
    dumped = (launch.model_dump(mode="json", exclude_none=True) for launch in origin.launch)
    return [{k: v for k, v in launch.items() if v != []} for launch in dumped]


def function_name(text: str) -> str:
    """``text`` as an OpenAI-style function name (other characters become ``_``)."""
    name = FUNCTION_NAME.sub("_", text).strip("_") or "operation"
    return name[:MAX_FUNCTION_NAME]


def summary_of(description: str) -> str:
    """A description without the parameter and result paragraphs the importers append (the
    function's schema says the same)."""
    paragraphs = description.split("\n\n")
    while len(paragraphs) > 1 and paragraphs[-1].startswith(_OUR_PARAGRAPHS):
        paragraphs.pop()
    return "\n\n".join(paragraphs)


def http_function(entry: CatalogEntry, http: HttpOperation) -> dict[str, Any]:
    """An HTTP operation as an OpenAI-style function plus where each argument goes."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    placed: list[dict[str, Any]] = []
    for param in http.parameters:
        argument = param.name if param.name not in properties else f"{param.location}_{param.name}"
        schema = dict(param.json_schema)
        if param.description and "description" not in schema:
            schema["description"] = param.description
        properties[argument] = schema
        if param.required:
            required.append(argument)
        where: dict[str, Any] = {"name": param.name, "in": param.location}
        where["required"] = param.required
        if argument != param.name:
            where["argument"] = argument
        placed.append(where)
    body: dict[str, Any] | None = None
    if http.body is not None:
        body = {"content_type": http.body.content_type}
        if http.body.json_schema:
            argument = "body" if "body" not in properties else "request_body"
            schema = dict(http.body.json_schema)
            if http.body.description and "description" not in schema:
                schema["description"] = http.body.description
            properties[argument] = schema
            body["argument"] = argument
            if http.body.required:
                required.append(argument)
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    if http.definitions:
        parameters["$defs"] = http.definitions
    return {
        "kind": "http_operation",
        "type": "function",
        "function": {
            "name": function_name(http.operation_id or f"{http.method}_{http.path}"),
            "description": summary_of(entry.description),
            "parameters": parameters,
        },
        "http": {
            "method": http.method,
            "path": http.path,
            "base_url": http.base_url,
            "parameters": placed,
            "body": body,
            "security": list(http.security),
        },
    }


__all__ = ["callable_definition", "function_name", "http_function", "summary_of"]
