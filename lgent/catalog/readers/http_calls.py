"""How to call one OpenAPI (3.x) or Swagger (2.0) operation, as the ``http`` of its origin
(``lgent.origin.HttpOperation``): base URL, method, path, each parameter's place and JSON
Schema, the request body, and the names of the security schemes it accepts. Parameter and body
descriptions are made plain text; schemas are kept as the spec writes them.

Schemas are made complete on their own: every local ``$ref`` they reach (``#/definitions/Pet``,
``#/components/schemas/Pet``, and what those refer to in turn) is copied into ``definitions``
under its name, and the reference rewritten to ``#/$defs/Pet``. A reference to nothing, or to
another document, is left as it is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lgent.catalog.readers.plain_text import plain_text
from lgent.catalog.readers.schema_types import resolve_ref

PARAMETER_FIELDS = frozenset({"name", "in", "required", "description", "schema", "content"})
"""Keys of a parameter object that are not part of a Swagger 2 parameter's inline schema."""
_NAMED = ("#/definitions/", "#/components/schemas/")
_PLACES = ("path", "query", "header", "cookie", "formData")


def base_url(document: Mapping[str, Any], path_item: Any, operation: Any) -> str | None:
    """The URL an operation's path is appended to, or None when the spec names no server.

    OpenAPI 3: the first ``servers`` entry of the operation, else of its path, else of the
    document, its ``{variables}`` replaced by their defaults (a relative URL is kept as
    written). Swagger 2: ``scheme://host/basePath``, https preferred among the schemes."""
    for holder in (operation, path_item, document):
        servers = holder.get("servers") if isinstance(holder, Mapping) else None
        if isinstance(servers, list) and servers and isinstance(servers[0], Mapping):
            return _server_url(servers[0])
    host = document.get("host")
    if not isinstance(host, str) or not host.strip():
        return None
    schemes = operation.get("schemes") if isinstance(operation, Mapping) else None
    if not isinstance(schemes, list) or not schemes:
        schemes = document.get("schemes")
    listed = [s for s in schemes if isinstance(s, str)] if isinstance(schemes, list) else []
    scheme = "https" if "https" in listed or not listed else listed[0]
    base = document.get("basePath")
    path = base if isinstance(base, str) else ""
    if path and not path.startswith("/"):
        path = "/" + path
    return f"{scheme}://{host.strip().rstrip('/')}{path.rstrip('/')}"


def _server_url(server: Mapping[str, Any]) -> str | None:
    url = server.get("url")
    if not isinstance(url, str):
        return None
    variables = server.get("variables")
    if isinstance(variables, Mapping):
        for name, variable in variables.items():
            default = variable.get("default") if isinstance(variable, Mapping) else None
            if default is not None:
                url = url.replace("{" + str(name) + "}", str(default))
    return url.rstrip("/") or url


def security_names(document: Mapping[str, Any], operation: Mapping[str, Any]) -> list[str]:
    """The security schemes an operation accepts (its own ``security``, else the document's),
    by name, in order; empty when it needs none."""
    found = operation.get("security", document.get("security"))
    names: list[str] = []
    for requirement in found if isinstance(found, list) else []:
        if isinstance(requirement, Mapping):
            names.extend(str(n) for n in requirement if str(n) not in names)
    return names


class SchemaRefs:
    """The named schemas of one document, each rewritten once and shared by every operation
    that reaches it (an operation's ``definitions`` hold the same objects: never changed)."""

    def __init__(self, document: Any) -> None:
        self.document = document
        self._keys: dict[str, str | None] = {}
        self._rewritten: dict[str, tuple[Any, frozenset[str]]] = {}

    def key(self, ref: str) -> str | None:
        """The ``$defs`` name of a local reference, or None when it points at nothing."""
        if ref not in self._keys:
            target = resolve_ref(self.document, ref)
            if not ref.startswith("#/") or not isinstance(target, dict | list | bool):
                self._keys[ref] = None
            else:
                name = next((ref[len(p) :] for p in _NAMED if ref.startswith(p)), None)
                if name is None or "/" in name:
                    name = ref[2:]
                name = name.replace("~1", "/").replace("~0", "~").replace("/", ".")
                while name in self._keys.values():
                    name += "_"
                self._keys[ref] = name
        return self._keys[ref]

    def rewrite(self, value: Any, refs: set[str]) -> Any:
        """``value`` with its local references rewritten to ``#/$defs/<name>``; the
        references it holds are added to ``refs``."""
        if isinstance(value, list):
            return [self.rewrite(v, refs) for v in value]
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for key, inner in value.items():
            if key == "$ref" and isinstance(inner, str):
                name = self.key(inner)
                if name is not None:
                    refs.add(inner)
                out[key] = inner if name is None else f"#/$defs/{name}"
            else:
                out[key] = self.rewrite(inner, refs)
        return out

    def target(self, ref: str) -> tuple[Any, frozenset[str]]:
        """What ``ref`` points at, rewritten, and the references it holds (computed once)."""
        if ref not in self._rewritten:
            refs: set[str] = set()
            value = self.rewrite(resolve_ref(self.document, ref), refs)
            self._rewritten[ref] = (value, frozenset(refs))
        return self._rewritten[ref]


