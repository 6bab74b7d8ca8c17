"""Ids that contain ``/``: an id whose last part names a call (``srv/similar``) is reached with
the slash before it encoded, while ``/artifacts/srv/similar`` stays the call on ``srv``."""

from __future__ import annotations

import httpx
import pytest

from lgent import LGent
from lgent.http.app import build_http_app
from lgent.models import TypeDecl
from tests.conftest import make_entry


@pytest.mark.parametrize("call", ["similar", "lineage", "compatible", "neighbourhood", "history"])
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


async def test_web_links_bring_any_id_and_version_back_whole() -> None:
    """Ids with dot segments and versions with ``+`` (build metadata): a browser resolves
    ``x/../y`` before sending and a query string reads ``+`` as a space, unless encoded."""
    from lgent.http.links import artifact_href

    async with LGent.open(None) as lg:
        odd = ["x/../y", "a/./b", "v1.2/..", "srv/similar", "y"]
        await lg.register_many([make_entry(i) for i in odd])
        await lg.register(make_entry("plus", version="1.0.0+build.5"))
        await lg.register(make_entry("plus", version="2.0.0"))
        app = build_http_app(lg)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            for artifact_id in odd:
                page = await http.get(artifact_href(artifact_id))
                assert page.status_code == 200, (artifact_id, page.text[:200])
                assert f"<td>{artifact_id}</td>" in page.text  # its own page, not y's
            old = await http.get(artifact_href("plus", "1.0.0+build.5"))
            assert old.status_code == 200 and "<strong>1.0.0+build.5</strong>" in old.text
            linked = (await http.get(artifact_href("plus"))).text
            assert artifact_href("plus", "1.0.0+build.5") in linked


async def test_a_relation_to_a_removed_artifact_is_not_a_dead_link() -> None:
    from lgent.http.links import artifact_href

    async with LGent.open(None) as lg:
        await lg.register_many(
            [
                make_entry("kept"),
                make_entry("gone"),
                make_entry(
                    "user",
                    relations=[
                        {"type": "depends_on", "target": "kept"},
                        {"type": "depends_on", "target": "gone"},
                    ],
                ),
            ]
        )
        await lg.remove("gone")
        transport = httpx.ASGITransport(app=build_http_app(lg))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            page = (await http.get(artifact_href("user"))).text
        assert f'href="{artifact_href("kept")}"' in page
        assert f'href="{artifact_href("gone")}"' not in page
        assert 'gone <span class="muted">(not in the catalog)</span>' in page


async def test_compatible_tells_the_total_and_why_nothing_fits() -> None:
    async with LGent.open(None) as lg:
        await lg.register_many(
            [
                make_entry("writer", output_type="Doc"),
                *(make_entry(f"reader{i}", input_type="Doc") for i in range(3)),
            ],
            types=[TypeDecl(type="Doc")],
        )
        app = build_http_app(lg, web=False)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            page = (await http.get("/artifacts/writer/compatible?limit=2")).json()
            assert (page["total"], len(page["artifacts"]), page["note"]) == (3, 2, "")
            none = (await http.get("/artifacts/reader0/compatible")).json()
            assert none["total"] == 0 and none["note"] == (
                "reader0 declares no output type, so nothing composes with it there"
            )
