"""`lgent serve --http` on a loopback port, driven with httpx.

Each operation answers as the library does; every bad request gets a 4xx with a JSON message
(never a 500); writes need ``--allow-writes`` and are visible to the very next query.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from lgent.serving import PAGE_DEPTH
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

REPO = Path(__file__).resolve().parents[2]


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
    deadline = time.monotonic() + 60  # a server just started is degraded while it warms up
    while (health := ok(api.get("/health")))["status"] != "ok":
        assert time.monotonic() < deadline, health
        time.sleep(0.1)
    assert health["change_number"] > 0 and health["catalog"] == ""
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


def test_docs_page_loads_its_assets_from_this_server(api: httpx.Client) -> None:
    page = api.get("/docs")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert assets and all(a.startswith("/") for a in assets), assets
    for asset in assets:
        assert api.get(asset).status_code == 200, asset
    assert "'/openapi.json'" in page.text


def test_every_query_command_of_the_cli_has_an_http_equivalent(api: httpx.Client) -> None:
    """docs/http.md's table names an HTTP call for each CLI command, and each call exists."""
    from lgent.cli.app import app

    table = {}
    for line in (REPO / "docs" / "http.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`lgent "):
            table[cells[0].strip("`").split()[1]] = re.findall(r"`([A-Z]+ [^`]+)`", cells[1])
    commands = {
        c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands
    }
    assert commands - set(table) <= {
        "init",
        "load",
        "import",
        "remove",
        "reindex",
        "serve",
        "token",
    }
    spec = ok(api.get("/openapi.json"))["paths"]
    for command, calls in table.items():
        assert calls, command
        for one in calls:
            method, path = one.split(" ", 1)
            path = path.split("?")[0].replace("{id}", "{artifact_id}")
            assert method.lower() in spec.get(path, {}), f"{command}: {one}"


def test_pages_concatenate_and_keep_one_total(api: httpx.Client) -> None:
    for query in ("extract tables from PDF files", "PDF -> SentimentScore", "PDFParser"):
        whole = ok(api.get("/search", params={"q": query, "limit": 9}))
        pages = [
            ok(api.get("/search", params={"q": query, "limit": 3, "offset": offset}))
            for offset in (0, 3, 6)
        ]
        assert [r["id"] for p in pages for r in p["results"]] == [r["id"] for r in whole["results"]]
        assert {p["total"] for p in pages} == {whole["total"]} and len(whole["results"]) == 9
        assert [p["next_offset"] for p in pages] == [3, 6, 9]

        full = ok(api.post("/query", json={"query": query, "limit": 9}))
        parts = [
            ok(api.post("/query", json={"query": query, "limit": 3, "offset": offset}))
            for offset in (0, 3, 6)
        ]
        assert [r["id"] for p in parts for r in p["results"]] == [r["id"] for r in full["results"]]
        assert {p["total_matches"] for p in parts} == {full["total_matches"], whole["total"]}

    # the last page runs to the depth pages reach, and says more matched than they reach
    deep = ok(api.get("/search", params={"q": "pdf", "limit": PAGE_DEPTH}))
    assert deep["total"] > PAGE_DEPTH and len(deep["results"]) == PAGE_DEPTH
    tail = ok(api.get("/search", params={"q": "pdf", "limit": 7, "offset": PAGE_DEPTH - 2}))
    assert [r["id"] for r in tail["results"]] == [r["id"] for r in deep["results"][-2:]]
    assert tail["next_offset"] is None
    cut = f"pages reach the first {PAGE_DEPTH} of the {deep['total']} matches"
    assert any(w.startswith(cut) for w in tail["warnings"]), tail["warnings"]
    first = ok(api.get("/search", params={"q": "pdf", "limit": 5}))
    assert not any(w.startswith("pages reach") for w in first["warnings"])

    everything = ok(api.get("/artifacts", params={"kind": "agent", "limit": 1000}))
    seen, offset = [], 0
    while offset is not None:
        page = ok(api.get("/artifacts", params={"kind": "agent", "limit": 7, "offset": offset}))
        assert page["total"] == everything["total"] == len(everything["results"])
        seen += [r["id"] for r in page["results"]]
        offset = page["next_offset"]
    assert seen == [r["id"] for r in everything["results"]] == sorted(seen)


def test_the_catalog_and_graph_calls(api: httpx.Client, example_home: Path) -> None:
    import asyncio

    from lgent import LGent

    async def library() -> tuple[Any, ...]:
        async with LGent.open(example_home) as lg:
            return (
                await lg.stats(),
                await lg.lineage("PDFParser_v2"),
                await lg.compatible("PDFParser_v2", direction="upstream", limit=20),
                await lg.count_entries(),
            )

    stats, groups, upstream, count = asyncio.run(library())
    assert ok(api.get("/stats")) == stats
    lineage = ok(api.get("/artifacts/PDFParser_v2/lineage"))
    assert {k: [h["id"] for h in v] for k, v in lineage["groups"].items()} == {
        k: [h.id for h in v] for k, v in groups.items()
    }
    compatible = ok(api.get("/artifacts/PDFParser_v2/compatible", params={"direction": "upstream"}))
    assert [c["id"] for c in compatible["artifacts"]] == [s.id for s in upstream]
    assert ok(api.get("/artifacts", params={"limit": 1}))["total"] == count

    deprecated = ok(api.get("/artifacts/PDFParser"))
    assert deprecated["successors"] == ["PDFParser_v2"]
    assert deprecated["flags"][0] == "deprecated, use PDFParser_v2"
    found = ok(api.get("/search", params={"q": "PDFParser", "limit": 3}))
    card = next(r for r in found["results"] if r["id"] == "PDFParser")
    assert card["flags"][0] == "deprecated, use PDFParser_v2" and card["why"]

    hits = ok(api.get("/brains/keyword/search", params={"q": "pdf", "kind": "agent"}))
    assert hits["hits"] and all(h["brain"] == "keyword" for h in hits["hits"])
    doctor = ok(api.get("/doctor"))
    assert doctor["ok"] and {c["name"] for c in doctor["checks"]} >= {"catalog", "keyword index"}


