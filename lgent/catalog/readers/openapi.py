"""OpenAPI 3.0 and 3.1, and Swagger 2.0, in JSON or YAML.

The API is an artifact (id from the APIs.guru ``x-providerName``/``x-serviceName`` when present,
else the file name, since titles repeat; its name is the title); each operation is an artifact ``part_of`` it, with the id
``<api>/<operationId>`` (or ``<api>/<method><path>`` when it has none) and the name
``operationId`` or ``METHOD /path``. An operation's input type comes from its request body (3.x
``requestBody``, 2.0 ``in: body``), else from its one required path or query parameter; its output
type from its first success response (2xx, JSON content preferred). HTTP's own guarantees become
contracts: GET and HEAD are ``read-only`` and ``idempotent``, PUT and DELETE ``idempotent``.
An operation marked ``deprecated`` is deprecated. Each operation's value kinds are inferred from
its name, description, arguments and success response (``kinds``:
``lgent.catalog.kind_inference``), and an OpenAPI 3 response ``link`` to another
operation becomes a ``feeds`` relation to it (``openapi_links``).

Each operation's ``origin`` says how to call it (``http_calls``: base URL, method, path,
parameters, body, security scheme names); the API's holds its base URL. Descriptions are made
plain text (HTML converted), the spec's own words kept in the origin.
"""

from __future__ import annotations

from collections.abc import Iterator
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
from lgent.catalog.readers.http_calls import SchemaRefs, base_url, operation_call
from lgent.catalog.readers.openapi_links import (
    OperationIndex,
    linked_operations,
    operation_local_id,
)
from lgent.catalog.readers.parameters import parameters_paragraph, with_paragraphs
from lgent.catalog.readers.provenance import execution_of_url, provider_of
from lgent.catalog.readers.schema_types import SchemaTyper, resolve_ref
from lgent.errors import LoadError

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_SAFE = {"get": ("read-only", "idempotent"), "head": ("read-only", "idempotent")}
_IDEMPOTENT = {"put": ("idempotent",), "delete": ("idempotent",)}


def version_of(data: Any) -> str | None:
    """``3.x`` for OpenAPI 3, ``2.0`` for Swagger 2, else None."""
    if not isinstance(data, dict):
        return None
    openapi, swagger = data.get("openapi"), data.get("swagger")
    if isinstance(openapi, str) and openapi.startswith("3"):
        return openapi
    if str(swagger).startswith("2"):
        return "2.0"
    return None


