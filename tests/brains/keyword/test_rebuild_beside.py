"""A keyword rebuild is made beside the live index and swapped in only once committed: stopped,
failed or killed, it leaves the previous index served, and the next open clears what it left."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lgent.brains.base import ChangeSet
from lgent.brains.keyword.brain import KeywordBrain
from lgent.brains.keyword.index import BUILD, CANCEL_EVERY, LOCK, RETIRED, KeywordIndex
from lgent.errors import BuildStoppedError
from lgent.models import CatalogEntry
from tests.conftest import entry_lookup, make_entry

REPO = Path(__file__).resolve().parents[3]
OLD = [make_entry(f"Widget{i:04d}", description="converts text") for i in range(CANCEL_EVERY + 5)]
NEW = [make_entry(f"Gadget{i:02d}", description="parses pdf files") for i in range(20)]


def brain(
    path: Path, entries: list[CatalogEntry], *, fresh: bool = False, stop: bool = False
) -> KeywordBrain:
    return KeywordBrain(path, entries=entry_lookup(entries), fresh=fresh, cancelled=lambda: stop)


@pytest.fixture
def live(tmp_path: Path) -> Path:
    """A built keyword index at change number 7, holding ``OLD``."""
    path = tmp_path / "indexes" / "keyword"
    brain(path, OLD).build(OLD, [], 7)
    return path


def assert_old_index_served(path: Path) -> None:
    index = KeywordIndex(path)
    assert (index.change_number, index.documents(), index.detail) == (7, len(OLD), "")
    assert sorted(p.name for p in path.parent.iterdir()) == ["keyword"]  # no leftovers


def test_a_stopped_rebuild_keeps_the_live_index(live: Path) -> None:
    fresh = brain(live, OLD, fresh=True, stop=True)
    assert KeywordIndex(live).change_number == 7  # still served while the rebuild runs
    with pytest.raises(BuildStoppedError):
        fresh.build(OLD, [], 9)
    fresh.close()
    assert_old_index_served(live)


def test_a_finished_rebuild_replaces_the_live_index(live: Path) -> None:
    fresh = brain(live, NEW, fresh=True)
    fresh.build(NEW, [], 9)
    assert fresh.search("pdf").total == len(NEW)
    fresh.apply_changes(ChangeSet([], ["Gadget00"], None, 10))  # written in its final place
    assert fresh.search("pdf").total == len(NEW) - 1
    reopened = KeywordIndex(live)
    assert (reopened.change_number, reopened.documents()) == (10, len(NEW) - 1)
    assert sorted(p.name for p in live.parent.iterdir()) == ["keyword"]


def test_the_leftovers_of_a_killed_rebuild_are_cleared_on_the_next_open(live: Path) -> None:
    killed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sys\n"
            "from lgent.brains.keyword.index import KeywordIndex\n"
            "KeywordIndex(__import__('pathlib').Path(sys.argv[1]), fresh=True)\n"
            "os._exit(9)  # no cleanup, as after SIGKILL\n",
            str(live),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert killed.returncode == 9, killed.stderr
    assert len(list(live.parent.iterdir())) == 3  # live, the build folder and its lock
    assert_old_index_served(live)


def test_a_swap_cut_between_its_two_renames_is_undone(live: Path) -> None:
    token = "0123abcd"
    os.rename(live, live.parent / RETIRED.format(name="keyword", token=token))
    (live.parent / BUILD.format(name="keyword", token=token)).mkdir()
    (live.parent / LOCK.format(name="keyword", token=token)).touch()
    assert_old_index_served(live)


def test_a_rebuild_at_work_is_left_alone(live: Path) -> None:
    fresh = brain(live, NEW, fresh=True)
    (lock,) = live.parent.glob(LOCK.format(name="keyword", token="*"))
    with lock.open("a+b") as handle, pytest.raises(BlockingIOError):
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    assert KeywordIndex(live).change_number == 7  # an open meanwhile sweeps nothing of it
    fresh.build(NEW, [], 9)
    assert KeywordIndex(live).change_number == 9
