"""Each ecosystem reader on small fixtures written here, detection by content, and the registry."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from lgent.catalog.loaders import read_path
from lgent.catalog.readers import ReaderRegistry
from lgent.catalog.readers.base import Document, Located, ReadContext
from lgent.catalog.readers.parameters import results_paragraph
from lgent.errors import LoadError
from lgent.models import CatalogEntry

MCP_LIST = {
    "tools": [
        {
            "name": "fetch page",
            "description": "Fetch a web page",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "url": {"type": "string", "format": "uri"},
                    "raw": {"type": "boolean"},
                },
                "required": ["url"],
            },
            "outputSchema": {
                "type": "object",
                "properties": {"result": {"type": "string"}},
                "x-fastmcp-wrap-result": True,
            },
            "annotations": {"readOnlyHint": True, "openWorldHint": True, "destructiveHint": False},
        },
        {
            "name": "get_pet",
            "inputSchema": {
                "type": "object",
                "properties": {"id": {"type": "integer"}},
                "required": ["id"],
                "$defs": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}},
            },
            "outputSchema": {"$ref": "#/$defs/Pet", "$defs": {"Pet": {"type": "object"}}},
        },
    ]
}

OPENAPI_31 = """\
openapi: 3.1.0
info: {title: Zoo API, version: 2.1.0, contact: {name: Zoo Inc}}
paths:
  /animals:
    get:
      operationId: listAnimals
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Animal'}}
    post:
      operationId: addAnimal
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/NewAnimal'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Animal'}
  /animals/{id}:
    delete:
      deprecated: true
      parameters:
        - {name: id, in: path, required: true, schema: {type: [integer, 'null']}}
      responses:
        '204': {description: gone}
components:
  schemas:
    NewAnimal: {type: object, properties: {name: {type: string}}}
    Animal:
      allOf:
        - $ref: '#/components/schemas/NewAnimal'
        - {type: object, properties: {id: {type: integer}}}
