"""``lgent doctor``: check a home and say what to run to repair it.

Checks the catalog (SQLite integrity, schema version, exactly one latest version per artifact,
the checksum of every row, an acyclic type graph), the settings file ``lgent.toml``, a replica
home's copy of the shared catalog (``replica.db``), and each derived index (its manifest's
format, the catalog change number it reflects, the checksum of every file it names, and what
its brain's ``check_index`` adds: the embedding cache's rows, tantivy's ``.managed.json``). Nothing is changed; every problem comes with the command that fixes it. A home that
cannot be written is said to be read-only (queries work there), not taken for a damaged one.
"""

from __future__ import annotations

import json
from pathlib import Path

from lgent.brains import integrity
from lgent.brains.defaults import default_registry
from lgent.brains.registry import BrainRegistry, BrainSpec
from lgent.catalog.backends import open_catalog
from lgent.catalog.records import Finding
from lgent.config import load_settings, redact
from lgent.errors import CatalogCorruptError, CatalogUnreachableError, LGentError, SettingsError
from lgent.home import MIRROR_FILE, Home

Check = Finding
"""One finding: what was checked, how it went, and the repair when it did not."""


def check_home(
    root: Path, registry: BrainRegistry | None = None, *, catalog_url: str | None = None
) -> list[Check]:
    """Every check for the home at ``root``: the catalog (the shared one at ``catalog_url``, or
    the one ``[catalog] url`` names, else the home's own), then each brain of ``registry``
    (default: the brains L-gent ships) that keeps an index on disk."""
    home = Home(root)
    db = home.catalog_db
    assert db is not None
    try:
        if not root.is_dir():
            return [Check("home", "fail", f"{root} is not a folder", f"lgent --home {root} init")]
        read_only = home.read_only()
    except (OSError, LGentError) as err:
        reason = err.strerror if isinstance(err, OSError) else str(err)
        return [Check("home", "fail", f"{root} cannot be read: {reason}", "check its permissions")]
    try:
        url = catalog_url or load_settings(home.settings_file).catalog.url
    except SettingsError as err:
        return [Check("settings", "fail", str(err), f"correct {home.settings_file}")]
    if url is None and not db.exists():
        return [Check("catalog", "fail", f"no catalog at {db}", f"lgent --home {root} init")]
    restore = "restore catalog.db from a backup" if url is None else "restore the database"
    try:
        catalog = open_catalog(home, read_only=True, url=url)
    except CatalogCorruptError as err:
        name = "catalog schema" if "schema version" in str(err) else "catalog file"
        return [Check(name, "fail", str(err), restore)]
    except CatalogUnreachableError as err:
        reach = "start the database, or correct the URL and its credentials"
        return [Check("catalog", "fail", str(err), reach)]
    except LGentError as err:
        return [Check("catalog file", "fail", str(err), restore)]
    try:
        checks = catalog.check()
        if any(c.level == "fail" for c in checks):
            return checks
        number = catalog.change_number()
        checks.append(
            Check(
                "catalog",
                "ok",
                f"{catalog.count()} artifacts, {len(catalog.types())} types, "
                f"change number {number}",
            )
        )
    except LGentError as err:
        return [Check("catalog", "fail", str(err), restore)]
    finally:
        catalog.close()
    checks.append(_settings_check(home, root))
    if url is not None and home.root is not None:
        checks.append(_replica_check(home.root / MIRROR_FILE, number))
    if read_only:
        checks.append(
            Check(
                "home",
                "warn",
                f"{root} is read-only (a read-only mount, a snapshot, or no write permission): "
                "queries work; load, register and remove are refused; an index that is not "
                "current is rebuilt in memory",
                "copy the home to a writable place to change it",
            )
        )
    command = f"lgent --home {root}"
    if catalog_url is not None:  # named on the command line: the repair must name it too
        command += f" --catalog '{redact(catalog_url)}'"
    for spec in registry if registry is not None else default_registry():
        index_dir = home.index_dir(spec.name)
        assert index_dir is not None
        if spec.index_files is None:
            message = "kept in memory and rebuilt from the catalog on first use"
            checks.append(Check(f"{spec.name} index", "ok", message))
        else:
            checks.append(_index_check(spec, index_dir, number, command))
    return checks


def _settings_check(home: Home, root: Path) -> Check:
    """``lgent.toml`` read as every command reads it: a bad key or value fails here, not in the
    middle of every query."""
    path = home.settings_file
    assert path is not None
    if not path.exists():
        return Check("settings", "ok", f"no {path.name}: the defaults apply")
    try:
        load_settings(path)
    except SettingsError as err:
        return Check("settings", "fail", str(err), f"fix or remove {path}")
    return Check("settings", "ok", f"{path.name} is valid")


def _replica_check(path: Path, catalog_number: int) -> Check:
    """The home's copy of the shared catalog (``replica.db``), against the database's change
    number: every open and every poll pulls it forward, so behind is a warning; damaged or
    ahead of the database (restored from an older backup?), it is copied again."""
    from lgent.catalog.store import CatalogStore

    name = "replica copy"
    again = f"delete {path}: the next open copies the shared catalog again"
    if not path.is_file():
        return Check(name, "ok", "none yet: made when L-gent first opens this home")
    try:
        copy = CatalogStore(path, read_only=True)
    except LGentError as err:
        return Check(name, "fail", f"{path}: {err}", again)
    try:
        problems = [c for c in copy.check() if c.level != "ok"]
        if problems:
            return Check(name, "fail", "; ".join(c.message for c in problems), again)
        held = copy.change_number()
    except LGentError as err:
        return Check(name, "fail", f"{path}: {err}", again)
    finally:
        copy.close()
    if held > catalog_number:
        message = (
            f"at change {held}, ahead of the database's {catalog_number} (restored from an "
            "older backup?); it is replaced, and the indexes rebuilt, on the next open"
        )
        return Check(name, "warn", message, again)
    if held < catalog_number:
        message = (
            f"at change {held} of the database's {catalog_number}; it catches up on the next "
            "open, or within the poll interval in a server"
        )
        return Check(name, "warn", message)
    return Check(name, "ok", f"current at change number {held}")


def _index_check(spec: BrainSpec, index_dir: Path, catalog_number: int, command: str) -> Check:
    """``command``: ``lgent --home ROOT`` with the options that reach this home's catalog."""
    name = f"{spec.name} index"
    fix = f"{command} reindex --brain {spec.name}"
    manifest_path = index_dir / "manifest.json"
    if not manifest_path.exists():
        return Check(name, "warn", "not built yet (built on first use)", fix)
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        stamped = int(manifest["change_number"])
    except (OSError, ValueError, KeyError, TypeError) as err:
        return Check(
            name,
            "fail",
            f"unreadable manifest {manifest_path} ({err}); it will be rebuilt on next use",
            fix,
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
    files = spec.index_files(manifest) if spec.index_files is not None else []
    missing = [f for f in files if not (index_dir / f).exists()]
    if missing:
        return Check(name, "fail", f"files missing: {', '.join(missing)}", fix)
    damaged = integrity.verify(index_dir, manifest)
    if not damaged and spec.check_index is not None:
        damaged = spec.check_index(index_dir, manifest)
    if damaged:
        return Check(
            name,
            "fail",
            "damaged (it is not served, and is rebuilt on next use): " + "; ".join(damaged),
            fix,
        )
    return Check(name, "ok", f"current at change number {stamped}, {len(files)} files verified")
