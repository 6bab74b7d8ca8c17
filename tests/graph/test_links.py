"""OpenAPI 3 response links as composition edges (``lgent.graph.links``): the linked operation
follows in ``compatible``, ``find_paths`` and ``fill_holes`` although no type connects them;
the same spec without its link composes nothing."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.errors import DependencyError

SHOP: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Shop", "version": "1", "x-providerName": "shop.example"},
    "paths": {
        "/orders": {
            "post": {
                "operationId": "createOrder",
                "summary": "Place an order for a product",
                "requestBody": {
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/NewOrder"}}
                    }
                },
                "responses": {
                    "201": {
                        "description": "The order placed",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Order"}}
                        },
                        "links": {
                            "TrackOrder": {
                                "operationId": "trackShipment",
                                "parameters": {"order": "$response.body#/id"},
                            }
                        },
                    }
                },
            }
        },
        "/shipments/{order}": {
            "get": {
                "operationId": "trackShipment",
                "summary": "Where the parcel of an order is",
                "parameters": [
                    {"name": "order", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {
                    "200": {
                        "description": "The shipment",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/Shipment"}
                            }
                        },
                    }
                },
            }
        },
    },
    "components": {
        "schemas": {
            "NewOrder": {"type": "object", "properties": {"product": {"type": "string"}}},
            "Order": {"type": "object", "properties": {"id": {"type": "string"}}},
            "Shipment": {"type": "object", "properties": {"carrier": {"type": "string"}}},
        }
    },
}
CREATE, TRACK = "shop.example/createOrder", "shop.example/trackShipment"
NEW_ORDER, SHIPMENT = "shop.example.NewOrder", "shop.example.Shipment"


def _spec(tmp_path: Path, linked: bool) -> Path:
    spec = copy.deepcopy(SHOP)
    if not linked:
        del spec["paths"]["/orders"]["post"]["responses"]["201"]["links"]
    path = tmp_path / ("shop.yaml" if linked else "unlinked.yaml")
    path.write_text(yaml.safe_dump(spec), encoding="utf-8")
    return path


async def test_a_link_composes_where_no_type_does(tmp_path: Path) -> None:
    async with LGent.open(None, embedder=HashingEmbedder(64)) as lg:
        await lg.load(_spec(tmp_path, linked=True))
        assert [s.id for s in await lg.compatible(CREATE)] == [TRACK]
        assert [s.id for s in await lg.compatible(TRACK, direction="upstream")] == [CREATE]
        (path,) = await lg.find_paths(NEW_ORDER, SHIPMENT)
        assert path.ids == (CREATE, TRACK) and path.types[0] == NEW_ORDER
        assert path.types[-1] == SHIPMENT
        filled = await lg.fill_holes([CREATE, "???", SHIPMENT])
        assert filled.steps[1].filled_with == (TRACK,)
        assert f"{CREATE} feeds {TRACK}" in filled.steps[1].reason
        between = await lg.fill_holes([NEW_ORDER, "???", TRACK])
        assert between.steps[1].filled_with == (CREATE,)


async def test_without_the_link_nothing_composes(tmp_path: Path) -> None:
    async with LGent.open(None, embedder=HashingEmbedder(64)) as lg:
        await lg.load(_spec(tmp_path, linked=False))
        assert TRACK not in [s.id for s in await lg.compatible(CREATE)]
        assert await lg.find_paths(NEW_ORDER, SHIPMENT) == []
        with pytest.raises(DependencyError):
            await lg.fill_holes([CREATE, "???", SHIPMENT])


async def test_a_deprecated_linked_operation_is_left_out(tmp_path: Path) -> None:
    spec = copy.deepcopy(SHOP)
    spec["paths"]["/shipments/{order}"]["get"]["deprecated"] = True
    source = tmp_path / "old.yaml"
    source.write_text(yaml.safe_dump(spec), encoding="utf-8")
    async with LGent.open(None, embedder=HashingEmbedder(64)) as lg:
        await lg.load(source)
        assert TRACK not in [s.id for s in await lg.compatible(CREATE)]
        every = await lg.compatible(CREATE, include_unusable=True)
        assert [s.id for s in every] == [TRACK]
        assert await lg.find_paths(NEW_ORDER, SHIPMENT) == []