class Definitions:
    """The named schemas one operation's schemas reach, gathered through ``SchemaRefs``."""

    def __init__(self, refs: SchemaRefs) -> None:
        self.refs = refs
        self.found: dict[str, Any] = {}
        self._seen: set[str] = set()

    def schema(self, value: Any) -> Any:
        """``value`` rewritten, and every named schema it reaches gathered into ``found``."""
        pending: set[str] = set()
        rewritten = self.refs.rewrite(value, pending)
        while pending:
            ref = pending.pop()
            if ref in self._seen:
                continue
            self._seen.add(ref)
            target, inner = self.refs.target(ref)
            name = self.refs.key(ref)
            assert name is not None
            self.found[name] = target
            pending |= inner - self._seen
        return rewritten


def parameter_schema(param: Mapping[str, Any]) -> Any:
    """A parameter's JSON Schema: its ``schema`` (OpenAPI 3), the schema of its first
    ``content`` media type, or its own inline type fields (Swagger 2)."""
    if isinstance(param.get("schema"), dict):
        return param["schema"]
    content = param.get("content")
    if isinstance(content, Mapping) and content:
        media = next(iter(content.values()))
        if isinstance(media, Mapping) and isinstance(media.get("schema"), dict):
            return media["schema"]
    return {k: v for k, v in param.items() if k not in PARAMETER_FIELDS}


def _media_type(listed: Any, fallback: str | None = None) -> str | None:
    types = [t for t in listed if isinstance(t, str)] if isinstance(listed, list) else []
    json_first = sorted(types, key=lambda t: (t != "application/json", "json" not in t))
    return json_first[0] if json_first else fallback


def operation_call(
    document: Mapping[str, Any],
    refs: SchemaRefs,
    path: str,
    method: str,
    path_item: Mapping[str, Any],
    operation: Mapping[str, Any],
    parameters: list[tuple[dict[str, Any], str]],
) -> dict[str, Any]:
    """The ``http`` of an operation's origin (a dict ``HttpOperation`` validates);
    ``parameters`` are the operation's own and its path's, ``$ref`` already followed; ``refs``
    is the document's (one for all its operations)."""
    definitions = Definitions(refs)
    listed: list[dict[str, Any]] = []
    body: dict[str, Any] | None = None
    forms = False
    for param, _ in parameters:
        name, place = param.get("name"), param.get("in")
        if place == "body":
            body = {
                "content_type": _media_type(operation.get("consumes", document.get("consumes"))),
                "required": param.get("required") is True,
                "json_schema": definitions.schema(param.get("schema") or {}),
                **_described(param),
            }
            continue
        if not isinstance(name, str) or not name or place not in _PLACES:
            continue
        forms = forms or place == "formData"
        listed.append(
            {
                "name": name,
                "location": place,
                "required": param.get("required") is True or place == "path",
                "json_schema": definitions.schema(parameter_schema(param)),
                **_described(param),
            }
        )
    request = operation.get("requestBody")
    if isinstance(request, dict) and isinstance(request.get("$ref"), str):
        request = resolve_ref(document, request["$ref"])
    if isinstance(request, dict):
        content = request.get("content")
        content = content if isinstance(content, Mapping) else {}
        chosen = _media_type(list(content))
        media = content.get(chosen) if chosen is not None else None
        schema = media.get("schema") if isinstance(media, Mapping) else None
        body = {
            "content_type": chosen,
            "required": request.get("required") is True,
            "json_schema": definitions.schema(schema if isinstance(schema, dict) else {}),
            **_described(request),
        }
    elif forms and body is None:
        consumes = operation.get("consumes", document.get("consumes"))
        form_types = [t for t in consumes if "form" in str(t)] if isinstance(consumes, list) else []
        body = {"content_type": form_types[0] if form_types else "multipart/form-data"}
    operation_id = operation.get("operationId")
    return {
        "method": method.upper(),
        "path": path,
        "base_url": base_url(document, path_item, operation),
        "operation_id": operation_id.strip() if isinstance(operation_id, str) else None,
        "parameters": listed,
        "body": body,
        "security": security_names(document, operation),
        "definitions": definitions.found,
    }


def _described(part: Mapping[str, Any]) -> dict[str, str]:
    """A parameter's or body's description as plain text, if it has one."""
    about = part.get("description")
    text = plain_text(about) if isinstance(about, str) else ""
    return {"description": text} if text else {}


__all__ = [
    "Definitions",
    "SchemaRefs",
    "base_url",
    "operation_call",
    "parameter_schema",
    "security_names",
]
