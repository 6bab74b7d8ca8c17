"""Acceptance 2 of issue 36: two tokens of disjoint scopes over a catalog holding artifacts of
both, asked the same things on every surface (Python, HTTP, the web page, MCP): each answers
with its own team's artifacts only; totals and facets count only those; paths, hole filling,
the resolver and suggestions never step through the other team's; a write with a read-only
token is refused (403 over HTTP); the change log names the writer."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from lgent import LGent, QueryContext, TypeRequirement
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.errors import AccessDeniedError, DependencyError, NotFoundError
from lgent.http.app import build_http_app
from lgent.models import Status
from lgent.scopes import Scope
from tests.scopes.catalog import ACCESS, ENTRIES, PUBLISHED_A, SECRETS, TEAM_A, TEAM_B, TYPES

EVERYONE = TEAM_A | TEAM_B
QUERIES = ("summary report", "summarise a document", "html", "Document -> Summary")


def toml_of(access: dict[str, Any]) -> str:
    """The ``[access]`` tables of ``lgent.toml`` for ``access``."""
    lines = []
    for name, table in access["tokens"].items():
        lines.append(f"[access.tokens.{name}]")
        for key, value in table.items():
            shown = f'"{value}"' if isinstance(value, str) else str(value).replace("'", '"')
            lines.append(f"{key} = {shown}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("teams") / "home"
    root.mkdir()
    (root / "lgent.toml").write_text(toml_of(ACCESS), encoding="utf-8")

    async def fill() -> None:
        async with LGent.open(root, embedder=HashingEmbedder()) as lg:
            await lg.register_many(ENTRIES, TYPES)

    asyncio.run(fill())
    return root


@asynccontextmanager
async def opened(home: Path) -> AsyncIterator[tuple[LGent, dict[str, Scope]]]:
    async with LGent.open(home, embedder=HashingEmbedder()) as lg:
        tokens = lg.settings.access.parsed()
        scopes = {team: tokens.find(secret) for team, secret in SECRETS.items()}
        assert all(s is not None for s in scopes.values())
        yield lg, {k: v for k, v in scopes.items() if v is not None}


def ids_in(text: str) -> set[str]:
    return set(re.findall(r"team-[ab]/[\w-]+", text))


# -- Python -----------------------------------------------------------------------------------


async def test_python_surface_sees_only_its_team(home: Path) -> None:
    async with opened(home) as (lg, scopes):
        assert {e.id for e in await lg.list_entries()} == EVERYONE  # the owner sees all
        for team, seen, other in (("team-a", TEAM_A, TEAM_B), ("team-b", TEAM_B, TEAM_A)):
            me = lg.scoped(scopes[team])
            assert {e.id for e in await me.list_entries()} == seen
            assert await me.count_entries() == len(seen)
            stats = await me.stats()
            assert stats["artifacts"] == len(seen)
            assert sum(stats["by_status"].values()) == len(seen)
            facets = await me.facets()
            assert sum(v.count for v in facets["kind"].values) == len(seen)
            assert {v.value: v.count for v in facets["status"].values} == {
                s: sum(1 for e in ENTRIES if e.id in seen and e.status.value == s)
                for s in {e.status.value for e in ENTRIES if e.id in seen}
            }
            for hidden in other:
                with pytest.raises(NotFoundError):
                    await me.get(hidden)
                with pytest.raises(NotFoundError):
                    await me.versions(hidden)
                with pytest.raises(NotFoundError):
                    await me.lineage(hidden)
            assert set(await me.get_many(sorted(EVERYONE))) == seen
            for text in QUERIES:
                answer = await me.query(text, limit=20)
                shown = {r.id for r in answer.results}
                assert shown <= seen, (team, text, shown)
                assert answer.total_matches == len(answer.matched) and set(answer.matched) <= seen
                assert {s.artifact_id for s in answer.serendipity} <= seen
                assert not ids_in(answer.query_interpretation) & other
                for brain in ("keyword", "semantic"):
                    found = await me.search(text, brain=brain, limit=20, lenient=True)
                    assert {h.id for h in found.hits} <= seen, (brain, text)
            for artifact in seen:
                assert {h.id for h in await me.similar(artifact, limit=20)} <= seen
            assert {c.key for c in await me.changes_since(0) if c.kind == "entry"} <= seen


async def test_paths_resolver_holes_and_suggestions_never_step_outside(home: Path) -> None:
    async with opened(home) as (lg, scopes):
        everything = await lg.find_paths("RawHTML", "Report", k=10)
        assert any(set(p.ids) & TEAM_B for p in everything)  # the catalog's own best paths
        assert everything[0].ids == ("team-b/html-report",)  # ... lead through team B
        a, b = lg.scoped(scopes["team-a"]), lg.scoped(scopes["team-b"])
        paths = await a.find_paths("RawHTML", "Report", k=10)
        assert paths and all(set(p.ids) <= PUBLISHED_A for p in paths)
        assert paths[0].ids == (
            "team-a/html-to-doc",
            "team-a/slow-summary",
            "team-a/summary-report",
        )
        assert [p.ids for p in await b.find_paths("RawHTML", "Report", k=10)] == [
            ("team-b/html-report",)
        ]
        wanted = TypeRequirement(input_type="Document", output_type="Summary")
        assert (await lg.resolve(wanted)).best.id == "team-b/fast-summary"
        assert (await a.resolve(wanted)).best.id == "team-a/slow-summary"
        assert (await b.resolve(wanted)).best.id == "team-b/fast-summary"
        filled = await a.fill_holes(["RawHTML", "???", "Report"])
        used = ids_in(filled.model_dump_json())
        assert used and used <= TEAM_A, filled
        with pytest.raises(DependencyError):  # B has no Summary -> Report step
            await b.resolve(TypeRequirement(input_type="Summary", output_type="Report"))
        compatible = await a.compatible("team-a/html-to-doc", limit=50)
        assert {s.id for s in compatible} == {"team-a/slow-summary"}
        hole = QueryContext(current_pipeline=("RawHTML", "???", "Report"))
        for me, seen in ((a, TEAM_A), (b, TEAM_B)):
            answer = await me.query("summary", context=hole)
            for item in answer.serendipity:
                assert set(item.composition) | {item.artifact_id} <= seen, item
            for text in ("what can take Document", "a path from RawHTML to Report"):
                found = await me.query(text, limit=20)
                assert {r.id for r in found.results} <= seen
                for r in found.results:
                    assert ids_in(str(r.explanation)) <= seen, r.explanation


async def test_writes_follow_the_write_scope_and_the_log_names_the_writer(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "lgent.toml").write_text(toml_of(ACCESS), encoding="utf-8")
    async with LGent.open(home, embedder=HashingEmbedder()) as lg:
        await lg.register_many(ENTRIES, TYPES)
        tokens = lg.settings.access.parsed()
        a = lg.scoped(tokens.find(SECRETS["team-a"]))  # type: ignore[arg-type]
        b = lg.scoped(tokens.find(SECRETS["team-b"]))  # type: ignore[arg-type]
        before = await lg.change_number()
        with pytest.raises(AccessDeniedError, match="may only read"):
            await b.register({"id": "team-b/new", "name": "new"})
        with pytest.raises(AccessDeniedError, match="may not write 'team-b/x'"):
            await a.register({"id": "team-b/x", "name": "x"})
        with pytest.raises(AccessDeniedError):
            await b.remove("team-b/fast-summary")
        with pytest.raises(AccessDeniedError):
            await a.load(tmp_path)
        assert await lg.change_number() == before  # nothing was written
        await a.register({"id": "team-a/new", "name": "new", "status": "draft"})
        assert "team-a/new" in {e.id for e in await a.list_entries()}  # its writer sees it
        anonymous = lg.scoped(Scope(name="reader"))
        assert "team-a/new" not in {e.id for e in await anonymous.list_entries()}  # a draft
        await a.promote("team-a/new")
        assert (await anonymous.get("team-a/new")).status == Status.ACTIVE
        history = await lg.history("team-a/new")
        assert [(c.status, c.writer) for c in history] == [
            ("draft", "team-a"),
            ("active", "team-a"),
        ]
        assert lg.store.owners(["team-a/new"])["team-a/new"].key == "writer:team-a"
        await a.remove("team-a/new")
        assert (await lg.changes_since(0))[-1].writer == "team-a"


# -- HTTP and the web page --------------------------------------------------------------------


@asynccontextmanager
async def http(home: Path) -> AsyncIterator[httpx.AsyncClient]:
    async with LGent.open(home, embedder=HashingEmbedder()) as lg:
        app = build_http_app(lg, allow_writes=True)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            yield client


def bearer(team: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {SECRETS[team]}"}


async def test_http_and_the_web_page_see_only_their_team(home: Path) -> None:
    async with http(home) as client:
        for team, seen, other in (("team-a", TEAM_A, TEAM_B), ("team-b", TEAM_B, TEAM_A)):
            for headers in (bearer(team), {"Cookie": f"lgent_token={SECRETS[team]}"}):
                browse = (
                    await client.get(
                        "/search", params={"facets": "kind,status,tag,source"}, headers=headers
                    )
                ).json()
                assert browse["total"] == len(seen)
                assert {r["id"] for r in browse["results"]} == seen
                assert sum(v["count"] for v in browse["facets"]["kind"]["values"]) == len(seen)
                listed = (await client.get("/artifacts", headers=headers)).json()
                assert listed["total"] == len(seen)
                for text in QUERIES:
                    page = (
                        await client.get(
                            "/search",
                            params={"q": text, "facets": "tag", "limit": 50},
                            headers=headers,
                        )
                    ).json()
                    assert {r["id"] for r in page["results"]} <= seen
                    assert page["total"] == len(page["results"])  # everything fits one page
                    assert not ids_in(str(page)) & other
                paths = (
                    await client.post(
                        "/paths",
                        json={"source_type": "RawHTML", "target_type": "Report", "k": 10},
                        headers=headers,
                    )
                ).json()
                assert all(set(p["ids"]) <= seen for p in paths["paths"])
                for hidden in other:
                    assert (
                        await client.get(f"/artifacts/{hidden}", headers=headers)
                    ).status_code == 404
                    page = await client.get(
                        f"/artifact/{hidden}", headers={**headers, "Accept": "text/html"}
                    )
                    assert page.status_code == 404 and page.headers["content-type"].startswith(
                        "text/html"
                    )
                for mine in seen:
                    page = await client.get(f"/artifact/{mine}", headers=headers)
                    assert page.status_code == 200 and not ids_in(page.text) & other
                    hood = (
                        await client.get(f"/artifacts/{mine}/neighbourhood", headers=headers)
                    ).json()
                    assert {n["id"] for n in hood["nodes"] if n["card"]} <= seen
                for name in ("Document", "Summary", "Report", "RawHTML"):
                    typed = await client.get(f"/type/{name}", headers=headers)
                    assert typed.status_code == 200 and not ids_in(typed.text) & other
        assert (
            await client.get("/stats", headers={"Authorization": "Bearer no-such-token-123"})
        ).status_code == 401


async def test_http_writes_are_refused_with_403_and_named_in_the_log(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "lgent.toml").write_text(toml_of(ACCESS), encoding="utf-8")
    async with LGent.open(home, embedder=HashingEmbedder()) as lg:
        await lg.register_many(ENTRIES, TYPES)
    async with http(home) as client:
        refused = await client.post(
            "/artifacts", json={"id": "team-b/n", "name": "n"}, headers=bearer("team-b")
        )
        assert refused.status_code == 403 and refused.json()["error"]["type"] == "AccessDeniedError"
        assert (
            await client.delete("/artifacts/team-b/html-report", headers=bearer("team-b"))
        ).status_code == 403
        assert (
            await client.post("/artifacts/team-a/draft-summary/promote", headers=bearer("team-b"))
        ).status_code in (403, 404)
        cookie_write = await client.post(
            "/artifacts",
            json={"id": "team-a/c", "name": "c"},
            headers={"Cookie": f"lgent_token={SECRETS['team-a']}"},
        )
        assert cookie_write.status_code == 401  # a cookie never writes
        made = await client.post(
            "/artifacts", json={"id": "team-a/n", "name": "n"}, headers=bearer("team-a")
        )
        assert made.status_code == 201, made.text
        promoted = await client.post(
            "/artifacts/team-a/draft-summary/promote", headers=bearer("team-a")
        )
        assert promoted.status_code == 200, promoted.text
        history = (
            await client.get("/artifacts/team-a/draft-summary/history", headers=bearer("team-a"))
        ).json()
        assert [(c["status"], c["writer"]) for c in history["changes"]] == [
            ("draft", None),
            ("active", "team-a"),
        ]
        mine = (await client.get("/artifacts/team-a/n/history", headers=bearer("team-a"))).json()
        assert mine["changes"][0]["writer"] == "team-a"
        # a reader without a token sees what was published, never the other drafts
        anonymous = (await client.get("/search")).json()
        assert "team-a/draft-summary" in {r["id"] for r in anonymous["results"]}


# -- MCP --------------------------------------------------------------------------------------


@pytest.mark.real_model
async def test_mcp_answers_for_the_token_it_was_started_with(home: Path, tmp_path: Path) -> None:
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    from tests.mcp.test_mcp_server import call, call_error
    from tests.serving_cases import serve_command, server_env

    for team, seen, other in (("team-a", TEAM_A, TEAM_B), ("team-b", TEAM_B, TEAM_A)):
        command, *args = serve_command(home, "--mcp", "--allow-writes", "--token", SECRETS[team])
        env = {**server_env(), "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
        params = StdioServerParameters(command=command, args=args, env=env)
        with (tmp_path / f"{team}.log").open("w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                listed = await call(session, "list_artifacts", {"limit": 50})
                assert listed.startswith(f"{len(seen)} artifacts match"), listed
                assert ids_in(listed) == seen
                assert f"kind: tool {len(seen)}" in listed  # the counts count only those
                for text in QUERIES:
                    found = await call(session, "search", {"query": text})
                    assert not ids_in(found) & other, found
                paths = await call(
                    session, "find_paths", {"source_type": "RawHTML", "target_type": "Report"}
                )
                assert not ids_in(paths) & other
                for hidden in other:
                    assert "no artifact" in await call_error(
                        session, "get_artifact", {"id": hidden}
                    )
                if team == "team-b":
                    refused = await call_error(
                        session, "register", {"entry": {"id": "team-b/z", "name": "z"}}
                    )
                    assert "may only read" in refused


def test_the_catalog_is_built_as_described() -> None:
    assert TEAM_A and TEAM_B and not TEAM_A & TEAM_B
    assert "team-a/draft-summary" in TEAM_A - PUBLISHED_A
