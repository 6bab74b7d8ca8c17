"""Imported metadata says only what the source says: the provider (not a contact person) as
author, ``execution`` from how the artifact is reached, the source's version or "unversioned"
(never an invented number); and the shared real catalogs get them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lgent.catalog.loaders import read_path
from lgent.models import CatalogEntry, Execution
from lgent.versions import UNVERSIONED, Version


def read(path: Path, content: Any) -> dict[str, CatalogEntry]:
    path.write_text(json.dumps(content), encoding="utf-8")
    return {e.id: e for e in read_path(path).entries}


def tools_list(**extra: Any) -> dict[str, Any]:
    tool = {"name": "echo", "description": "Echo the text.", "inputSchema": {"type": "object"}}
    return {"tools": [tool], **extra}


@pytest.mark.parametrize(
    ("launch", "execution"),
    [
        ({"transport": "stdio", "command": "npx", "args": ["-y", "echo-server"]}, "local"),
        ({"transport": "streamable-http", "url": "https://echo.example.com/mcp"}, "cloud"),
        ({"transport": "sse", "url": "http://127.0.0.1:8000/sse"}, "local"),
        (None, None),
    ],
)
def test_mcp_execution_comes_from_the_launch(
    tmp_path: Path, launch: dict[str, Any] | None, execution: str | None
) -> None:
    extra: dict[str, Any] = {"serverInfo": {"name": "echo"}}
    if launch is not None:
        extra["launch"] = launch
    found = read(tmp_path / "echo.json", tools_list(**extra))
    for entry in found.values():
        assert entry.execution == (None if execution is None else Execution(execution))


def test_a_server_without_a_version_is_unversioned_and_a_real_one_sorts_above(
    tmp_path: Path,
) -> None:
    found = read(tmp_path / "echo.json", tools_list(serverInfo={"name": "echo"}))
    assert {e.version for e in found.values()} == {UNVERSIONED}
    assert Version(UNVERSIONED) < Version("0.0.1")
    versioned = read(
        tmp_path / "echo.json", tools_list(serverInfo={"name": "echo", "version": "1.4.0"})
    )
    assert {e.version for e in versioned.values()} == {"1.4.0"}


def swagger(info: dict[str, Any], **extra: Any) -> dict[str, Any]:
    operation = {"operationId": "ping", "responses": {"200": {"description": "ok"}}}
    return {
        "swagger": "2.0",
        "info": {"title": "Ping", **info},
        "paths": {"/ping": {"get": operation}},
        **extra,
    }


@pytest.mark.parametrize(
    ("info", "extra", "author", "execution"),
    [
        (  # an API directory's provider name wins over everything
            {"version": "1", "x-providerName": "ping.io", "contact": {"name": "Jane Roe"}},
            {"host": "api.ping.io"},
            "ping.io",
            "cloud",
        ),
        (
            {"version": "1", "contact": {"name": "Jane Roe"}},
            {"host": "www.ping.io"},
            "ping.io",
            "cloud",
        ),
        (
            {"version": "1", "contact": {"name": "Jane Roe", "url": "https://ping.dev/help"}},
            {},
            "ping.dev",
            None,
        ),
        ({"version": "1"}, {"host": "localhost:8080"}, None, "local"),
        ({}, {}, None, None),
    ],
)
def test_openapi_provider_and_execution(
    tmp_path: Path,
    info: dict[str, Any],
    extra: dict[str, Any],
    author: str | None,
    execution: str | None,
) -> None:
    found = read(tmp_path / "ping.json", swagger(info, **extra))
    assert found, "nothing read"
    for entry in found.values():
        assert entry.author == author, entry.id
        assert entry.execution == (None if execution is None else Execution(execution))
        assert entry.version == (info.get("version") or UNVERSIONED)


def test_the_shared_catalogs_say_no_contact_person_and_invent_no_version(
    swagger_specs: Path, mcp_tools: Path
) -> None:
    specs = sorted(swagger_specs.rglob("*.json"))[:60]
    contacts = set()
    for spec in specs:
        data = json.loads(spec.read_text(encoding="utf-8"))
        contact = data.get("info", {}).get("contact", {})
        if isinstance(contact, dict) and isinstance(contact.get("name"), str):
            contacts.add(contact["name"])
        for entry in read_path(spec).entries:
            assert entry.author != contact.get("name") or entry.author == data["info"].get(
                "x-providerName"
            ), (spec.name, entry.author)
            assert entry.execution == Execution.CLOUD, (spec.name, entry.id)
    assert contacts, "the sample holds contact names (the check above could fail)"
    found = read_path(mcp_tools).entries
    servers = [e for e in found if e.entity_type == "other"]
    assert len(servers) == 70 and {e.version for e in servers} == {UNVERSIONED}
    assert {e.execution for e in found} == {None}  # tools/list output says nothing of launch