"""

SWAGGER = {
    "swagger": "2.0",
    "info": {"title": "Store", "version": "v1", "x-providerName": "store.example"},
    "paths": {
        "/orders/{orderId}": {
            "parameters": [{"name": "orderId", "in": "path", "required": True, "type": "string"}],
            "get": {
                "responses": {
                    "200": {"description": "ok", "schema": {"$ref": "#/definitions/Order"}}
                }
            },
            "put": {
                "operationId": "updateOrder",
                "parameters": [
                    {"name": "body", "in": "body", "schema": {"$ref": "#/definitions/Order"}}
                ],
                "responses": {
                    "200": {"description": "ok", "schema": {"$ref": "#/definitions/Order"}}
                },
            },
        }
    },
    "definitions": {"Order": {"type": "object", "properties": {"id": {"type": "string"}}}},
}

A2A_CARD = {
    "name": "Travel Planner",
    "description": "Plans trips end to end",
    "url": "http://127.0.0.1:9/a2a",
    "version": "0.3.1",
    "provider": {"organization": "ToolForge", "url": "http://127.0.0.1:9"},
    "capabilities": {"streaming": True},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["application/json"],
    "skills": [
        {
            "id": "book-flight",
            "name": "Book a flight",
            "description": "Books flights",
            "tags": ["travel", "flights"],
            "examples": ["Book me a flight to Oslo"],
        },
        {
            "id": "hotel",
            "name": "Find a hotel",
            "description": "Finds hotels",
            "tags": ["travel"],
            "inputModes": ["application/json"],
        },
    ],
}

OPENAI = {
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Weather",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "required": ["city"],
                },
                "strict": True,
            },
        },
        {
            "type": "function",
            "name": "send_email",
            "description": "Send mail",
            "parameters": {
                "type": "object",
                "properties": {"to": {"type": "string", "format": "email"}},
                "required": ["to"],
            },
        },
    ]
}


def write(path: Path, content: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def entries(batch_path: Path, kind: str | None = None) -> dict[str, CatalogEntry]:
    return {e.id: e for e in read_path(batch_path, kind=kind).entries}


def test_mcp_server_tools_types_contracts_and_part_of(tmp_path: Path) -> None:
    found = entries(write(tmp_path / "Web Tools.json", MCP_LIST))
    assert set(found) == {"Web-Tools", "Web-Tools/fetch-page", "Web-Tools/get_pet"}
    server, fetch, pet = (
        found["Web-Tools"],
        found["Web-Tools/fetch-page"],
        found["Web-Tools/get_pet"],
    )
    assert server.name == "Web Tools" and server.entity_type.value == "other"
    assert fetch.name == "fetch page"
    assert (fetch.input_type, fetch.output_type) == ("json.uri", "json.string")
    assert fetch.contracts == ("read-only", "open-world")  # only hints that are true
    assert [(r.type.value, r.target) for r in fetch.relations] == [("part_of", "Web-Tools")]
    assert (pet.input_type, pet.output_type) == ("json.integer", "Web-Tools.Pet")


def test_openapi_31_yaml(tmp_path: Path) -> None:
    batch = read_path(write(tmp_path / "zoo.yaml", OPENAPI_31))
    found = {e.id: e for e in batch.entries}
    assert found["zoo"].name == "Zoo API" and found["zoo"].author is None  # a contact, no provider
    listing, add = found["zoo/listAnimals"], found["zoo/addAnimal"]
    assert (listing.input_type, listing.output_type) == (None, "List[zoo.Animal]")
    assert (add.input_type, add.output_type) == ("zoo.NewAnimal", "zoo.Animal")
    assert listing.contracts == ("read-only", "idempotent") and listing.version == "2.1.0"
    gone = found["zoo/delete/animals/id"]
    assert gone.name == "DELETE /animals/{id}" and gone.status.value == "deprecated"
    assert gone.input_type == "json.integer"
    types = {t.type: t for t in batch.types}
    assert types["zoo.Animal"].subtype_of == ("zoo.NewAnimal",)  # allOf makes a subtype
    assert types["json.integer"].primitive and types["json.integer"].subtype_of == ("json.number",)


def test_swagger_2_body_and_path_parameters(tmp_path: Path) -> None:
    found = entries(write(tmp_path / "store.json", SWAGGER))
    get, update = found["store.example/get/orders/orderId"], found["store.example/updateOrder"]
    assert (get.input_type, get.output_type) == ("json.string", "store.example.Order")
    assert (update.input_type, update.output_type) == ("store.example.Order", "store.example.Order")
    assert update.contracts == ("idempotent",)
    assert get.keywords == ("GET /orders/{orderId}", "orderId")  # its argument, as MCP tools'


def test_swagger_2_form_arguments_are_arguments(tmp_path: Path) -> None:
    """Slack's Swagger spec takes chat.postMessage's channel and text as form fields."""
    spec = {
        "swagger": "2.0",
        "info": {"title": "Chat", "version": "1", "x-providerName": "chat.example"},
        "paths": {
            "/chat.postMessage": {
                "post": {
                    "operationId": "chat_postMessage",
                    "summary": "Sends a message to a channel.",
                    "tags": ["chat"],
                    "parameters": [
                        {"name": "channel", "in": "formData", "type": "string", "required": True},
                        {"name": "text", "in": "formData", "type": "string"},
                        {"name": "token", "in": "header", "type": "string"},
                    ],
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    post = entries(write(tmp_path / "chat.json", spec))["chat.example/chat_postMessage"]
    assert post.keywords == ("chat", "POST /chat.postMessage", "channel", "text", "token")
    assert post.description.endswith("Parameters: channel (string); text (string); token (string).")


def test_a2a_card_through_the_sdk(tmp_path: Path) -> None:
    pytest.importorskip("a2a", reason="a2a-sdk is an optional extra: pip install 'lgent[a2a]'")
    found = entries(write(tmp_path / "planner" / "agent-card.json", A2A_CARD))
    agent, book = found["Travel-Planner"], found["Travel-Planner/book-flight"]
    assert agent.entity_type.value == "agent" and agent.author == "ToolForge"
    assert "Examples: Book me a flight to Oslo" in book.description
    assert {"travel", "flights", "input:text/plain", "output:application/json"} <= set(
        book.keywords
    )
    assert "input:application/json" in found["Travel-Planner/hotel"].keywords
    assert [r.target for r in book.relations] == ["Travel-Planner"]


def test_openai_functions_both_forms(tmp_path: Path) -> None:
    found = entries(write(tmp_path / "fns.json", OPENAI))
    assert set(found) == {"fns/get_weather", "fns/send_email"}
    assert found["fns/get_weather"].contracts == ("strict",)
    assert found["fns/send_email"].input_type == "json.email"


def test_a_mixed_folder_is_detected_file_by_file(tmp_path: Path) -> None:
    write(tmp_path / "a" / "web.json", MCP_LIST)
    write(tmp_path / "b" / "zoo.yaml", OPENAPI_31)
    write(tmp_path / "c" / "fns.json", OPENAI)
    write(tmp_path / "d" / "native.jsonl", json.dumps({"id": "Native", "name": "Native"}) + "\n")
    write(tmp_path / "d" / "manifest.json", {"entries": [{"id": "M", "name": "M"}]})
    batch = read_path(tmp_path)
    assert sorted(batch.formats.values()) == ["jsonl", "manifest", "mcp", "openai", "openapi"]
    assert {"Native", "M", "web/get_pet", "zoo/addAnimal", "fns/get_weather"} <= {
        e.id for e in batch.entries
    }


def test_explicit_kind_reads_and_explains_a_mismatch(tmp_path: Path) -> None:
    f = write(tmp_path / "fns.json", OPENAI)
    batch = read_path(f, kind="openapi")
    assert batch.entries == [] and len(batch.rejected) == 1
    assert "not an OpenAPI or Swagger document" in batch.rejected[0][1]
    with pytest.raises(LoadError, match="unknown source format 'graphql'"):
        read_path(f, kind="graphql")


def test_a_bad_ecosystem_source_is_left_out_and_the_rest_read(tmp_path: Path) -> None:
    write(tmp_path / "good.yaml", OPENAPI_31)
    write(tmp_path / "bad.json", {"swagger": "2.0", "info": {}, "paths": []})
    batch = read_path(tmp_path)
    assert [p for p, _ in batch.rejected] == [str(tmp_path / "bad.json")]
    assert "'paths' must be a mapping" in batch.rejected[0][1]
    assert "good/listAnimals" in {e.id for e in batch.entries}


class _IniReader:
    """A toy format: ``key = value`` lines, one entry per line."""

    name: ClassVar[str] = "ini"
    title: ClassVar[str] = "toy"
    suffixes: ClassVar[frozenset[str]] = frozenset({".ini"})
    skips_bad_sources: ClassVar[bool] = False

    def detect(self, doc: Document) -> bool:
        return "=" in doc.text

    def read(self, doc: Document, ctx: ReadContext) -> Iterator[Located]:
        for number, line in enumerate(doc.text.splitlines(), start=1):
            key, _, value = line.partition("=")
            yield Located(CatalogEntry(id=key.strip(), name=value.strip()), doc.source, number)


def test_a_new_format_is_one_reader_in_the_registry(tmp_path: Path) -> None:
    write(tmp_path / "x.ini", "alpha = Alpha tool\nbeta = Beta tool\n")
    registry = ReaderRegistry([*ReaderRegistry.default().readers, _IniReader()])
    batch = read_path(tmp_path, registry=registry)
    assert [(e.id, e.name) for e in batch.entries] == [
        ("alpha", "Alpha tool"),
        ("beta", "Beta tool"),
    ]
    assert [r.line for r in batch.records] == [1, 2]


def test_a_description_from_a_docstring_loses_its_source_indentation(tmp_path: Path) -> None:
    """A tool description taken from a docstring keeps its lines and their relative
    indentation, without the indentation its source code gave every line after the first."""
    text = "Start a process.\n\n        Rules:\n          - never as root\n        Done.\n    "
    tools = {"tools": [{"name": "start", "description": text, "inputSchema": {"type": "object"}}]}
    tool = entries(write(tmp_path / "shell.json", tools))["shell/start"]
    assert tool.description == "Start a process.\n\nRules:\n  - never as root\nDone."


def test_parameters_and_results_become_a_paragraph_of_the_description(tmp_path: Path) -> None:
    tools = {
        "tools": [
            {
                "name": "nutrition",
                "description": "Nutrition facts.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "query": {"type": "string", "description": "Food to look up, e.g. eggs"},
                        "unit": {"type": "string", "enum": ["g", "oz"]},
                    },
                    "required": ["query"],
                },
                "outputSchema": {
                    "type": "object",
                    "properties": {"calories": {"type": "number"}},
                },
            }
        ]
    }
    tool = entries(write(tmp_path / "food.json", tools))["food/nutrition"]
    first, parameters, results = tool.description.split("\n\n")
    assert first == "Nutrition facts."  # what compact answers show stays the tool's own text
    assert parameters == (
        "Parameters: query (string): Food to look up, e.g. eggs; unit (string); one of g, oz."
    )
    assert results == "Returns: calories (number)."
    nested = {
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"type": "object", "properties": {"sku": {}}}},
            "page": {"type": "object", "properties": {"next": {}, "size": {}}},
            "total": {"type": "integer"},
        },
    }
    assert results_paragraph(nested) == (
        "Returns: items (array of object with sku); page (object with next, size); total (integer)."
    )
    weather = entries(write(tmp_path / "fns.json", OPENAI))["fns/get_weather"]
    assert weather.description.endswith("Parameters: city (string).")
    gone = entries(write(tmp_path / "zoo.yaml", OPENAPI_31))["zoo/delete/animals/id"]
    assert "Parameters: id (integer)." in gone.description


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        ({"skills": "oops"}, "#/skills", "skills must be a list of skill objects, got str"),
        ({"skills": ["book"]}, "#/skills/0", "a skill must be an object, got str"),
        ({"provider": "ToolForge"}, "#/provider", "provider must be an object, got str"),
        ({"defaultInputModes": "text"}, "#/defaultInputModes", "must be a list of text"),
        (
            {"skills": [{"id": "a", "name": "A", "tags": [1]}]},
            "#/skills/0/tags",
            "tags must be a list of text, got list",
        ),
    ],
)
def test_a_misshapen_a2a_card_is_refused_naming_the_field(
    tmp_path: Path, change: dict[str, object], where: str, message: str
) -> None:
    f = write(tmp_path / "agent-card.json", {**A2A_CARD, **change})
    batch = read_path(f)  # detected as a card, not read as a native record
    assert batch.entries == [] and len(batch.rejected) == 1
    reason = batch.rejected[0][1]
    assert where in reason and message in reason, reason
    assert "attribute" not in reason.split("#", 1)[1], reason  # no SDK internals


def test_openapi_parts_that_cannot_be_read_are_warned_about(tmp_path: Path) -> None:
    spec = {
        "openapi": "3.0.0",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/a": {
                "post": {
                    "operationId": "makeA",
                    "requestBody": {"$ref": "#/components/requestBodies/Missing"},
                    "responses": {"200": {"$ref": "#/components/responses/Gone"}},
                }
            },
            "/b": {"get": "oops"},
            "/c": "oops",
            "x-extension": "anything",
        },
    }
    batch = read_path(write(tmp_path / "t.json", spec), kind="openapi")
    assert {e.id for e in batch.entries} == {"t", "t/makeA"}  # named after the file
    said = "\n".join(batch.warnings)
    assert "/paths/~1a/post/requestBody: $ref '#/components/requestBodies/Missing'" in said
    assert "/paths/~1a/post/responses/200: $ref '#/components/responses/Gone'" in said
    assert "/paths/~1b/get: an operation must be an object" in said
    assert "/paths/~1c: a path item must be an object" in said
    assert "x-extension" not in said
