"""Ctrl-C (SIGINT) during ``lgent load`` and ``lgent reindex``: what is kept, what is said, and
the exit status 130. Each command runs in a child with one step slowed (patched before the CLI
starts), and the signal is sent once that step has begun."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lgent import LGent
from lgent.catalog.store import CatalogStore
from tests.conftest import make_entry

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX here"),
]  # signals to live processes

REPO = Path(__file__).resolve().parents[2]
MARK = "LGENT_TEST_MARK"
"""The file the slowed step creates when it begins."""

SLOW_READS = """
import lgent.catalog.readers.jsonl as jsonl
read = jsonl.JsonlReader.read
def slow_read(self, doc, ctx):
    mark.touch()
    time.sleep(0.05)
    return read(self, doc, ctx)
jsonl.JsonlReader.read = slow_read
"""
SLOW_COMMIT = """
from lgent.catalog.store import CatalogStore
register = CatalogStore.register_batch
def slow_register(self, *args, **kwargs):
    mark.touch()
    time.sleep(1.0)
    return register(self, *args, **kwargs)
CatalogStore.register_batch = slow_register
"""
SLOW_KEYWORD_BUILD = """
import lgent.brains.keyword.index as index
class SlowMaker(index.DocumentMaker):
    def __call__(self, entry):
        mark.touch()
        time.sleep(0.001)
        return super().__call__(entry)
index.DocumentMaker = SlowMaker
"""


def _default_sigint() -> None:
    """A child of this test process may inherit SIGINT ignored; a user's shell gives it the
    default, which Python turns into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted(
    tmp_path: Path, patch: str, *args: str
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``lgent ARGS`` with ``patch`` applied, send SIGINT once the slowed step began: the
    finished process and the seconds it took to end after the signal."""
    mark = tmp_path / "began"
    code = (
        "import os, sys, time\nfrom pathlib import Path\n"
        f"mark = Path(os.environ[{MARK!r}])\n{patch}\n"
        "from lgent.cli.app import console_main\nconsole_main()\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", MARK: str(mark)},
        preexec_fn=_default_sigint,
    )
    deadline = time.monotonic() + 60
    while not mark.exists():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the slowed step never began"
        time.sleep(0.01)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    done = subprocess.CompletedProcess(child.args, child.returncode, out, err)
    return done, time.monotonic() - sent


def catalog_folder(root: Path, files: int) -> Path:
    folder = root / "catalog"
    folder.mkdir()
    for i in range(files):
        record = {"id": f"Tool{i:03d}", "name": f"Tool{i:03d}", "description": "converts text"}
        (folder / f"tool{i:03d}.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    return folder


def artifacts(home: Path) -> int:
    with CatalogStore(home / "catalog.db") as store:
        return store.count()


def test_ctrl_c_while_reading_stops_the_load_and_commits_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    folder = catalog_folder(tmp_path, 200)  # 10 s of slowed reading
    done, took = interrupted(tmp_path, SLOW_READS, "--home", str(home), "load", str(folder))
    assert done.returncode == 130, done.stderr
    assert done.stderr.startswith("load stopped: nothing was committed"), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""
    assert took < 2.0, f"took {took:.2f} s to stop"  # a file is 0.05 s: a loose bound
    assert artifacts(home) == 0


def test_ctrl_c_during_the_commit_lets_it_finish_and_reports_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    folder = catalog_folder(tmp_path, 3)
    done, _ = interrupted(tmp_path, SLOW_COMMIT, "--home", str(home), "load", str(folder))
    assert done.returncode == 130, done.stderr
    assert done.stdout.startswith("Loaded 3 file(s): 3 added"), done.stdout + done.stderr
    assert artifacts(home) == 3


def test_ctrl_c_during_reindex_keeps_the_previous_index(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with CatalogStore(home / "catalog.db") as store:
        store.register_batch([make_entry(f"Widget{i:04d}") for i in range(2500)])

    async def build_keyword() -> None:
        async with LGent.open(home) as lg:
            await lg.catch_up(["keyword"])

    asyncio.run(build_keyword())
    done, took = interrupted(
        tmp_path, SLOW_KEYWORD_BUILD, "--home", str(home), "reindex", "--brain", "keyword"
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip() == (
        "reindex stopped: the index being rebuilt keeps its previous state"
    ), done.stderr
    assert took < 5.0, f"took {took:.2f} s to stop"
    (keyword,) = [f for f in LGent.check_home(home) if f.name == "keyword index"]
    assert keyword.level == "ok", keyword
    assert sorted(p.name for p in (home / "indexes").iterdir() if p.is_dir()) == ["keyword"]
