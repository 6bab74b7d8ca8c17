"""OpenAPI operations read as tools: their arguments and output."""

from __future__ import annotations

from lgent.kinds import openapi_operation_schemas

SWAGGER = {
    "swagger": "2.0",
    "parameters": {
        "Lang": {"name": "lang", "in": "query", "type": "string", "description": "Language code"}
    },
    "definitions": {"Pet": {"type": "object", "properties": {"id": {"type": "integer"}}}},
    "paths": {
        "/pets/{id}": {
            "parameters": [{"name": "id", "in": "path", "required": True, "type": "integer"}],
            "post": {
                "parameters": [
                    {"$ref": "#/parameters/Lang"},
                    {"name": "Authorization", "in": "header", "type": "string"},
                    {
                        "name": "pet",
                        "in": "body",
                        "required": True,
                        "schema": {"$ref": "#/definitions/Pet"},
                    },
                ],
                "responses": {
                    "200": {"description": "The pet", "schema": {"$ref": "#/definitions/Pet"}}
                },
            },
        }
    },
}


def test_a_swagger_operation() -> None:
    item = SWAGGER["paths"]["/pets/{id}"]  # type: ignore[index]
    found = openapi_operation_schemas(SWAGGER, item, item["post"])
    assert found.input_schema == {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "lang": {"type": "string", "description": "Language code"},
            "pet": {"$ref": "#/definitions/Pet"},
        },
        "required": ["id", "pet"],
    }
    assert found.output_schema == {"$ref": "#/definitions/Pet"}
    assert found.output_description == "The pet"


def test_an_openapi3_operation_and_broken_parts() -> None:
    document = {
        "openapi": "3.0.0",
        "components": {
            "requestBodies": {
                "B": {
                    "required": True,
                    "content": {
                        "text/plain": {"schema": {"type": "string"}},
                        "application/json": {"schema": {"type": "object"}},
                    },
                }
            }
        },
    }
    operation = {
        "requestBody": {"$ref": "#/components/requestBodies/B"},
        "parameters": [{"$ref": "#/nowhere"}, "junk", {"in": "query"}],
        "responses": {"201": {"description": "made"}, "default": {"description": "no"}},
    }
    found = openapi_operation_schemas(document, {}, operation)
    assert found.input_schema == {
        "type": "object",
        "properties": {"body": {"type": "object"}},
        "required": ["body"],
    }
    assert found.output_schema is None and found.output_description == "made"