def test_every_error_has_one_shape(api: httpx.Client) -> None:
    answers = [
        api.get("/nowhere"),
        api.put("/query"),
        api.delete("/stats"),
        api.get("/search", params={"facets": "colour"}),  # no such facet (no q: browsing)
        api.get("/search", params={"execution": "local"}),  # a query's filter, without a query
        api.get("/search", params={"q": "pdf", "limit": 0}),
        api.get("/search", params={"q": "name:(pdf", "strict": True}),
        api.get("/search", params={"q": "pdf", "offset": 100, "limit": 5}),  # past the depth
        api.get("/artifacts/PDFParsr"),
        api.get("/artifacts/Nope/lineage"),
        api.get("/artifacts", params={"kind": "robot"}),
        api.post("/resolve", json={"input_type": "PDF", "output_type": "Image"}),
        api.get("/brains/nobrain/search", params={"q": "x"}),
        api.get("/static-offline-docs/nothing.js"),
        api.get("/artifacts", params={"offset": 2**63}),  # past any SQL integer
        api.get("/brains/keyword/search", params={"q": "pdf", "offset": 2}),  # takes no offset
        api.get("/brains/keyword/search", params={"q": "pdf", "author": " "}),  # no name
        api.get("/artifacts", params=[("kind", "tool"), ("kind", "agent")]),  # one value only
    ]
    for response in answers:
        assert 400 <= response.status_code < 500, response.text
        assert response.headers["content-type"] == "application/json", response.text
        body = response.json()
        assert set(body) == {"error"} and {"type", "message"} <= set(body["error"]) <= {
            "type",
            "message",
            "details",
        }, body
    assert answers[1].headers["allow"] == "POST"
    assert "did you mean PDFParser" in answers[8].json()["error"]["message"]
    assert answers[8].json()["error"]["details"]["did_you_mean"][0] == "PDFParser"
    assert "unknown facet 'colour'" in answers[3].json()["error"]["message"]
    assert "unknown query parameter(s) offset" in answers[-3].json()["error"]["message"]
    assert "an author filter needs a name" in answers[-2].json()["error"]["message"]
    assert "kind given 2 times" in answers[-1].json()["error"]["message"]


Q, R, P = "/query", "/resolve", "/paths"
PDF_TO_TEXT = {"input_type": "PDF", "output_type": "Text"}
BAD_REQUESTS: dict[str, tuple[str, Any, int, str]] = {  # path, body, status, part of the message
    "malformed-json": (Q, b'{"query": "pdf", "limit": ', 400, "not valid JSON"),
    "not-utf-8": (Q, b'{"query": "\xff\xfe pdf"}', 400, "not valid JSON: it is not UTF-8"),
    "nested-deep": (
        Q,
        b'{"context": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        413,
        "nested deeper than",
    ),
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
    "bad-context": (Q, {"query": "pdf", "context": {"mood": "up"}}, 422, "context.mood: unknown"),
    "unknown-type": (R, {**PDF_TO_TEXT, "input_type": "PDFF"}, 422, "unknown type 'PDFF'"),
    "unsatisfiable": (R, {**PDF_TO_TEXT, "output_type": "Image"}, 422, "no artifact satisfies"),
    "bad-weight": (
        R,
        {**PDF_TO_TEXT, "preferences": {"success_weight": 7}},
        422,
        "preferences.success_weight",
    ),
    "short-pipeline": ("/fill-holes", {"pipeline": ["A"]}, 422, "pipeline: List should have"),
    "blank-step": ("/fill-holes", {"pipeline": ["PDF", " ", "Summary"]}, 400, "step 1 is empty"),
    "long-context": (
        Q,
        {"query": "pdf", "context": {"current_pipeline": ["PDF", "???"] * 60}},
        422,
        "current_pipeline",
    ),
    "many-values": (
        Q,
        {"query": "pdf", "context": {"current_pipeline": ["PDF", "???"] * 20_000}},
        413,
        "more than 5000 values",
    ),
    "both-readings": (Q, {"query": "pdf", "lenient": True, "strict": True}, 422, "opposite"),
    "blank-contract": (R, {**PDF_TO_TEXT, "contracts": [""]}, 422, "contracts"),
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
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            for response in (
                await client.post("/artifacts", json={"id": "NewTool", "name": "NewTool"}),
                await client.delete("/artifacts/NewTool"),
            ):
                assert response.status_code == 403
                assert "--allow-writes" in response.json()["error"]["message"]
            paths = (await client.get("/openapi.json")).json()["paths"]
            assert set(paths["/artifacts"]) == {"get"}
            assert set(paths["/artifacts/{artifact_id}"]) == {"get"}
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

    invalid = api.post("/artifacts", json={"id": "!!!", "name": "x"})
    assert invalid.status_code == 422
    assert "invalid id: '!!!' is not a valid id" in invalid.json()["error"]["message"]
    unknown = api.post("/artifacts", json={**entry, "colour": "red"})
    assert (
        unknown.status_code == 422 and "colour: unknown field" in unknown.json()["error"]["message"]
    )

    removed = api.delete(f"/artifacts/{entry['id']}")
    assert ok(removed)["removed"] == 1
    assert entry["id"] not in [r["id"] for r in ok(api.post("/query", json=query))["results"]]
    assert api.delete(f"/artifacts/{entry['id']}").status_code == 404
    assert ok(api.get("/health"))["change_number"] == removed.json()["change_number"]
