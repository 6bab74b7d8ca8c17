"""Quick brains rebuilt side by side after a large load: the graph in a process of its own while
this one builds the keyword index, the same index either way; a failed side process is said and
the brain built here; a home the side process would open differently is built here."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.runtime import side_builds
from lgent.runtime.side_builds import side_brains
from tests.conftest import FIXTURES


def test_only_brains_after_the_first_and_far_behind_go_beside_one_per_spare_core() -> None:
    far = side_builds.MIN_CHANGES
    assert side_brains([("keyword", far), ("graph", far)], cores=2) == ["graph"]
    assert side_brains([("keyword", far), ("graph", far - 1)], cores=2) == []
    assert side_brains([("graph", far)], cores=4) == []  # nothing to build beside it
    assert side_brains([("keyword", far), ("graph", far)], cores=1) == []
    three = [("a", far), ("b", far), ("c", far)]
    assert side_brains(three, cores=2) == ["b"]
    assert side_brains(three, cores=8) == ["b", "c"]


@pytest.fixture
def beside(monkeypatch: pytest.MonkeyPatch) -> None:
    """Side builds for any size of load, on a machine of two cores."""
    monkeypatch.setattr(side_builds, "MIN_CHANGES", 1)
    monkeypatch.setattr(side_builds, "usable_cores", lambda: 2)


async def graph_answers(lg: LGent) -> list[tuple[str, list[str]]]:
    graph = lg.catalog_graph()
    ids = sorted(s.id for s in graph.signatures())[::15]
    return [(i, sorted(s.id for s in graph.find_compatible(i, limit=None))) for i in ids]


async def load_and_build(home: Path, **options: object) -> tuple[dict[str, str], list]:
    async with LGent.open(home, embedder=HashingEmbedder(), **options) as lg:
        await lg.load(FIXTURES)
        said = await lg.build()
        return said, await graph_answers(lg)


@pytest.mark.usefixtures("beside")
async def test_the_graph_is_rebuilt_in_a_second_process_with_the_same_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said, answers = await load_and_build(tmp_path / "beside")
    assert said["graph"].startswith("rebuilt to change ")
    assert said["graph"].endswith(" in a second process")
    assert said["keyword"].startswith("rebuilt to change ")
    assert "second process" not in said["keyword"]
    monkeypatch.setattr(side_builds, "MIN_CHANGES", 10**9)
    here, expected = await load_and_build(tmp_path / "here")
    assert "second process" not in here["graph"]
    assert answers == expected and any(found for _, found in expected)
    async with LGent.open(tmp_path / "beside", embedder=HashingEmbedder()) as lg:
        assert await graph_answers(lg) == expected  # the index on disk is the one it wrote


@pytest.mark.usefixtures("beside")
async def test_a_failed_side_process_is_said_and_the_brain_built_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(side_builds, "_RUN_CLI", "import sys; sys.exit('no room left')")
    said, answers = await load_and_build(tmp_path / "H")
    assert said["graph"].endswith("here (the second process failed: exit status 1: no room left)")
    assert said["graph"].startswith("rebuilt to change ")
    assert any(found for _, found in answers)


@pytest.mark.usefixtures("beside")
async def test_a_home_opened_with_other_settings_is_built_here(tmp_path: Path) -> None:
    said, _ = await load_and_build(tmp_path / "H", settings={"cache": {"size": 7}})
    assert "second process" not in said["graph"]
    assert said["graph"].startswith("rebuilt to change ")


@pytest.mark.usefixtures("beside")
async def test_a_cancelled_build_stops_its_side_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(side_builds, "_RUN_CLI", "import time; time.sleep(120)")
    started: list[side_builds.SideBuild] = []
    start = side_builds.start_side_builds

    def spied(home: Path, brains: Sequence[str]) -> dict[str, side_builds.SideBuild]:
        made = start(home, brains)
        started.extend(made.values())
        return made

    monkeypatch.setattr(side_builds, "start_side_builds", spied)
    async with LGent.open(tmp_path / "H", embedder=HashingEmbedder()) as lg:
        await lg.load(FIXTURES)
        building = asyncio.create_task(lg.build())
        while not started:
            await asyncio.sleep(0.02)
        building.cancel()
        with pytest.raises(asyncio.CancelledError):
            await building
        assert started[0].process.poll() is not None  # stopped, not left running
