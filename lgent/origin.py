"""What an imported artifact's source said that the catalog's own fields do not hold: how to call
it, and the description as the source wrote it.

``CatalogEntry.origin`` holds one ``Origin``: for an MCP tool, the tool as its server lists it
(name, description, JSON Schemas, annotations) and how to start or reach that server; for an MCP
server, how to start or reach it; for an HTTP API operation, the method, path, base URL,
parameters (where each goes and its JSON Schema), request body and security scheme names; for an
A2A agent or skill, the agent's URL. ``lgent.callables`` shapes it into the ecosystem's own
definitions (an MCP ``Tool``, an OpenAI-style function).

Secrets never enter it: environment variables and HTTP headers are kept by name only.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
HEADER_NAME = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
MAX_ORIGINAL_DESCRIPTION = 200_000
"""Characters of a source's own description kept beside the cleaned one."""


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Package(_Part):
    """A published package a server runs from (an MCP registry record's ``packages``)."""

    registry_type: str = Field(min_length=1, max_length=50)
    identifier: str = Field(min_length=1, max_length=500)
    version: str | None = Field(default=None, max_length=100)


class Launch(_Part):
    """How to start an MCP server (``stdio``: a command) or reach it (``streamable-http`` or
    ``sse``: a URL). Environment variables and headers are names only: their values are secrets
    that stay in the caller's configuration."""

    transport: Literal["stdio", "streamable-http", "sse"]
    command: str | None = Field(default=None, min_length=1, max_length=2_000)
    args: tuple[str, ...] = Field(default=(), max_length=200)
    env: tuple[str, ...] = Field(default=(), max_length=200)
    url: str | None = Field(default=None, min_length=1, max_length=2_000)
    headers: tuple[str, ...] = Field(default=(), max_length=100)
    package: Package | None = None

    @field_validator("env")
    @classmethod
    def _env_names(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for name in value:
            if not ENV_NAME.match(name):
                raise ValueError(f"{name!r} is not an environment variable name")
        return tuple(dict.fromkeys(value))

    @field_validator("headers")
    @classmethod
    def _header_names(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for name in value:
            if not HEADER_NAME.match(name):
                raise ValueError(f"{name!r} is not an HTTP header name")
        return tuple(dict.fromkeys(value))

    @model_validator(mode="after")
    def _command_or_url(self) -> Launch:
        if self.transport == "stdio" and self.command is None and self.package is None:
            raise ValueError("a stdio server needs a command (or a package to run)")
        if self.transport != "stdio" and self.url is None:
            raise ValueError(f"a {self.transport} server needs a url")
        return self


ParameterPlace = Literal["path", "query", "header", "cookie", "formData"]


class HttpParameter(_Part):
    """One parameter of an HTTP operation: its name, where it goes (OpenAPI's ``in``), whether
    it is required, and its JSON Schema (Swagger 2's inline type fields become one)."""

    name: str = Field(min_length=1, max_length=500)
    location: ParameterPlace
    required: bool = False
    json_schema: dict[str, Any] = Field(default_factory=dict)
    description: str | None = None


class HttpBody(_Part):
    """An operation's request body: its media type, whether it is required, its JSON Schema."""

    content_type: str | None = Field(default=None, max_length=200)
    required: bool = False
    json_schema: dict[str, Any] = Field(default_factory=dict)
    description: str | None = None


class HttpOperation(_Part):
    """How to call one HTTP API operation. Schemas refer to ``definitions`` as
    ``#/$defs/<name>`` (the spec's ``#/definitions/...`` or ``#/components/schemas/...``
    rewritten), so the operation is complete on its own."""

    method: str = Field(min_length=1, max_length=10)
    path: str = Field(min_length=1, max_length=2_000)
    base_url: str | None = Field(default=None, max_length=2_000)
    operation_id: str | None = Field(default=None, max_length=500)
    parameters: tuple[HttpParameter, ...] = ()
    body: HttpBody | None = None
    security: tuple[str, ...] = ()
    definitions: dict[str, Any] = Field(default_factory=dict)


Protocol = Literal["mcp", "openapi", "a2a", "openai"]
Role = Literal["tool", "server", "operation", "api", "agent", "skill", "function"]


class Origin(_Part):
    """What the source said about an artifact beyond the catalog's fields (see the module)."""

    protocol: Protocol
    role: Role
    tool: dict[str, Any] | None = None
    """The tool exactly as its source lists it: an MCP tool (wire shape: ``inputSchema``...),
    or an OpenAI function (``name``, ``description``, ``parameters``)."""
    server: str | None = Field(default=None, max_length=500)
    """The id of the MCP server, API or agent an artifact is part of."""
    launch: tuple[Launch, ...] = Field(default=(), max_length=50)
    """The ways to start or reach an MCP server (a registry record may list several)."""
    http: HttpOperation | None = None
    url: str | None = Field(default=None, max_length=2_000)
    """An A2A agent's URL, or an HTTP API's base URL."""
    record: dict[str, Any] | None = None
    """The source's own record of the artifact, as written (an MCP registry ``server.json``)."""
    description: str | None = Field(default=None, max_length=MAX_ORIGINAL_DESCRIPTION)
    """The description as the source wrote it, when cleaning it (HTML to text) changed it."""

    @model_validator(mode="after")
    def _fits_role(self) -> Origin:
        if self.role in ("tool", "function") and self.tool is None:
            raise ValueError(f"a {self.role}'s origin needs the tool")
        if self.role == "operation" and self.http is None:
            raise ValueError("an HTTP operation's origin needs http")
        return self


__all__ = [
    "ENV_NAME",
    "HttpBody",
    "HttpOperation",
    "HttpParameter",
    "Launch",
    "Origin",
    "Package",
]
