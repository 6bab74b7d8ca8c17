"""Folders a user may not read, and symlinks into the kernel's pseudo-filesystems (issue 35,
item 3), met for real: the loads run as an unprivileged user (root reads every folder), and
every such path is a skip naming it, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.harness.as_user import Unprivileged, unprivileged
from lgent.catalog.loaders import read_path
from lgent.config import LoadSettings
from lgent.errors import LoadError

ENTRY = '{"id": "%s", "name": "%s"}\n'


@pytest.fixture(scope="module")
def user() -> Unprivileged:
    found = unprivileged()
    if isinstance(found, str):
        pytest.skip(f"cannot run as an unprivileged user: {found}")
    return found


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder the unprivileged user can reach (pytest's own are private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="lgent-unreadable-"))
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        for path in folder.rglob("*"):
            if path.is_dir() and not path.is_symlink():
                os.chmod(path, 0o755)
        shutil.rmtree(folder)


def catalog(root: Path) -> Path:
    """A folder with one readable file, a folder of mode 000 and one of 0644 (listable but not
    searchable), each holding a catalog file, and links into /proc."""
    folder = root / "catalog"
    for name, mode in (("ok", 0o755), ("locked", 0o000), ("listed", 0o644)):
        (folder / name).mkdir(parents=True)
        (folder / name / "a.jsonl").write_text(ENTRY % (name, name), encoding="utf-8")
        os.chmod(folder / name / "a.jsonl", 0o644)
        os.chmod(folder / name, mode)
    os.chmod(folder, 0o755)
    os.chmod(root, 0o755)
    (folder / "proc").symlink_to("/proc")
    (folder / "self").symlink_to("/proc/self")
    return folder


def load_as(user: Unprivileged, root: Path, folder: Path, *extra: str) -> dict[str, object]:
    done = user.run(
        ["-m", "lgent.cli", "--home", str(root / "home"), "load", str(folder), *extra, "--json"],
        home=root,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_unreadable_folders_are_skipped_for_a_user_who_cannot_read_them(
    user: Unprivileged, open_folder: Path
) -> None:
    folder = catalog(open_folder)
    report = load_as(user, open_folder, folder, "--follow-symlinks")
    assert report["added"] == 1
    skipped = {
        Path(s["path"]).relative_to(folder).as_posix(): s["reason"]
        for s in report["skipped"]  # type: ignore[attr-defined]
    }
    if user.user != "root":
        assert skipped["locked"] == "folder cannot be read (Permission denied)"
        assert skipped["listed/a.jsonl"] == "cannot be read (Permission denied)"
    assert "in the system folder /proc (never read)" in skipped["proc"]
    assert "in the system folder /proc (never read)" in skipped["self"]


def test_a_home_the_user_cannot_reach_is_a_clear_error(
    user: Unprivileged, open_folder: Path
) -> None:
    private = open_folder / "private"
    private.mkdir(mode=0o700)
    if user.user == "root":
        pytest.skip("root reaches every folder")
    for command in (["stats"], ["doctor"], ["load", str(open_folder)], ["query", "pdf"]):
        done = user.run(
            ["-m", "lgent.cli", "--home", str(private / "home"), *command], home=open_folder
        )
        assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
        assert "Permission denied" in done.stderr + done.stdout


def test_a_symlink_into_proc_is_never_followed_even_by_root(tmp_path: Path) -> None:
    folder = tmp_path / "catalog"
    folder.mkdir()
    (folder / "a.jsonl").write_text(ENTRY % ("a", "a"), encoding="utf-8")
    (folder / "proc").symlink_to("/proc")
    (folder / "init").symlink_to("/proc/1")
    batch = read_path(folder, options=LoadSettings(follow_symlinks=True))
    assert [e.id for e in batch.entries] == ["a"]
    reasons = dict(batch.skipped)
    assert "system folder /proc" in reasons[str(folder / "proc")]
    assert "system folder /proc" in reasons[str(folder / "init")]


def test_loading_a_pseudo_filesystem_itself_is_an_error() -> None:
    for path in ("/proc", "/proc/self", "/sys"):
        with pytest.raises(LoadError, match="system folder"):
            read_path(path)
