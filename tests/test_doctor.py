"""`lgent doctor`: what it finds on healthy, stale, missing and corrupt homes, and what it advises."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from lgent.catalog.store import CatalogStore
from lgent.doctor import check_home
from tests.conftest import make_entry


def levels(home: Path) -> dict[str, str]:
    return {c.name: c.level for c in check_home(home)}


def test_healthy_home(example_home: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(example_home, home)
    found = levels(home)
    assert (
        found["catalog"] == "ok"
        and found["keyword index"] == "ok"
        and found["semantic index"] == "ok"
    )
    assert "fail" not in found.values()


def test_stale_and_broken_indexes_say_how_to_repair(example_home: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(example_home, home)
    with CatalogStore(home / "catalog.db") as store:
        store.register(make_entry("BrandNew"))
    checks = {c.name: c for c in check_home(home)}
    assert (
        checks["keyword index"].level == "warn" and "catches up" in checks["keyword index"].message
    )
    assert checks["keyword index"].fix.endswith("reindex --brain keyword")
    manifest = home / "indexes" / "semantic" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["change_number"] = 10**6
    manifest.write_text(json.dumps(data))
    checks = {c.name: c for c in check_home(home)}
    assert checks["semantic index"].level == "fail"
    assert "restored from an older copy" in checks["semantic index"].message


def test_missing_and_corrupt_homes(tmp_path: Path) -> None:
    (missing,) = check_home(tmp_path / "nowhere")
    assert missing.level == "fail" and missing.fix.endswith("init")
    home = tmp_path / "bad"
    home.mkdir()
    (home / "catalog.db").write_bytes(b"garbage" * 200)
    checks = check_home(home)
    assert checks[0].level == "fail" and "not a readable" in checks[0].message
