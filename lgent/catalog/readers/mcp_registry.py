"""The official MCP registry's ``server.json`` records: one server (``{"name": "io.github.x/y",
"description", "version", "packages", "remotes"}``), one answer of the registry's API
(``{"server": {...}, "_meta": {...}}``), or a page of its server list (``{"servers": [...]}``).

Each record becomes an MCP server artifact (``entity_type`` other, id its name, name its
``title`` when it has one) whose ``origin`` keeps the record as written and says how to start or
reach the server: one launch per package (``npx``, ``uvx``, ``docker run``, ``dnx`` for npm,
PyPI, OCI and NuGet packages unless ``runtimeHint`` names another runtime; its runtime and
package arguments; its transport) and one per remote (streamable HTTP or SSE, with its URL).
Environment variables and headers are kept by name only. The registry's status ``deprecated``
and ``deleted`` become deprecated and retired.
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
)
from lgent.catalog.readers.common import cleaned, entry, stable
from lgent.errors import LoadError
from lgent.origin import Launch

OFFICIAL = "io.modelcontextprotocol.registry/official"
RUNTIMES = {"npm": "npx", "pypi": "uvx", "oci": "docker", "nuget": "dnx"}
"""The command that runs a package of each registry type when ``runtimeHint`` names none."""
_STATUS = {"deprecated": "deprecated", "deleted": "retired"}


def _is_server(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("name"), str)
        and "/" in data["name"]
        and isinstance(data.get("version"), str)
        and ("packages" in data or "remotes" in data or "server.schema" in str(data.get("$schema")))
    )


def records_of(data: Any) -> list[tuple[dict[str, Any], dict[str, Any], str]] | None:
    """``(server, registry meta, JSON pointer)`` for each record of ``data``, or None when it
    holds none."""
    if _is_server(data):
        return [(data, {}, "")]
    if isinstance(data, dict) and _is_server(data.get("server")):
        meta = data.get("_meta")
        return [(data["server"], meta if isinstance(meta, dict) else {}, "/server")]
    if isinstance(data, dict) and isinstance(data.get("servers"), list):
        found = []
        for index, item in enumerate(data["servers"]):
            inner = records_of(item)
            if inner is None or len(inner) != 1:
                return None
            server, meta, at = inner[0]
            found.append((server, meta, f"/servers/{index}{at}"))
        return found or None
    return None


def _argument(item: Any) -> list[str]:
    """A ``positional`` or ``named`` argument as command-line words (a positional one without
    a value as its ``<valueHint>``, for the user to fill in)."""
    if not isinstance(item, dict):
        return []
    value = item.get("value") if isinstance(item.get("value"), str) else None
    if item.get("type") == "named" and isinstance(item.get("name"), str):
        return [f"{item['name']}={value}" if value is not None else item["name"]]
    if value is not None:
        return [value]
    hint = item.get("valueHint") or item.get("default")
    return [f"<{hint}>"] if isinstance(hint, str) else []


def _names(items: Any) -> list[str]:
    return (
        [str(i["name"]) for i in items if isinstance(i, dict) and isinstance(i.get("name"), str)]
        if isinstance(items, list)
        else []
    )


def _arguments(items: Any) -> list[str]:
    return [word for item in items for word in _argument(item)] if isinstance(items, list) else []


def package_launch(package: dict[str, Any]) -> dict[str, Any]:
    """How to run one package of a server (a dict ``Launch`` validates)."""
    kind = str(package.get("registryType") or "")
    identifier = str(package.get("identifier") or "")
    version = package.get("version") if isinstance(package.get("version"), str) else None
    found = package.get("transport")
    transport: dict[str, Any] = found if isinstance(found, dict) else {}
    env = _names(package.get("environmentVariables"))
    hint = package.get("runtimeHint")
    command = hint if isinstance(hint, str) and hint else RUNTIMES.get(kind)
    runtime = _arguments(package.get("runtimeArguments"))
    if not runtime and command == "npx":
        runtime = ["-y"]
    if not runtime and command == "docker":
        runtime = ["run", "-i", "--rm", *(w for name in env for w in ("-e", name))]
    if kind == "npm" and version:
        target = f"{identifier}@{version}"
    elif kind == "pypi" and version:
        target = f"{identifier}=={version}"
    elif kind == "oci" and version and ":" not in identifier.rsplit("/", 1)[-1]:
        target = f"{identifier}:{version}"
    elif kind == "nuget" and version:
        target = f"{identifier}@{version}"
    else:
        target = identifier
    launch: dict[str, Any] = {
        "transport": transport.get("type", "stdio"),
        "env": env,
        "package": {"registry_type": kind or "unknown", "identifier": identifier or "unknown"},
    }
    if version:
        launch["package"]["version"] = version
    if command:
        launch["command"] = command
        launch["args"] = [*runtime, target, *_arguments(package.get("packageArguments"))]
    if isinstance(transport.get("url"), str):
        launch["url"] = transport["url"]
        launch["headers"] = _names(transport.get("headers"))
    return launch


def remote_launch(remote: dict[str, Any]) -> dict[str, Any]:
    return {
        "transport": remote.get("type"),
        "url": remote.get("url"),
        "headers": _names(remote.get("headers")),
    }


class McpRegistryReader:
    name: ClassVar[str] = "mcp-registry"
    title: ClassVar[str] = "MCP registry server.json (one record, an API answer or a server list)"
    suffixes: ClassVar[frozenset[str]] = JSON_SUFFIXES | YAML_SUFFIXES
    skips_bad_sources: ClassVar[bool] = True

    def detect(self, doc: Document) -> bool:
        return records_of(doc.data) is not None

    def read(self, doc: Document, ctx: ReadContext) -> Iterator[Located]:
        if doc.parse_error is not None:
            ctx.problem(parse_failure(doc))
            return
        found = records_of(doc.data)
        if found is None:
            ctx.problem(
                LoadError(
                    "not an MCP registry record: expected a server.json object with 'name', "
                    "'version' and 'packages' or 'remotes'",
                    source=doc.source,
                    line=1,
                )
            )
            return
        seen: set[str] = set()
        for server, meta, at in found:
            located = self._server(doc, ctx, server, meta, at)
            if located is None:
                continue
            record_id = located.record.id  # type: ignore[union-attr]
            if record_id in seen:
                ctx.warn(f"{doc.source}#{at}: server {record_id!r} listed twice; kept the first")
                continue
            seen.add(record_id)
            yield located

    def _server(
        self,
        doc: Document,
        ctx: ReadContext,
        server: dict[str, Any],
        meta: dict[str, Any],
        at: str,
    ) -> Located | None:
        server_id = stable(server["name"], "server name", doc, f"{at}/name")
        launches: list[dict[str, Any]] = []
        kinds: list[str] = []
        for where, items, make in (
            ("packages", server.get("packages"), package_launch),
            ("remotes", server.get("remotes"), remote_launch),
        ):
            for index, item in enumerate(items if isinstance(items, list) else []):
                if not isinstance(item, dict):
                    ctx.warn(f"{doc.source}#{at}/{where}/{index}: expected an object; left out")
                    continue
                launch = make(item)
                try:
                    Launch(**launch)
                except ValueError as err:
                    ctx.warn(f"{doc.source}#{at}/{where}/{index}: {err}; left out")
                    continue
                launches.append(launch)
                kinds += [str(item.get("registryType") or ""), str(launch["transport"])]
        listed = meta.get(OFFICIAL)
        official: dict[str, Any] = listed if isinstance(listed, dict) else {}
        status = _STATUS.get(str(official.get("status")), "active")
        origin: dict[str, Any] = {
            "protocol": "mcp",
            "role": "server",
            "launch": launches,
            "record": server,
        }
        (description,) = cleaned(origin, server.get("description") or "")
        title = server.get("title")
        return entry(
            doc,
            ctx,
            at,
            {
                "id": server_id,
                "name": title if isinstance(title, str) and title.strip() else server["name"],
                "entity_type": "other",
                "version": server["version"],
                "description": description or server["name"],
                "keywords": ["mcp", "mcp-server", *(k for k in kinds if k)],
                "status": status,
                "origin": origin,
            },
        )


__all__ = ["McpRegistryReader", "package_launch", "records_of", "remote_launch"]
