"""The tools of the shared ecosystem data, as schemas: what the kind census, the kind coverage
measure and the composition benchmark read.

Each MCP tool and each Swagger/OpenAPI operation becomes a :class:`ToolSchemas`: its id as
L-gent's importers name it, its description, its input as one JSON Schema object (an MCP
``inputSchema``; an operation's path, query and form parameters and its body), its output
schema, and the document its ``$ref`` point into. The data is read in place from
``../shared/ecosystem`` (or ``$LGENT_ECOSYSTEM_DATA``); the Swagger archive is unpacked into a
temporary folder by :func:`unpacked_specs`.
"""

from __future__ import annotations

import json
import os
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from lgent.ids import normalise_id
from lgent.kinds.operations import openapi_operation_schemas

SHARED = Path(
    os.environ.get("LGENT_ECOSYSTEM_DATA")
    or Path(__file__).resolve().parent.parent.parent / "shared" / "ecosystem"
)
MCP_TOOLS = SHARED / "mcp-tools-list"
ARCHIVE = SHARED / "openapi" / "apis-guru-swagger2-specs.tar.gz"
OPENAPI3 = SHARED / "openapi" / "openapi3-examples"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@dataclass(frozen=True)
class ToolSchemas:
    """One tool or operation, as its schemas say it."""

    id: str
    family: str
    """``mcp``, ``swagger`` or ``openapi3``."""
    source: str
    """The server or API id (the part of ``id`` before the tool)."""
    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: Any
    output_description: str
    document: Any


@contextmanager
def unpacked_specs() -> Iterator[Path]:
    """The folder of the 567 Swagger specs, unpacked from the shared archive for the duration."""
    if not ARCHIVE.exists():
        raise SystemExit(f"the Swagger archive is not at {ARCHIVE}")
    with tempfile.TemporaryDirectory(prefix="lgent-specs-") as work:
        with tarfile.open(ARCHIVE) as tar:
            tar.extractall(work, filter="data")
        yield Path(work) / "specs"


def mcp_tools(folder: Path = MCP_TOOLS) -> Iterator[ToolSchemas]:
    """Every tool of every ``tools/list`` file in ``folder``, by file name."""
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        server = normalise_id(path.stem) or path.stem
        for tool in data.get("tools") or []:
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
                continue
            schema = tool.get("inputSchema")
            output = tool.get("outputSchema")
            yield ToolSchemas(
                id=normalise_id(f"{server}/{tool['name']}") or tool["name"],
                family="mcp",
                source=server,
                name=tool["name"],
                description=str(tool.get("description") or ""),
                input_schema=schema if isinstance(schema, dict) else {},
                output_schema=output,
                output_description="",
                document=schema,
            )


def _api_id(document: dict[str, Any], path: Path) -> str:
    found = document.get("info")
    info: dict[str, Any] = found if isinstance(found, dict) else {}
    provider, service = info.get("x-providerName"), info.get("x-serviceName")
    if isinstance(provider, str) and provider.strip():
        key = provider + (f"/{service}" if isinstance(service, str) and service else "")
    else:
        key = path.stem
    return normalise_id(key) or key


def openapi_operations(path: Path, family: str) -> Iterator[ToolSchemas]:
    """Every operation of one Swagger 2.0 or OpenAPI 3 document (JSON or YAML)."""
    text = path.read_text(encoding="utf-8")
    document = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    if not isinstance(document, dict) or not isinstance(document.get("paths"), dict):
        return
    api = _api_id(document, path)
    seen: set[str] = set()
    for route, item in document["paths"].items():
        if not isinstance(item, dict) or "$ref" in item:
            continue
        for method in METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            op_id = operation.get("operationId")
            if isinstance(op_id, str) and op_id.strip():
                name = local = op_id.strip()
            else:
                name = f"{method.upper()} {route}"
                local = method + str(route).replace("{", "").replace("}", "")
            tool_id = normalise_id(f"{api}/{local}") or local
            if tool_id in seen:
                continue
            seen.add(tool_id)
            schemas = openapi_operation_schemas(document, item, operation)
            summary = operation.get("summary")
            details = operation.get("description")
            description = "\n\n".join(
                t for t in (summary, details) if isinstance(t, str) and t.strip()
            )
            yield ToolSchemas(
                id=tool_id,
                family=family,
                source=api,
                name=name,
                description=description,
                input_schema=schemas.input_schema,
                output_schema=schemas.output_schema,
                output_description=schemas.output_description,
                document=document,
            )


def swagger_operations(specs: Path) -> Iterator[ToolSchemas]:
    """Every operation of every spec under ``specs`` (the unpacked archive), by path."""
    for path in sorted(specs.rglob("*.json")):
        yield from openapi_operations(path, "swagger")


def openapi3_operations(folder: Path = OPENAPI3) -> Iterator[ToolSchemas]:
    """Every operation of the OpenAPI 3 examples."""
    for path in sorted(folder.glob("*.yaml")):
        yield from openapi_operations(path, "openapi3")


__all__ = [
    "ARCHIVE",
    "MCP_TOOLS",
    "OPENAPI3",
    "SHARED",
    "ToolSchemas",
    "mcp_tools",
    "openapi3_operations",
    "openapi_operations",
    "swagger_operations",
    "unpacked_specs",
]
