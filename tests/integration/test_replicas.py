"""L-gent replicas on one PostgreSQL catalog: writes through any replica reach every replica's
answers, a replica that was down catches up incrementally, and the CLI and settings choose the
shared catalog. (The fault drills are in test_replica_faults.py.)"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.cli.app import app
from lgent.errors import SettingsError
from lgent.models import QueryResponse
from tests.conftest import FIXTURES, make_entry

pytestmark = pytest.mark.slow  # PostgreSQL and replica processes


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await check():
            return True
        time.sleep(0.005)
    return await check()


def top(response: QueryResponse) -> str | None:
    return response.results[0].id if response.results else None


async def test_a_write_through_one_replica_shows_in_every_replica(
    pg_catalog_url: str, tmp_path: Path
) -> None:
    embedder = HashingEmbedder()
    async with (
        LGent.open(tmp_path / "a", catalog=pg_catalog_url, embedder=embedder) as a,
        LGent.open(tmp_path / "b", catalog=pg_catalog_url, embedder=embedder) as b,
    ):
        await a.load(FIXTURES)
        assert await eventually(lambda: _same_number(a, b))
        assert [r.id for r in (await b.query("pdf parser", limit=3)).results] == [
            r.id for r in (await a.query("pdf parser", limit=3)).results
        ]
        await a.register(make_entry("ZebraCounter", description="counts the stripes of zebras"))

        async def b_sees_it() -> bool:
            return top(await b.query("ZebraCounter", limit=3)) == "ZebraCounter"

        assert await eventually(b_sees_it)
        response = await b.query("ZebraCounter", limit=3)
        assert response.warnings == () and response.change_number == await a.change_number()
        await b.remove("ZebraCounter")

        async def a_lost_it() -> bool:
            return "ZebraCounter" not in [r.id for r in (await a.query("zebra stripes")).results]

        assert await eventually(a_lost_it)


async def _same_number(a: LGent, b: LGent) -> bool:
    return await a.change_number() == await b.change_number()


async def test_a_replica_that_was_down_catches_up_incrementally(
    pg_catalog_url: str, tmp_path: Path
) -> None:
    embedder = HashingEmbedder()
    async with LGent.open(tmp_path / "a", catalog=pg_catalog_url, embedder=embedder) as a:
        await a.load(FIXTURES)
    async with LGent.open(tmp_path / "b", catalog=pg_catalog_url, embedder=embedder) as b:
        assert {r.action for r in await b.catch_up()} == {"rebuilt"}
        before = await b.change_number()
    async with LGent.open(tmp_path / "a", catalog=pg_catalog_url, embedder=embedder) as a:
        await a.register_many(
            [make_entry(f"Late{i}", description="arrived late") for i in range(20)]
        )
        await a.remove("PDFParser")
        after = await a.change_number()
    async with LGent.open(tmp_path / "b", catalog=pg_catalog_url, embedder=embedder) as b:
        assert await b.change_number() == after  # the copy caught up while opening
        reports = {r.brain: r for r in await b.catch_up()}
        for name in ("keyword", "semantic", "graph"):  # persisted: only the 21 changes applied
            assert (reports[name].action, reports[name].from_change) == ("caught_up", before)
            assert (reports[name].upserts, reports[name].removals) == (20, 1)
        assert top(await b.query("Late7", limit=1)) == "Late7"
        assert "PDFParser" not in [r.id for r in (await b.query("PDFParser")).results]


def test_stats_of_a_shared_catalog_creates_no_home(pg_catalog_url: str, tmp_path: Path) -> None:
    cli = CliRunner()
    shared = ["--catalog", pg_catalog_url]
    loaded = cli.invoke(app, ["--home", str(tmp_path / "a"), *shared, "load", str(FIXTURES)])
    assert loaded.exit_code == 0, loaded.output
    elsewhere = tmp_path / "never-made"
    counted = cli.invoke(app, ["--home", str(elsewhere), *shared, "stats", "--json"])
    assert counted.exit_code == 0, counted.output
    assert json.loads(counted.stdout)["artifacts"] == 330
    assert not elsewhere.exists()


def test_cli_chooses_the_shared_catalog(pg_catalog_url: str, tmp_path: Path) -> None:
    cli = CliRunner()

    def run(*args: str) -> dict[str, object]:
        result = cli.invoke(app, list(args))
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)  # type: ignore[no-any-return]

    shared = ["--catalog", pg_catalog_url]
    loaded = run("--home", str(tmp_path / "a"), *shared, "load", str(FIXTURES), "--json")
    assert loaded["added"] == 330
    assert run("--home", str(tmp_path / "b"), *shared, "stats", "--json")["artifacts"] == 330
    assert run("--home", str(tmp_path / "b"), *shared, "show", "PDFParser", "--json")["id"]
    assert not (tmp_path / "b" / "catalog.db").exists()  # the home keeps a replica, not its own
    configured = tmp_path / "c"
    configured.mkdir()
    (configured / "lgent.toml").write_text(f'[catalog]\nurl = "{pg_catalog_url}"\n')
    assert run("--home", str(configured), "show", "PDFParser", "--json")["id"] == "PDFParser"
    doctor = cli.invoke(app, ["--home", str(configured), "doctor"])
    assert doctor.exit_code == 0 and "PostgreSQL" in doctor.stdout, doctor.output
    bad = cli.invoke(app, ["--catalog", "mysql://user:pw@db/cat", "stats"])
    assert bad.exit_code == 2 and "--catalog" in bad.output and "pw" not in bad.output
    forgotten = cli.invoke(app, ["--home", str(tmp_path / "b"), "reindex", "--brain", "keyword"])
    assert forgotten.exit_code == 1  # a replica home without its URL says what it is
    assert "is a replica of a shared catalog: name it with --catalog" in forgotten.output
    named = cli.invoke(app, ["--home", str(tmp_path / "b"), *shared, "doctor", "--json"])
    fixes = [str(c["fix"]) for c in json.loads(named.stdout)]
    repair = [fix for fix in fixes if "reindex --brain" in fix]
    assert repair and all("--catalog" in fix for fix in repair), named.output


async def test_a_served_replica_checks_its_shared_catalog(
    pg_catalog_url: str, tmp_path: Path
) -> None:
    from lgent.serving import doctor

    async with LGent.open(tmp_path / "r", catalog=pg_catalog_url, embedder=HashingEmbedder()) as lg:
        await lg.register(make_entry("A"))
        assert lg.catalog_url == pg_catalog_url
        answer = await doctor(lg)
    catalog = next(c for c in answer.checks if c.name == "catalog")
    assert catalog.level == "ok" and "no catalog at" not in catalog.message


async def test_doctor_compares_the_replica_copy_with_the_database(
    pg_catalog_url: str, tmp_path: Path
) -> None:
    from lgent.doctor import check_home
    from lgent.home import MIRROR_FILE

    def replica(home: Path) -> tuple[str, str]:
        checks = check_home(home, catalog_url=pg_catalog_url)
        found = next((c for c in checks if c.name == "replica copy"), None)
        assert found is not None, checks
        return found.level, found.message

    embedder = HashingEmbedder()
    async with LGent.open(tmp_path / "b", catalog=pg_catalog_url, embedder=embedder) as b:
        await b.register(make_entry("First"))
        held = await b.change_number()
    never = tmp_path / "never"
    never.mkdir()
    assert replica(never) == ("ok", "none yet: made when L-gent first opens this home")
    assert replica(tmp_path / "b") == ("ok", f"current at change number {held}")
    async with LGent.open(tmp_path / "a", catalog=pg_catalog_url, embedder=embedder) as a:
        await a.register(make_entry("Second"))  # written through another home
        now = await a.change_number()
    level, message = replica(tmp_path / "b")  # doctor reads; it pulls nothing
    assert level == "warn" and f"at change {held} of the database's {now}" in message
    (tmp_path / "b" / MIRROR_FILE).write_bytes(b"not a database" * 100)
    level, message = replica(tmp_path / "b")
    assert level == "fail" and MIRROR_FILE in message


def test_catalog_settings_are_checked(tmp_path: Path) -> None:
    from lgent.config import CatalogSettings, settings_from_mapping

    with pytest.raises(SettingsError, match=r"catalog\.url: must be a PostgreSQL URL"):
        settings_from_mapping({"catalog": {"url": "sqlite:///x"}})
    with pytest.raises(SettingsError, match=r"catalog\.poll_seconds"):
        CatalogSettings(poll_seconds=0)
    with pytest.raises(SettingsError, match=r"unknown key 'catalog\.host'"):
        settings_from_mapping({"catalog": {"host": "db"}})
    assert settings_from_mapping({"catalog": {"url": "postgresql://db/cat"}}).catalog.url


@pytest.mark.real_model
def test_a_served_replica_answers_a_write_made_elsewhere(
    pg_catalog_url: str, tmp_path: Path, example_home: Path
) -> None:
    """``lgent --catalog URL serve --http``: a write through another replica reaches its answers."""
    server_home = tmp_path / "served"
    (server_home / "indexes" / "semantic").mkdir(parents=True)
    cache = example_home / "indexes" / "semantic" / "embeddings.sqlite"
    shutil.copy(cache, server_home / "indexes" / "semantic" / "embeddings.sqlite")

    async def load() -> None:
        async with LGent.open(
            tmp_path / "w", catalog=pg_catalog_url, embedder=HashingEmbedder()
        ) as w:
            await w.load(FIXTURES)

    asyncio.run(load())
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "lgent.cli", "--home", str(server_home)]
    command += ["--catalog", pg_catalog_url, "serve", "--http", "--port", "0"]
    with log.open("w") as errors:
        server = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=errors,
            env={**os.environ, "HF_HUB_OFFLINE": "1"},
        )
    try:
        deadline = time.monotonic() + 120
        while not (found := re.search(r"Uvicorn running on (http://\S+)", log.read_text())):
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        with httpx.Client(base_url=found.group(1), timeout=60) as client:

            def answer(query: str) -> tuple[list[str], list[str]]:
                response = client.post("/query", json={"query": query, "limit": 5})
                response.raise_for_status()
                body = response.json()
                return [r["id"] for r in body["results"]], body["warnings"]

            # a fresh server answers at once with the brains built so far, saying which are
            # still building; the keyword brain's build is the first to finish
            deadline = time.monotonic() + 120
            while not (first := answer("NewsParser"))[0]:
                assert time.monotonic() < deadline, first
                assert any("brain" in w for w in first[1]), first
                time.sleep(0.1)
            assert first[0][0] == "NewsParser"

            async def write() -> None:
                async with LGent.open(
                    tmp_path / "w", catalog=pg_catalog_url, embedder=HashingEmbedder()
                ) as w:
                    await w.register(make_entry("ZebraCounter", description="counts stripes"))

            asyncio.run(write())
            deadline = time.monotonic() + 15
            # first found by the brains already current, with a warning naming the one still
            # catching up; then by all of them, with no warning
            while (found_ids := answer("ZebraCounter"))[0][:1] != ["ZebraCounter"] or found_ids[1]:
                assert time.monotonic() < deadline, found_ids
                assert all("brain" in w for w in found_ids[1]), found_ids
                time.sleep(0.05)
    finally:
        server.terminate()
        server.wait(timeout=60)
