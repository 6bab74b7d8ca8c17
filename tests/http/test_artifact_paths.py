"""Ids that contain ``/``: an id whose last part names a call (``srv/similar``) is reached with
the slash before it encoded, while ``/artifacts/srv/similar`` stays the call on ``srv``."""

from __future__ import annotations

import httpx
import pytest

from lgent import LGent
from lgent.http.app import build_http_app
from tests.conftest import make_entry


@pytest.mark.parametrize("call", ["similar", "lineage", "compatible", "graph.svg"])
async def test_an_id_ending_in_a_call_name_is_reached_with_its_slash_encoded(call: str) -> None:
    async with LGent.open(None) as lg:
        await lg.register_many([make_entry("srv"), make_entry(f"srv/{call}")])
        app = build_http_app(lg, web=False)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            whole = await http.get(f"/artifacts/srv%2F{call}")
            assert whole.status_code == 200, whole.text
            assert whole.json()["entry"]["id"] == f"srv/{call}"
            plain = await http.get(f"/artifacts/srv/{call}")
            assert plain.status_code in (200, 503), plain.text  # the call itself, on srv
            if plain.headers["content-type"] == "application/json" and plain.status_code == 200:
                assert plain.json().get("entry", {}).get("id") != f"srv/{call}"
