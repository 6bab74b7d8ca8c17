"""The router's configuration: the ``mcpServers`` file Claude Desktop, Cursor and others use
(``{"mcpServers": {name: {...}}}``), or VS Code's ``{"servers": {name: {...}}}``.

A server is started with ``command`` and ``args`` (stdio; ``env`` and ``cwd`` optional) or
reached at ``url`` (streamable HTTP; ``headers`` optional; ``"type": "sse"`` for the older SSE
transport). ``"disabled": true`` leaves one out, and ``timeout`` (seconds, L-gent's own key)
bounds each call (default ``DEFAULT_TIMEOUT``; a start may take that long at least). A value may name a variable of the
router's own environment as ``${env:NAME}`` or ``${NAME}``, so secrets need not be written in
the file. Environment and header values stay here: what reaches the catalog is their names
(``ServerConfig.launch``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from lgent.errors import SettingsError
from lgent.ids import normalise_id

DEFAULT_TIMEOUT = 60.0
"""Seconds a call may take (unless the server's ``timeout`` says otherwise), and the least a
start and its tool list may take."""
MAX_TIMEOUT = 3600.0
_VARIABLE = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")
_TRANSPORTS = {"stdio": "stdio", "http": "streamable-http", "streamable-http": "streamable-http"}
_TRANSPORTS["streamableHttp"] = "streamable-http"
_TRANSPORTS["sse"] = "sse"
Transport = Literal["stdio", "streamable-http", "sse"]


@dataclass(frozen=True)
class ServerConfig:
    """One server of the configuration. ``env`` and ``headers`` hold values (secrets): they
    are passed to the server and nowhere else."""

    name: str
    transport: Transport
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT

    @property
    def server_id(self) -> str:
        """The catalog id of the server (its tools are ``<server_id>/<tool>``)."""
        return normalise_id(self.name) or self.name

    def launch(self) -> dict[str, Any]:
        """How to start or reach it, for the catalog: names of variables and headers only."""
        if self.transport == "stdio":
            return {
                "transport": "stdio",
                "command": self.command,
                "args": list(self.args),
                "env": sorted(self.env),
            }
        return {"transport": self.transport, "url": self.url, "headers": sorted(self.headers)}


def read_config(
    path: str | os.PathLike[str], environ: Mapping[str, str] | None = None
) -> list[ServerConfig]:
    """The servers of the configuration file at ``path``; SettingsError naming the file and
    the key when something is wrong with it."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise SettingsError(
            f"{where}: cannot read the router configuration ({err.strerror})"
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise SettingsError(f"{where}:{err.lineno}: invalid JSON ({err.msg})") from None
    if not isinstance(data, dict):
        raise SettingsError(f"{where}: expected a JSON object with 'mcpServers'")
    key = "mcpServers" if "mcpServers" in data else "servers" if "servers" in data else None
    if key is None or not isinstance(data[key], dict):
        raise SettingsError(f"{where}: expected an object 'mcpServers' (or 'servers') of servers")
    env = os.environ if environ is None else environ
    servers: list[ServerConfig] = []
    ids: dict[str, str] = {}
    for name, spec in data[key].items():
        at = f"{where}: {key}.{name}"
        if not isinstance(spec, dict):
            raise SettingsError(f"{at}: expected an object")
        if spec.get("disabled") is True:
            continue
        server = _server(str(name), spec, at, env)
        if server.server_id in ids:
            raise SettingsError(f"{at}: the same id as server {ids[server.server_id]!r}")
        ids[server.server_id] = server.name
        servers.append(server)
    return servers


def _server(name: str, spec: dict[str, Any], at: str, env: Mapping[str, str]) -> ServerConfig:
    if not normalise_id(name):
        raise SettingsError(f"{at}: a server name needs a letter or digit")
    kind = spec.get("type", spec.get("transport"))
    if kind is None:
        kind = "stdio" if "command" in spec else "http" if "url" in spec else None
    if kind not in _TRANSPORTS:
        raise SettingsError(
            f"{at}: give a 'command' (stdio) or a 'url' (streamable HTTP); type {kind!r} is not "
            "one of stdio, http, sse"
        )
    transport: Transport = _TRANSPORTS[kind]  # type: ignore[assignment]
    timeout = spec.get("timeout", DEFAULT_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise SettingsError(f"{at}.timeout: expected seconds, got {timeout!r}")
    if not 0 < timeout <= MAX_TIMEOUT:
        raise SettingsError(f"{at}.timeout: expected 0 < seconds <= {MAX_TIMEOUT:g}")
    if transport == "stdio":
        command = _text(spec.get("command"), f"{at}.command", env)
        args = spec.get("args", [])
        if not isinstance(args, list):
            raise SettingsError(f"{at}.args: expected a list of text")
        cwd = spec.get("cwd")
        return ServerConfig(
            name,
            transport,
            command=command,
            args=tuple(_text(a, f"{at}.args", env) for a in args),
            env=_mapping(spec.get("env"), f"{at}.env", env),
            cwd=None if cwd is None else _text(cwd, f"{at}.cwd", env),
            timeout=float(timeout),
        )
    url = _text(spec.get("url"), f"{at}.url", env)
    if not url.startswith(("http://", "https://")):
        raise SettingsError(f"{at}.url: expected an http:// or https:// URL, got {url!r}")
    return ServerConfig(
        name,
        transport,
        url=url,
        headers=_mapping(spec.get("headers"), f"{at}.headers", env),
        timeout=float(timeout),
    )


def _text(value: Any, at: str, env: Mapping[str, str]) -> str:
    if not isinstance(value, str) or not value.strip():
        raise SettingsError(f"{at}: expected text, got {value!r}")
    if "${input:" in value:
        raise SettingsError(f"{at}: ${{input:...}} prompts are not supported; use ${{env:NAME}}")

    def variable(match: re.Match[str]) -> str:
        found = env.get(match.group(1))
        if found is None:
            raise SettingsError(f"{at}: the environment variable {match.group(1)} is not set")
        return found

    return _VARIABLE.sub(variable, value)


def _mapping(value: Any, at: str, env: Mapping[str, str]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise SettingsError(f"{at}: expected an object of names and values")
    out: dict[str, str] = {}
    for key, item in value.items():
        if not isinstance(item, str | int | float) or isinstance(item, bool):
            raise SettingsError(f"{at}.{key}: expected text")
        out[str(key)] = _text(str(item), f"{at}.{key}", env) if str(item) else ""
    return out


__all__ = ["DEFAULT_TIMEOUT", "ServerConfig", "read_config"]
