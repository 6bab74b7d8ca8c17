"""A home on a read-only mount answers queries and refuses writes clearly; a full disk is
reported as a full disk, with the catalog intact. Both run on real mounts: a tmpfs mounted
read-only, and a tmpfs of a few megabytes (they need root and are skipped without it)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.catalog.store import CatalogStore
from lgent.doctor import check_home
from lgent.errors import DiskFullError, ReadOnlyHomeError
from tests.conftest import FIXTURES, make_entry


def mount_tmpfs(where: Path, size: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")


def unmount(where: Path) -> None:
    subprocess.run(["umount", str(where)], check=False, capture_output=True)


@pytest.fixture
def read_only_home(tmp_path: Path) -> Iterator[Path]:
    """The example catalog, indexes built, then one more entry committed and left in the
    catalog's ``-wal`` (a snapshot of a home in use), copied to a tmpfs mounted read-only."""
    built = tmp_path / "built"

    async def build() -> None:
        async with LGent.open(built, embedder=HashingEmbedder(64)) as lg:
            await lg.load(FIXTURES)
            await lg.reindex()

    import asyncio

    asyncio.run(build())
    live = CatalogStore(built / "catalog.db")  # kept open: its last commit stays in the -wal
    live._conn.execute("PRAGMA wal_autocheckpoint = 0")
    live.register_batch(
        [make_entry("LateArrival", description="stamps late parcels", keywords=["parcel"])]
    )
    mount = tmp_path / "ro"
    mount_tmpfs(mount, "64m")
    try:
        shutil.copytree(built, mount / "home")
        live.close()
        assert (mount / "home" / "catalog.db-wal").exists()
        assert (mount / "home" / "catalog.db-shm").exists()
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        yield mount / "home"
    finally:
        unmount(mount)


async def test_a_read_only_home_answers_and_refuses_writes(read_only_home: Path) -> None:
    findings = check_home(read_only_home)
    assert not [f for f in findings if f.level == "fail"], findings
    assert any(f.name == "home" and "read-only" in f.message for f in findings)
    async with LGent.open(read_only_home, embedder=HashingEmbedder(64)) as lg:
        assert lg.read_only
        stats = await lg.stats()
        named = await lg.query("PDFParser_v2")
        intent = await lg.query("stamps late parcels")
        paths = await lg.find_paths("RawHTML", "Summary")
        found = await lg.search("parcel")
        with pytest.raises(ReadOnlyHomeError, match="read-only"):
            await lg.load(FIXTURES)
        with pytest.raises(ReadOnlyHomeError, match="read-only"):
            await lg.register(make_entry("Nope"))
        with pytest.raises(ReadOnlyHomeError, match="read-only"):
            await lg.remove("PDFParser_v2")
    assert stats["artifacts"] == 331  # the example catalog plus the entry in the -wal
    assert named.results[0].id == "PDFParser_v2"
    assert intent.results[0].id == "LateArrival"  # caught up in memory
    assert paths and [h.id for h in found.hits] == ["LateArrival"]
    assert any("read-only" in w for w in [*named.warnings, *found.warnings, *intent.warnings])


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "small"
    mount_tmpfs(mount, "4m")
    try:
        yield mount
    finally:
        unmount(mount)


@pytest.mark.slow  # a full disk, for real
async def test_a_full_disk_is_reported_as_such_and_loses_nothing(small_disk: Path) -> None:
    home = small_disk / "home"
    rng = random.Random(3)

    def bulky(i: int) -> object:
        text = "".join(rng.choice("abcdefghij klmnop") for _ in range(15_000))
        return make_entry(f"Bulky{i:04d}", description=text)

    async with LGent.open(home, embedder=HashingEmbedder(64)) as lg:
        await lg.register_many([make_entry("Keeper", description="must survive")])
        kept = await lg.change_number()
        with pytest.raises(DiskFullError, match="disk is full"):
            await lg.register_many([bulky(i) for i in range(400)])  # ~6 MB: more than fits
        assert await lg.change_number() == kept
        assert [e.id for e in await lg.list_entries()] == ["Keeper"]
        (small_disk / "filler").write_bytes(b"")  # the disk is still writable for small things
        await lg.register(make_entry("AfterwardsToo", description="still works"))
    with CatalogStore(home / "catalog.db", read_only=True) as store:
        assert all(f.level == "ok" for f in store.check())
        assert sorted(e.id for e in store.list_entries()) == ["AfterwardsToo", "Keeper"]
