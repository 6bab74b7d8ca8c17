"""The inference memo: the same answers with or without it, fewer rules run with it."""

from __future__ import annotations

import copy
from typing import Any

from lgent.kinds import Vocabulary, infer_tool_kinds, openapi_operation_schemas
from lgent.kinds.cache import InferenceCache

SPEC: dict[str, Any] = {
    "swagger": "2.0",
    "definitions": {
        "Place": {
            "type": "object",
            "properties": {
                "latitude": {"type": "number"},
                "longitude": {"type": "number"},
                "homepage_url": {"type": "string", "format": "uri"},
                "opened": {"type": "string", "format": "date"},
            },
        }
    },
    "parameters": {"when": {"name": "date", "in": "query", "type": "string", "format": "date"}},
    "paths": {
        f"/places/{n}": {
            "get": {
                "operationId": f"getPlace{n}",
                "summary": "Get a place as Markdown" if n % 2 else "Find the nearest place",
                "parameters": [
                    {"$ref": "#/parameters/when"},
                    {"name": "place_id", "in": "path", "required": True, "type": "string"},
                ],
                "responses": {
                    "200": {"description": "ok", "schema": {"$ref": "#/definitions/Place"}}
                },
            }
        }
        for n in range(6)
    },
}


def _all_kinds(
    vocabulary: Vocabulary, spec: dict[str, Any], cache: InferenceCache | None
) -> list[Any]:
    found = []
    for item in spec["paths"].values():
        operation = item["get"]
        schemas = openapi_operation_schemas(spec, item, operation)
        found.append(
            infer_tool_kinds(
                vocabulary,
                name=operation["operationId"],
                description=operation["summary"],
                input_schema=schemas.input_schema,
                output_schema=schemas.output_schema,
                output_description=schemas.output_description,
                document=spec,
                cache=cache,
            ).to_dict()
        )
    return found


def test_the_memo_changes_no_answer_and_is_used(vocabulary: Vocabulary) -> None:
    cache = InferenceCache()
    remembered = _all_kinds(vocabulary, SPEC, cache)
    assert remembered == _all_kinds(vocabulary, SPEC, None)
    assert cache.hits > cache.misses  # six operations, one record, one shared parameter
    assert remembered[0]["outputs"][0]["kind"] == "GeoPoint"
    assert remembered[0]["output_record"]["homepage_url"]["kind"] == "WebPageURL"
    date = remembered[0]["inputs"][1]
    assert date["kinds"][0]["kind"] == "Date"
    assert date["kinds"][0]["evidence"][0]["where"] == "inputSchema/properties/date/format"


def test_a_new_document_forgets_the_records_of_the_last(vocabulary: Vocabulary) -> None:
    cache = InferenceCache()
    _all_kinds(vocabulary, SPEC, cache)
    other = copy.deepcopy(SPEC)
    other["definitions"]["Place"]["properties"] = {
        "amount": {"type": "number"},
        "currency": {"type": "string", "enum": ["USD", "EUR", "JPY"]},
    }
    first = _all_kinds(vocabulary, other, cache)
    assert first == _all_kinds(vocabulary, other, None)
    assert first[0]["outputs"][0]["kind"] == "Money"
