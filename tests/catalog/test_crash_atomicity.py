"""A SIGKILL in the middle of loading a large file leaves all of that file in the catalog, or none."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lgent.catalog.store import CatalogStore

pytestmark = pytest.mark.slow  # processes killed mid-write

N = 30_000


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.jsonl"
    with path.open("w") as f:
        for i in range(N):
            f.write(
                json.dumps(
                    {
                        "id": f"Tool{i:06d}",
                        "name": f"Tool{i:06d}",
                        "version": "1.0.0",
                        "description": f"synthetic tool number {i} " + "padding " * 20,
                        "keywords": ["synthetic", f"k{i % 97}"],
                        "success_rate": (i % 100) / 100,
                    }
                )
                + "\n"
            )
    return path


def start_load(home: Path, path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "lgent.cli", "--home", str(home), "load", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def count(home: Path) -> int:
    with CatalogStore(home / "catalog.db") as store:
        return store.count()


def test_kill_during_the_write_transaction(tmp_path: Path, big_file: Path) -> None:
    home = tmp_path / "H"
    proc = start_load(home, big_file)
    wal = home / "catalog.db-wal"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if wal.exists() and wal.stat().st_size > 256 * 1024:  # the batch is being written
            break
        time.sleep(0.005)
    killed_mid_write = proc.poll() is None
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert killed_mid_write, "the load finished before the kill; use a bigger file"
    assert count(home) == 0  # the batch was not committed: nothing of it is there


@pytest.mark.parametrize("delay", [0.3, 0.8, 1.5, 2.5, 4.0])
def test_kill_at_various_moments(tmp_path: Path, big_file: Path, delay: float) -> None:
    home = tmp_path / "H"
    proc = start_load(home, big_file)
    time.sleep(delay)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    if (home / "catalog.db").exists():
        assert count(home) in (0, N)
