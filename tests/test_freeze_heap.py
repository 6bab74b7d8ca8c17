"""A server process keeps what is alive once warm out of the garbage collector's sight."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import lgent.serving as serving
from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from tests.conftest import make_entry


def test_freeze_heap_moves_what_is_alive_out_of_the_collectors_sight() -> None:
    code = "import gc; from lgent.serving import freeze_heap; freeze_heap(); print(gc.get_freeze_count())"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True
    )
    assert int(done.stdout) > 1000


async def test_a_server_freezes_once_warm(monkeypatch: pytest.MonkeyPatch) -> None:
    frozen: list[bool] = []
    monkeypatch.setattr(serving.process, "freeze_heap", lambda: frozen.append(True))
    async with LGent.open(None, embedder=HashingEmbedder(32), freshness="snapshot") as lg:
        await lg.register(make_entry("Tool", description="a tool"))
        assert await serving.warm_up(lg) == [] and frozen == []  # a library caller: untouched
        assert await serving.warm_up(lg, freeze=True) == [] and frozen == [True]
