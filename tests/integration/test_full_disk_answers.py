"""On a full disk a query that no brain can answer is an error, not "No results", and a catalog
that cannot be opened for want of space says so rather than that it is damaged (issue 35,
item 9). Run on a real tmpfs of a few megabytes (root only; skipped otherwise)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.errors import DiskFullError
from tests.conftest import FIXTURES
from tests.integration.test_read_only_and_full_disk import mount_tmpfs, unmount

pytestmark = pytest.mark.slow


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "small"
    mount_tmpfs(mount, "3m")
    try:
        yield mount
    finally:
        unmount(mount)


def fill(disk: Path) -> None:
    subprocess.run(
        ["dd", "if=/dev/zero", f"of={disk / 'filler'}", "bs=64k"], capture_output=True, check=False
    )


async def test_a_query_no_brain_can_answer_is_a_disk_full_error(small_disk: Path) -> None:
    home = small_disk / "home"
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        await lg.load(FIXTURES / "artifacts" / "documents.jsonl")
    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        fill(small_disk)
        with pytest.raises(
            DiskFullError, match="no brain could answer the query, the disk is full"
        ):
            await lg.query("summaries of long reports for busy readers")


def test_a_catalog_that_cannot_open_for_want_of_space_says_so(small_disk: Path) -> None:
    home = small_disk / "home"
    cli = [sys.executable, "-m", "lgent.cli", "--home", str(home)]
    loaded = subprocess.run([*cli, "load", str(FIXTURES / "artifacts" / "documents.jsonl")])
    assert loaded.returncode == 0
    fill(small_disk)
    for command in (["query", "summaries of long reports"], ["stats"]):
        done = subprocess.run([*cli, *command], capture_output=True, text=True)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert "the disk is full" in done.stderr and "not a readable" not in done.stderr
