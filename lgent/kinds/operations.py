"""An OpenAPI operation seen as a tool: its arguments as one JSON Schema object, its output schema
and what its success response says, so that kind inference reads an operation as it reads an MCP
tool. Pure: nothing is resolved beyond the parameters' own ``$ref``; schemas keep theirs, which
inference follows in the document.

The arguments are the path, query and form parameters (Swagger 2 ``formData``) and the request
body (Swagger 2 ``in: body``, OpenAPI 3 ``requestBody``, JSON content preferred) as a property
named by the body parameter (``body`` when unnamed). Header and cookie parameters are transport
(``Authorization``, ``Accept``), not data, and are left out. The output is the first success
response (2xx) that has a schema."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from lgent.catalog.readers.schema_types import resolve_ref

_ARGUMENT_PLACES = ("path", "query", "formData")


@dataclass(frozen=True)
class OperationSchemas:
    """An operation's input (an object schema of its arguments), output schema, and the
    description of the response that output comes from."""

    input_schema: dict[str, Any] = field(default_factory=dict)
    output_schema: Any = None
    output_description: str = ""


def _followed(document: Any, value: Any) -> Any:
    """``value``, or what its local ``$ref`` points at (None when it points nowhere)."""
    for _ in range(8):
        if not isinstance(value, Mapping) or not isinstance(value.get("$ref"), str):
            return value
        found = resolve_ref(document, value["$ref"])
        value = found if isinstance(found, Mapping) else None
    return None


def _media_schema(content: Any) -> Any:
    """The schema of an OpenAPI 3 ``content`` map, JSON media types first."""
    if not isinstance(content, Mapping) or not content:
        return None
    media = sorted(content, key=lambda m: (m != "application/json", "json" not in str(m), str(m)))
    chosen = content[media[0]]
    return chosen.get("schema") if isinstance(chosen, Mapping) else None


def _parameters(document: Any, *lists: Any) -> list[Mapping[str, Any]]:
    found: dict[tuple[Any, Any], Mapping[str, Any]] = {}
    for params in lists:
        for raw in params if isinstance(params, list) else []:
            param = _followed(document, raw)
            if isinstance(param, Mapping):
                found[(param.get("name"), param.get("in"))] = param
    return list(found.values())


def openapi_operation_schemas(
    document: Any, path_item: Mapping[str, Any], operation: Mapping[str, Any]
) -> OperationSchemas:
    """The input, output and output description of ``operation`` (found in ``path_item`` of
    ``document``); missing or malformed parts are left out, never an error."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in _parameters(document, path_item.get("parameters"), operation.get("parameters")):
        name = param.get("name")
        if not isinstance(name, str) or not name:
            continue
        place = param.get("in")
        if place in _ARGUMENT_PLACES:
            inner = param.get("schema")
            schema: Mapping[str, Any] = inner if isinstance(inner, Mapping) else param
            described = {
                k: v for k, v in schema.items() if k not in ("name", "in", "required", "schema")
            }
            if isinstance(param.get("description"), str):
                described["description"] = param["description"]
            properties[name] = described
        elif place == "body" and isinstance(param.get("schema"), Mapping):
            properties[name] = param["schema"]
        else:
            continue
        if param.get("required") is True:
            required.append(name)
    body = _followed(document, operation.get("requestBody"))
    if isinstance(body, Mapping):
        schema = _media_schema(body.get("content"))
        if isinstance(schema, Mapping):
            properties["body"] = schema
            if body.get("required") is True:
                required.append("body")
    input_schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required
    output, about = _success_output(document, operation.get("responses"))
    return OperationSchemas(input_schema, output, about)


def _success_output(document: Any, responses: Any) -> tuple[Any, str]:
    if not isinstance(responses, Mapping):
        return None, ""
    first_about = ""
    for code in sorted(str(c) for c in responses if str(c).startswith("2")):
        raw = responses.get(code, responses.get(int(code) if code.isdigit() else code))
        response = _followed(document, raw)
        if not isinstance(response, Mapping):
            continue
        about = response.get("description")
        about = about if isinstance(about, str) else ""
        first_about = first_about or about
        schema = (
            _media_schema(response.get("content"))
            if "content" in response
            else response.get("schema")
        )
        if isinstance(schema, Mapping):
            return schema, about
    return None, first_about


__all__ = ["OperationSchemas", "openapi_operation_schemas"]