class OpenApiReader:
    name: ClassVar[str] = "openapi"
    title: ClassVar[str] = "OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML)"
    suffixes: ClassVar[frozenset[str]] = JSON_SUFFIXES | YAML_SUFFIXES
    skips_bad_sources: ClassVar[bool] = True

    def detect(self, doc: Document) -> bool:
        data = doc.data
        return version_of(data) is not None and ("paths" in data or "info" in data)

    def read(self, doc: Document, ctx: ReadContext) -> Iterator[Located]:
        data = doc.data
        if doc.parse_error is not None:
            ctx.problem(parse_failure(doc))
            return
        spec_version = version_of(data)
        if spec_version is None:
            ctx.problem(
                LoadError(
                    "not an OpenAPI or Swagger document (no 'openapi: 3.x' or 'swagger: 2.0')",
                    source=doc.source,
                    line=1,
                )
            )
            return
        info = data.get("info") if isinstance(data.get("info"), dict) else {}
        paths = data.get("paths", {})
        if not isinstance(paths, dict):
            ctx.problem(LoadError("'paths' must be a mapping", source=f"{doc.source}#/paths"))
            return
        provider, service = info.get("x-providerName"), info.get("x-serviceName")
        if isinstance(provider, str) and provider.strip():
            api_key = provider + (f"/{service}" if isinstance(service, str) and service else "")
        else:
            api_key = source_key(doc)  # titles repeat (every example is "Swagger Petstore")
        api_id = stable(api_key, "API name", doc, "/info")
        api_name = str(info.get("title") or api_key)
        url = base_url(data, {}, {})
        versioned = {**provenance.versioned(info.get("version")), **execution_of_url(url)}
        authored = provider_of(info, url)
        categories = info.get("x-apisguru-categories")
        tags = [t.get("name") for t in data.get("tags") or [] if isinstance(t, dict)]
        api_words = [
            *(categories if isinstance(categories, list) else []),
            *[t for t in tags if isinstance(t, str)],
        ]
        typer = SchemaTyper(api_id, data, ctx.warn, doc.source)
        refs = SchemaRefs(data)
        links = OperationIndex.of(paths, api_id) if spec_version != "2.0" else None
        owner = (api_id, refs, links)
        operations = self._operations(doc, ctx, typer, owner, paths, authored, versioned)
        origin: dict[str, Any] = {"protocol": "openapi", "role": "api"}
        if url is not None:
            origin["url"] = url
        (description,) = cleaned(origin, info.get("description") or info.get("title") or api_name)
        api = entry(
            doc,
            ctx,
            "/info",
            {
                "id": api_id,
                "name": str(info.get("title") or api_name),
                "entity_type": "other",
                "description": f"{description}\n\nHTTP API with {len(operations)} operation(s).",
                "origin": origin,
                "keywords": ["api", "openapi" if spec_version != "2.0" else "swagger", *api_words],
                **authored,
                **versioned,
            },
        )
        yield from type_records(doc, typer)
        if api is not None:
            ctx.wholes.append(api_id)
            yield api
        yield from operations

    def _operations(
        self,
        doc: Document,
        ctx: ReadContext,
        typer: SchemaTyper,
        owner: tuple[str, SchemaRefs, OperationIndex | None],
        paths: dict[Any, Any],
        authored: dict[str, str],
        versioned: dict[str, str],
    ) -> list[Located]:
        """The entry of every operation of every path item, in order; what cannot be read
        (a path item that is no object or a ``$ref``, an operation that is no object, an id used
        twice) is told to ``ctx`` and left out. Progress is reported every 200 operations."""
        total = sum(len(item) for item in paths.values() if isinstance(item, dict)) or 1
        done = 0
        operations: list[Located] = []
        seen: set[str] = set()
        for path, item in paths.items():
            item_at = pointer("paths", path)
            if not isinstance(item, dict):
                if not str(path).startswith("x-"):  # an extension may hold anything
                    ctx.warn(f"{doc.source}#{item_at}: a path item must be an object; left out")
                continue
            if "$ref" in item:
                ctx.warn(f"{doc.source}#{item_at}: a path item $ref is not followed")
                continue
            found = item.get("parameters")
            shared: list[Any] = found if isinstance(found, list) else []
            for method in METHODS:
                operation = item.get(method)
                at = item_at + pointer(method)
                if not isinstance(operation, dict):
                    if operation is not None:
                        ctx.warn(f"{doc.source}#{at}: an operation must be an object; left out")
                    continue
                located = self._operation(
                    doc,
                    ctx,
                    typer,
                    owner,
                    (path, method, item),
                    operation,
                    shared,
                    at,
                    authored,
                    versioned,
                )
                if located is not None:
                    record_id = located.record.id  # type: ignore[union-attr]
                    if record_id in seen:
                        ctx.warn(f"{doc.source}#{at}: id {record_id!r} used twice; kept the first")
                        continue
                    seen.add(record_id)
                    operations.append(located)
                done += 1
                if done % 200 == 0:
                    ctx.progress(len(doc.text) * done // total)
        return operations

    def _operation(
        self,
        doc: Document,
        ctx: ReadContext,
        typer: SchemaTyper,
        owner: tuple[str, SchemaRefs, OperationIndex | None],
        where: tuple[str, str, dict[str, Any]],
        operation: dict[str, Any],
        shared: list[Any],
        at: str,
        authored: dict[str, str],
        versioned: dict[str, str],
    ) -> Located | None:
        path, method, path_item = where
        api_id, refs, links = owner
        name = _operation_name(path, method, operation)
        local = operation_local_id(path, method, operation)
        record_id = stable(f"{api_id}/{local}", "operation", doc, at)
        parameters = self._parameters(typer.document, shared, operation.get("parameters"))
        input_type = self._input(typer, operation, parameters, at)
        output_type = self._output(typer, operation.get("responses"), at)
        origin: dict[str, Any] = {
            "protocol": "openapi",
            "role": "operation",
            "server": api_id,
            "http": operation_call(
                typer.document, refs, path, method, path_item, operation, parameters
            ),
        }
        summary, details = cleaned(origin, operation.get("summary"), operation.get("description"))
        description = "\n\n".join(p for p in (summary, details) if p)
        listed = operation.get("tags")
        tags: list[Any] = listed if isinstance(listed, list) else []
        arguments, required = _parameter_schemas(parameters)
        kinds = _operation_kinds(ctx, typer.document, path_item, operation, name)
        feeds = (
            []
            if links is None
            else linked_operations(
                typer.document, operation, links, lambda m: ctx.warn(f"{doc.source}#{m}"), at
            )
        )
        return entry(
            doc,
            ctx,
            at,
            {
                "id": record_id,
                "name": name,
                "entity_type": "tool",
                "description": with_paragraphs(
                    description or name, parameters_paragraph(arguments, required)
                ),
                "keywords": [*tags, f"{method.upper()} {path}", *arguments],
                "status": "deprecated" if operation.get("deprecated") is True else "active",
                "input_type": input_type,
                "output_type": output_type,
                "contracts": [*_SAFE.get(method, ()), *_IDEMPOTENT.get(method, ())],
                "relations": [
                    {"type": "part_of", "target": api_id},
                    *({"type": "feeds", "target": t} for t in feeds),
                ],
                "origin": origin,
                "kinds": kinds,
                **authored,
                **versioned,
            },
        )

    @staticmethod
    def _parameters(document: Any, *lists: Any) -> list[tuple[dict[str, Any], str]]:
        """Path-level then operation-level parameters (``$ref`` followed), the latter winning."""
        found: dict[tuple[Any, Any], tuple[dict[str, Any], str]] = {}
        for params in lists:
            for param in params if isinstance(params, list) else []:
                where = ""
                if isinstance(param, dict) and isinstance(param.get("$ref"), str):
                    where = param["$ref"][1:]
                    param = resolve_ref(document, param["$ref"])
                if isinstance(param, dict):
                    found[(param.get("name"), param.get("in"))] = (param, where)
        return list(found.values())

    def _input(
        self,
        typer: SchemaTyper,
        operation: dict[str, Any],
        parameters: list[tuple[dict[str, Any], str]],
        at: str,
    ) -> str | None:
        body, body_at = _followed(typer, operation.get("requestBody"), f"{at}/requestBody")
        if isinstance(body, dict):
            return _content_type(typer, body.get("content"), body_at)
        for param, _ in parameters:
            if param.get("in") == "body":
                return typer.type_of(param.get("schema"), f"{at}/parameters")
        required = [
            (p, w)
            for p, w in parameters
            if p.get("required") is True and p.get("in") in ("path", "query")
        ]
        if len(required) == 1:
            param, where = required[0]
            schema = param.get("schema") if "schema" in param else param
            return typer.type_of(schema, where or f"{at}/parameters")
        return None

    def _output(self, typer: SchemaTyper, responses: Any, at: str) -> str | None:
        if not isinstance(responses, dict):
            return None
        codes = sorted(str(c) for c in responses if str(c).startswith("2"))
        for code in codes:
            response = responses.get(code, responses.get(int(code) if code.isdigit() else code))
            response, where = _followed(typer, response, f"{at}/responses/{code}")
            if not isinstance(response, dict):
                continue
            if "content" in response:
                found = _content_type(typer, response.get("content"), where)
            else:
                found = typer.type_of(response.get("schema"), f"{where}/schema")
            if found is not None:
                return found
        return None


def _followed(typer: SchemaTyper, value: Any, at: str) -> tuple[Any, str]:
    """``value`` at pointer ``at``, or what its ``$ref`` points at and where (a reference to
    nowhere is warned about, and gives None)."""
    if not isinstance(value, dict) or not isinstance(value.get("$ref"), str):
        return value, at
    ref = value["$ref"]
    target = resolve_ref(typer.document, ref)
    if not isinstance(target, dict):
        typer.warn(f"{at}: $ref {ref!r} points to no object; no type")
        return None, at
    return target, ref[1:]


_ARGUMENT_PLACES = ("path", "query", "header", "formData")


def _parameter_schemas(
    parameters: list[tuple[dict[str, Any], str]],
) -> tuple[dict[str, Any], list[str]]:
    """Path, query, header and (Swagger 2) form parameters as a JSON Schema ``properties`` map
    (each parameter's description beside its schema) and the names of the required ones."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param, _ in parameters:
        name = param.get("name")
        if not isinstance(name, str) or param.get("in") not in _ARGUMENT_PLACES:
            continue
        schema = param.get("schema")
        schema = schema if isinstance(schema, dict) else param
        properties[name] = {**schema, "description": param.get("description")}
        if param.get("required") is True:
            required.append(name)
    return properties, required


def _content_type(typer: SchemaTyper, content: Any, at: str) -> str | None:
    """The type of an OpenAPI 3 ``content`` map: its JSON media type first."""
    if not isinstance(content, dict) or not content:
        return None
    media = sorted(content, key=lambda m: (m != "application/json", "json" not in str(m), str(m)))
    chosen = content[media[0]]
    if not isinstance(chosen, dict):
        return None
    return typer.type_of(chosen.get("schema"), f"{at}/content{pointer(str(media[0]))}/schema")


def _operation_name(path: str, method: str, operation: dict[str, Any]) -> str:
    """An operation's name: its ``operationId``, else ``METHOD /path``."""
    operation_id = operation.get("operationId")
    if isinstance(operation_id, str) and operation_id.strip():
        return operation_id.strip()
    return f"{method.upper()} {path}"


def _operation_kinds(
    ctx: ReadContext, document: Any, path_item: dict[str, Any], operation: dict[str, Any], name: str
) -> dict[str, Any] | None:
    """The value kinds inferred for an operation (None when the read infers none)."""
    if ctx.kinds is None:
        return None
    written = [operation.get("summary"), operation.get("description")]
    return ctx.kinds.operation_kinds(
        document,
        path_item,
        operation,
        name=name,
        description="\n\n".join(t for t in written if isinstance(t, str) and t.strip()),
    )
