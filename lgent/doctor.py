"""``lgent doctor``: check a home and say what to run to repair it.

Checks the catalog (SQLite integrity, schema version, exactly one latest version per artifact,
an acyclic type graph) and each derived index (its manifest's format and the catalog change
number it reflects). Nothing is changed; every problem comes with the command that fixes it.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from lgent.catalog.store import SCHEMA_VERSION, CatalogStore
from lgent.errors import LGentError
from lgent.home import Home

Level = Literal["ok", "warn", "fail"]


@dataclass(frozen=True, slots=True)
class Check:
    """One finding: what was checked, how it went, and the repair when it did not."""

    name: str
    level: Level
    message: str
    fix: str = ""


def check_home(root: Path) -> list[Check]:
    """Every check for the home at ``root`` (which must exist)."""
    home = Home(root)
    db = home.catalog_db
    assert db is not None
    if not root.is_dir():
        return [Check("home", "fail", f"{root} is not a folder", f"lgent --home {root} init")]
    if not db.exists():
        return [Check("catalog", "fail", f"no catalog at {db}", f"lgent --home {root} init")]
    checks = _catalog_checks(db)
    if any(c.level == "fail" and c.name.startswith("catalog") for c in checks):
        return checks
    try:
        with CatalogStore(db) as store:
            number = store.change_number()
            checks.append(
                Check(
                    "catalog",
                    "ok",
                    f"{store.count()} artifacts, {len(store.types())} types, "
                    f"change number {number}",
                )
            )
    except LGentError as err:
        return [*checks, Check("catalog", "fail", str(err), "restore catalog.db from a backup")]
    for brain in ("keyword", "semantic"):
        index_dir = home.index_dir(brain)
        assert index_dir is not None
        checks.append(_index_check(brain, index_dir, number, root))
    checks.append(
        Check("graph index", "ok", "kept in memory and rebuilt from the catalog on first use")
    )
    return checks


def _catalog_checks(db: Path) -> list[Check]:
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    except sqlite3.Error as err:
        return [
            Check(
                "catalog file",
                "fail",
                f"cannot open {db}: {err}",
                "restore catalog.db from a backup",
            )
        ]
    try:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if integrity != "ok":
            return [
                Check(
                    "catalog integrity",
                    "fail",
                    f"SQLite integrity check: {integrity}",
                    "restore catalog.db from a backup, or re-load the catalog files into a new home",
                )
            ]
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if version is None or version[0] != str(SCHEMA_VERSION):
            return [
                Check(
                    "catalog schema",
                    "fail",
                    f"schema version {version[0] if version else 'missing'}, "
                    f"expected {SCHEMA_VERSION}",
                    "use the L-gent version that wrote it",
                )
            ]
        broken = [
            r[0]
            for r in conn.execute(
                "SELECT id FROM entries GROUP BY id HAVING SUM(is_latest) != 1 LIMIT 5"
            )
        ]
        checks = [Check("catalog integrity", "ok", "SQLite integrity check passed")]
        if broken:
            checks.append(
                Check(
                    "catalog versions",
                    "fail",
                    f"artifacts without exactly one latest version: {', '.join(broken)}",
                    "re-register those artifacts (lgent load their files again)",
                )
            )
        return checks
    except sqlite3.DatabaseError as err:
        return [
            Check(
                "catalog file",
                "fail",
                f"{db} is not a readable catalog: {err}",
                "restore catalog.db from a backup",
            )
        ]
    finally:
        conn.close()


def _index_check(brain: str, index_dir: Path, catalog_number: int, root: Path) -> Check:
    name = f"{brain} index"
    fix = f"lgent --home {root} reindex --brain {brain}"
    manifest_path = index_dir / "manifest.json"
    if not manifest_path.exists():
        return Check(name, "warn", "not built yet (built on first use)", fix)
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        stamped = int(manifest["change_number"])
    except (OSError, ValueError, KeyError, TypeError) as err:
        return Check(
            name, "fail", f"unreadable manifest ({err}); it will be rebuilt on next use", fix
        )
    if stamped > catalog_number:
        return Check(
            name,
            "fail",
            f"reflects change {stamped}, but the catalog is only at {catalog_number} "
            "(catalog restored from an older copy?); it will be rebuilt on next use",
            fix,
        )
    if stamped < catalog_number:
        return Check(
            name,
            "warn",
            f"reflects change {stamped} of {catalog_number}; it catches up on next use",
            fix,
        )
    missing = [f for f in _generation_files(manifest) if not (index_dir / f).exists()]
    if missing:
        return Check(name, "fail", f"files missing: {', '.join(missing)}", fix)
    return Check(name, "ok", f"current at change number {stamped}")


def _generation_files(manifest: dict[str, object]) -> list[str]:
    generation = manifest.get("generation")
    if not isinstance(generation, str):
        return []
    return [f"vectors-{generation}.faiss", f"ids-{generation}.json", f"entries-{generation}.json"]
