"""What import keeps to call an artifact (``CatalogEntry.origin``) and the callable definitions
made of it, on small documents written for these tests (OpenAPI 3.1, Swagger 2, MCP, A2A)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from lgent.catalog.loaders import read_path
from lgent.errors import ValidationError
from lgent.models import CatalogEntry
from lgent.origin import Launch

OPENAPI_31 = {
    "openapi": "3.1.0",
    "info": {"title": "Library", "version": "2.0", "x-providerName": "library.example"},
    "servers": [
        {"url": "https://{region}.library.example/v2", "variables": {"region": {"default": "eu"}}}
    ],
    "security": [{"apiKey": []}],
    "components": {
        "securitySchemes": {"apiKey": {"type": "apiKey", "in": "header", "name": "X-Key"}},
        "schemas": {
            "Book": {
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "author": {"$ref": "#/components/schemas/Author"},
                },
            },
            "Author": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "books": {"type": "array", "items": {"$ref": "#/components/schemas/Book"}},
                },
            },
        },
        "parameters": {
            "Shelf": {
                "name": "shelf",
                "in": "path",
                "required": True,
                "schema": {"type": "integer"},
            }
        },
    },
    "paths": {
        "/shelves/{shelf}/books": {
            "parameters": [{"$ref": "#/components/parameters/Shelf"}],
            "post": {
                "operationId": "library.addBook",
                "summary": "Add a <b>book</b> to a shelf",
                "parameters": [{"name": "dry", "in": "query", "schema": {"type": "boolean"}}],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Book"}}
                    },
                },
                "responses": {"201": {"description": "added"}},
            },
            "get": {"security": [], "responses": {"200": {"description": "books"}}},
        }
    },
}


def entries(tmp_path: Path, name: str, document: Any) -> dict[str, CatalogEntry]:
    (tmp_path / name).write_text(json.dumps(document), encoding="utf-8")
    return {
        r.record.id: r.record
        for r in read_path(tmp_path / name).records
        if isinstance(r.record, CatalogEntry)
    }


def test_an_openapi_operation_becomes_a_function_with_its_http_call(tmp_path: Path) -> None:
    found = entries(tmp_path, "library.json", OPENAPI_31)
    call = found["library.example/library.addBook"].callable_definition()
    assert call is not None and call["type"] == "function"
    function, http = call["function"], call["http"]
    assert function["name"] == "library_addBook"
    assert function["description"] == "Add a book to a shelf"
    parameters = function["parameters"]
    assert parameters["required"] == ["shelf", "body"]
    assert parameters["properties"]["shelf"] == {"type": "integer"}
    assert parameters["properties"]["body"] == {"$ref": "#/$defs/Book"}
    assert set(parameters["$defs"]) == {"Book", "Author"}  # what Book reaches, cycles and all
    assert parameters["$defs"]["Author"]["properties"]["books"]["items"] == {"$ref": "#/$defs/Book"}
    assert http == {
        "method": "POST",
        "path": "/shelves/{shelf}/books",
        "base_url": "https://eu.library.example/v2",
        "parameters": [
            {"name": "shelf", "in": "path", "required": True},
            {"name": "dry", "in": "query", "required": False},
        ],
        "body": {"content_type": "application/json", "argument": "body"},
        "security": ["apiKey"],
    }
    listing = found["library.example/get/shelves/shelf/books"].callable_definition()
    assert listing is not None and listing["http"]["security"] == []  # the operation says none
    api = found["library.example"].callable_definition()
    assert api == {
        "kind": "http_api",
        "name": "Library",
        "base_url": "https://eu.library.example/v2",
    }


def test_an_mcp_tool_keeps_its_definition_and_its_servers_launch(tmp_path: Path) -> None:
    tool = {
        "name": "echo",
        "description": "Echo text.",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
        "annotations": {"readOnlyHint": True},
    }
    launch = {
        "transport": "stdio",
        "command": "uvx",
        "args": ["echo-server"],
        "env": {"TOKEN": "x"},
    }
    found = entries(tmp_path, "echo.json", {"tools": [tool], "launch": launch})
    call = found["echo/echo"].callable_definition()
    assert call == {
        "kind": "mcp_tool",
        "tool": tool,
        "server": {
            "id": "echo",
            "launch": [
                {"transport": "stdio", "command": "uvx", "args": ["echo-server"], "env": ["TOKEN"]}
            ],
        },
    }
    assert '"x"' not in json.dumps(found["echo"].to_record())  # a value never enters
    server = found["echo"].callable_definition()
    assert server is not None and server["kind"] == "mcp_server"


def test_a_file_without_a_launch_still_gives_a_callable_tool(mcp_tools: Path) -> None:
    found = {
        r.record.id: r.record
        for r in read_path(mcp_tools / "fetch.json").records
        if isinstance(r.record, CatalogEntry)
    }
    call = found["fetch/fetch"].callable_definition()
    assert call is not None and call["server"] == {"id": "fetch", "launch": []}


@pytest.mark.parametrize(
    ("launch", "problem"),
    [
        ({"transport": "stdio"}, "needs a command"),
        ({"transport": "streamable-http"}, "needs a url"),
        (
            {"transport": "stdio", "command": "x", "env": ["NOT A NAME"]},
            "not an environment variable name",
        ),
        (
            {"transport": "sse", "url": "https://x", "headers": ["Bad Header:"]},
            "not an HTTP header name",
        ),
    ],
)
def test_a_launch_that_says_too_little_or_holds_a_value_is_refused(
    launch: dict[str, Any], problem: str
) -> None:
    with pytest.raises(ValueError, match=problem):
        Launch(**launch)


def test_an_origin_must_fit_its_role() -> None:
    with pytest.raises(ValidationError, match="origin"):
        CatalogEntry.parse({"id": "t", "name": "t", "origin": {"protocol": "mcp", "role": "tool"}})


async def test_every_surface_gives_the_callable_definition(tmp_path: Path, mcp_tools: Path) -> None:
    import httpx

    from lgent import LGent
    from lgent.http.app import build_http_app
    from lgent.mcp.server import build_mcp_server
    from tests.cli.test_cli import lgent

    home = tmp_path / "H"
    async with LGent.open(home) as lg:
        await lg.load(mcp_tools / "fetch.json")
        expected = (await lg.get("fetch/fetch")).callable_definition()
        assert expected is not None and expected["tool"]["name"] == "fetch"
        transport = httpx.ASGITransport(app=build_http_app(lg, web=False))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            assert (await http.get("/artifacts/fetch/fetch")).json()["callable"] == expected
        result = await build_mcp_server(lg).call_tool("get_artifact", {"id": "fetch/fetch"})
        shown = "".join(getattr(block, "text", "") for block in result.content)  # type: ignore[union-attr]
        assert json.loads(shown.split("\ncallable: ", 1)[1]) == expected
    done = await asyncio.to_thread(lgent, home, "show", "fetch/fetch", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["callable"] == expected
