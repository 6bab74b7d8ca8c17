"""`lgent serve --http` on a loopback port, driven with httpx.

Each operation answers as the library does; every bad request gets a 4xx with a JSON message
(never a 500); writes need ``--allow-writes`` and are visible to the very next query.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serving_cases import (
    ARTIFACT,
    FILL,
    PATHS,
    QUERIES,
    RESOLVE,
    SIMILAR,
    Expected,
    assert_same_query,
    assert_same_score,
    http_server,
    library_answers,
)

pytestmark = pytest.mark.real_model


@pytest.fixture(scope="module")
def expected(example_home: Path) -> Expected:
    return library_answers(example_home)


@pytest.fixture(scope="module")
def api(example_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """One server with writes allowed, on a copy of the example home (the write test runs last
    and undoes what it does)."""
    root = tmp_path_factory.mktemp("http")
    shutil.copytree(example_home, root / "home")
    with (
        http_server(root / "home", root / "server.log", "--allow-writes") as url,
        httpx.Client(base_url=url, timeout=60) as client,
    ):
        yield client


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    return response.json()


def test_operations_answer_like_the_library(api: httpx.Client, expected: Expected) -> None:
    for case, want in zip(QUERIES, expected.queries, strict=True):
        assert_same_query(ok(api.post("/query", json=case)), want)
    resolution = ok(api.post("/resolve", json=RESOLVE))
    assert resolution["best"] == expected.resolution["best"]
    assert_same_score(resolution["score"], expected.resolution["score"])
    assert ok(api.post("/fill-holes", json=FILL)) == expected.filled
    assert [p["ids"] for p in ok(api.post("/paths", json=PATHS))["paths"]] == expected.paths
    assert [h["id"] for h in ok(api.post("/similar", json=SIMILAR))["hits"]] == expected.similar
    artifact = ok(api.get(f"/artifacts/{ARTIFACT}"))
    assert artifact["entry"] == expected.entry
    pinned = ok(api.get(f"/artifacts/{ARTIFACT}", params={"version": expected.entry["version"]}))
    assert pinned["entry"] == expected.entry


def test_explanations_only_when_asked(api: httpx.Client, expected: Expected) -> None:
    lean = ok(api.post("/query", json=QUERIES[1]))
    full = ok(api.post("/query", json={**QUERIES[1], "explain": True}))
    assert all(r["explanation"] == {} for r in lean["results"])
    assert full["results"][0]["explanation"] == expected.queries[1]["results"][0]["explanation"]


def test_health_and_openapi(api: httpx.Client) -> None:
    health = ok(api.get("/health"))
    assert health["status"] == "ok" and health["change_number"] > 0
    assert {b["name"]: b["ready"] for b in health["brains"]} == {
        "keyword": True,
        "semantic": True,
        "graph": True,
    }
    spec = ok(api.get("/openapi.json"))
    assert {
        "/query",
        "/resolve",
        "/fill-holes",
        "/paths",
        "/similar",
        "/artifacts/{artifact_id}",
        "/health",
    } <= set(spec["paths"])
    assert {"post", "delete"} <= {
        *spec["paths"]["/artifacts"],
        *spec["paths"]["/artifacts/{artifact_id}"],
    }
    assert spec["components"]["schemas"]["QueryRequest"]["additionalProperties"] is False


Q, R, P = "/query", "/resolve", "/paths"
PDF_TO_TEXT = {"input_type": "PDF", "output_type": "Text"}
BAD_REQUESTS: dict[str, tuple[str, Any, int, str]] = {  # path, body, status, part of the message
    "malformed-json": (Q, b'{"query": "pdf", "limit": ', 400, "not valid JSON"),
    "unknown-field": (Q, {"query": "pdf", "colour": "red"}, 422, "colour: unknown field"),
    "huge-limit": (Q, {"query": "pdf", "limit": 10**9}, 422, "limit: Input should be less than"),
    "zero-limit": (Q, {"query": "pdf", "limit": 0}, 422, "limit: Input should be greater than"),
    "limit-not-int": (Q, {"query": "pdf", "limit": "ten"}, 422, "limit: Input should be a valid"),
    "1MB-query": (Q, {"query": "x" * 1_000_000}, 413, "larger than the limit of 1000000 bytes"),
    "long-query": (Q, {"query": "x" * 2_001}, 422, "at most 2000 characters"),
    "empty-query": (Q, {"query": ""}, 422, "query: String should have at least 1 character"),
    "missing-query": (Q, {}, 422, "query: Field required"),
    "not-an-object": (Q, [1, 2], 422, "valid dictionary"),
    "syntax-error": (Q, {"query": "name:(pdf", "strict": True}, 400, "syntax error at position 9"),
    "bad-constraint": (Q, {"query": "pdf", "constraints": ["latency < x"]}, 400, "bad constraint"),
    "bad-context": (Q, {"query": "pdf", "context": {"mood": "up"}}, 422, "mood: unknown field"),
    "unknown-type": (R, {**PDF_TO_TEXT, "input_type": "PDFF"}, 422, "unknown type 'PDFF'"),
    "unsatisfiable": (R, {**PDF_TO_TEXT, "output_type": "Image"}, 422, "no artifact satisfies"),
    "bad-weight": (R, {**PDF_TO_TEXT, "preferences": {"success_weight": 7}}, 422, "success_weight"),
    "short-pipeline": ("/fill-holes", {"pipeline": ["A"]}, 422, "pipeline: List should have"),
    "long-path": (P, {"source_type": "A", "target_type": "B", "max_length": 99}, 422, "max_length"),
    "path-unknown-type": (P, {"source_type": "Nope", "target_type": "Summary"}, 422, "'Nope'"),
    "similar-missing": ("/similar", {"artifact_id": "Nope"}, 404, "no artifact with id 'Nope'"),
}


@pytest.mark.parametrize(
    ("path", "body", "status", "fragment"), list(BAD_REQUESTS.values()), ids=list(BAD_REQUESTS)
)
def test_bad_requests_get_a_4xx_with_a_message(
    api: httpx.Client, path: str, body: Any, status: int, fragment: str
) -> None:
    if isinstance(body, bytes):
        response = api.post(path, content=body, headers={"content-type": "application/json"})
    else:
        response = api.post(path, json=body)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert fragment in error["message"] and error["type"]


def test_errors_carry_details(api: httpx.Client) -> None:
    syntax = api.post("/query", json={"query": "name:(pdf", "strict": True}).json()["error"]
    assert syntax["type"] == "QuerySyntaxError" and syntax["details"]["position"] == 9
    unsatisfiable = api.post("/resolve", json={"input_type": "PDF", "output_type": "Image"}).json()[
        "error"
    ]
    assert unsatisfiable["type"] == "DependencyError"
    assert unsatisfiable["details"]["candidates"][0]["reasons"]
    missing = api.get("/artifacts/Nope", params={"version": "9.9.9"})
    assert missing.status_code == 404 and missing.json()["error"]["details"] == {
        "id": "Nope",
        "version": "9.9.9",
    }
    assert api.get("/nowhere").json()["error"]["type"] == "NotFound"
    assert api.put("/query").status_code == 405


async def test_a_read_only_app_has_no_write_routes_and_refuses_writes_clearly() -> None:
    from lgent import LGent
    from lgent.http.app import build_http_app

    async with LGent.open(None) as lg:
        app = build_http_app(lg, allow_writes=False)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://lgent") as client:
            for response in (
                await client.post("/artifacts", json={"id": "NewTool", "name": "NewTool"}),
                await client.delete("/artifacts/NewTool"),
            ):
                assert response.status_code == 403
                assert "--allow-writes" in response.json()["error"]["message"]
            assert "/artifacts" not in (await client.get("/openapi.json")).json()["paths"]
        assert await lg.change_number() == 0


def test_a_registration_is_visible_to_the_next_query(api: httpx.Client) -> None:
    entry = {
        "id": "team/QuasarTeleportWidget",
        "name": "QuasarTeleportWidget",
        "version": "1.0.0",
        "description": "Teleports quasar widgets between galaxies.",
        "keywords": ["quasar", "teleport"],
        "input_type": "Text",
        "output_type": "Summary",
    }
    query = {"query": "quasar teleport widget", "lenient": True}
    before = ok(api.post("/query", json=query))
    assert entry["id"] not in [r["id"] for r in before["results"]]

    created = api.post("/artifacts", json=entry)
    assert created.status_code == 201, created.text
    assert created.json()["action"] == "added"
    after = ok(api.post("/query", json=query))
    assert after["results"][0]["id"] == entry["id"]
    assert after["change_number"] == created.json()["change_number"]
    assert ok(api.get(f"/artifacts/{entry['id']}"))["entry"]["description"] == entry["description"]

    invalid = api.post("/artifacts", json={"id": "bad id!", "name": "x"})
    assert invalid.status_code == 422
    assert "invalid id: 'bad id!' is not a valid id" in invalid.json()["error"]["message"]
    unknown = api.post("/artifacts", json={**entry, "colour": "red"})
    assert (
        unknown.status_code == 422 and "colour: unknown field" in unknown.json()["error"]["message"]
    )

    removed = api.delete(f"/artifacts/{entry['id']}")
    assert ok(removed)["removed"] == 1
    assert entry["id"] not in [r["id"] for r in ok(api.post("/query", json=query))["results"]]
    assert api.delete(f"/artifacts/{entry['id']}").status_code == 404
    assert ok(api.get("/health"))["change_number"] == removed.json()["change_number"]
