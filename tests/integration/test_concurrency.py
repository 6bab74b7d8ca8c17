"""Readers and a writer on one home at once: no error, no torn read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks.harness.stress import alive_at, run_concurrency
from lgent.brains.semantic.embedders import Embedder
from lgent.catalog.records import Change

pytestmark = pytest.mark.real_model


async def test_eight_readers_and_a_writer(
    example_home: Path, real_embedder: Embedder, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    shutil.copytree(example_home, home)
    report = await run_concurrency(home, seconds=8, readers=8, embedder=real_embedder)
    print(report.to_dict())
    assert report.errors == []
    assert report.torn_reads == []
    assert report.queries >= 8 * 3 and report.registrations + report.removals >= 10


def test_alive_at_replays_the_change_log() -> None:
    log = [
        Change(5, "entry", "upsert", "A", "1.0.0"),
        Change(6, "type", "upsert", "T", None),
        Change(7, "entry", "remove", "B", None),
        Change(8, "entry", "remove", "A", "1.0.0"),
    ]
    assert alive_at(log, 4, {"B"}) == {"B"}
    assert alive_at(log, 6, {"B"}) == {"A", "B"}
    assert alive_at(log, 8, {"B"}) == {"A"}  # removing one version leaves the artifact
