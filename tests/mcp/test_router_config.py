"""The router's configuration: Claude Desktop's, Cursor's and VS Code's shapes, environment
variables named in values, and a clear error naming the file and the key for each mistake."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lgent.errors import SettingsError
from lgent.mcp.router_config import DEFAULT_TIMEOUT, read_config


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_stdio_and_http_servers_in_each_shape(tmp_path: Path) -> None:
    claude = {
        "mcpServers": {
            "Git Tools": {
                "command": "uvx",
                "args": ["mcp-server-git"],
                "env": {"TOKEN": "${env:GIT_TOKEN}"},
            },
            "remote": {
                "url": "https://mcp.example/mcp",
                "headers": {"Authorization": "Bearer ${KEY}"},
            },
            "off": {"command": "x", "disabled": True},
        }
    }
    servers = read_config(write(tmp_path, claude), {"GIT_TOKEN": "t0k", "KEY": "k3y"})
    git, remote = servers
    assert (git.name, git.server_id, git.transport, git.command) == (
        "Git Tools",
        "Git-Tools",
        "stdio",
        "uvx",
    )
    assert git.env == {"TOKEN": "t0k"} and git.timeout == DEFAULT_TIMEOUT
    assert git.launch() == {
        "transport": "stdio",
        "command": "uvx",
        "args": ["mcp-server-git"],
        "env": ["TOKEN"],
    }
    assert remote.transport == "streamable-http" and remote.headers == {
        "Authorization": "Bearer k3y"
    }
    assert remote.launch() == {
        "transport": "streamable-http",
        "url": "https://mcp.example/mcp",
        "headers": ["Authorization"],
    }
    vscode = {"servers": {"s": {"type": "sse", "url": "http://127.0.0.1:9/sse"}}, "inputs": []}
    assert read_config(write(tmp_path, vscode))[0].transport == "sse"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "mcp.json:1: invalid JSON"),
        ({"other": {}}, "expected an object 'mcpServers'"),
        ({"mcpServers": {"a": {"args": []}}}, "mcpServers.a: give a 'command'"),
        (
            {"mcpServers": {"a": {"command": "x", "args": "y"}}},
            "mcpServers.a.args: expected a list",
        ),
        ({"mcpServers": {"a": {"command": "x", "timeout": 0}}}, "mcpServers.a.timeout"),
        ({"mcpServers": {"a": {"url": "ftp://x"}}}, "mcpServers.a.url: expected an http"),
        (
            {"mcpServers": {"a": {"command": "x", "env": {"K": "${env:MISSING}"}}}},
            "MISSING is not set",
        ),
        ({"mcpServers": {"a": {"command": "${input:cmd}"}}}, "prompts are not supported"),
        ({"mcpServers": {"a b": {"command": "x"}, "a-b": {"command": "y"}}}, "the same id"),
    ],
)
def test_a_mistake_names_the_file_and_the_key(tmp_path: Path, data: Any, message: str) -> None:
    with pytest.raises(SettingsError, match=message.replace("(", r"\(")) as caught:
        read_config(write(tmp_path, data), {})
    assert str(tmp_path / "mcp.json") in str(caught.value)


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="cannot read the router configuration"):
        read_config(tmp_path / "nope.json")
