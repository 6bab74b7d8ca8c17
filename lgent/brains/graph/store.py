"""The graph brain's persisted state: what the graph keeps of every entry (``ArtifactFacts``)
and the type declarations, so that a new process opens the graph without reading and
validating every catalog entry again (about 0.7 ms an entry: 12 s at 17,000).

The folder ``<home>/indexes/graph`` holds one snapshot file, ``graph-<change>-<token>.json``
(``{"types": [...], "facts": [[...], ...]}``), and ``manifest.json`` naming it, with the change
number it reflects and checksums of both (``lgent.brains.integrity``). The snapshot is written
under a name of its own and the manifest replaced last, so two processes saving at once each
leave a complete pair and the last manifest wins; a snapshot no manifest names is swept once
it is a minute old. A damaged, missing or other-format snapshot is not served: the graph is
rebuilt from the catalog and the problem said once. The graph may be saved behind the catalog
(a crash between saves): the brain pool applies the changes since then, as for any index.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from lgent.brains import integrity
from lgent.errors import IndexError_, write_error
from lgent.graph import facts as graph_facts
from lgent.graph.facts import ArtifactFacts
from lgent.models import TypeDecl

MANIFEST = "manifest.json"
FORMAT_VERSION = 1
"""The layout of the snapshot file (the facts' own layout is ``graph_facts.FORMAT``)."""
STALE_AFTER_S = 60.0
"""How old an unnamed snapshot must be before a save removes it (another process may be about
to name it in its manifest)."""


class Snapshot(NamedTuple):
    """A persisted graph, as read back."""

    types: list[TypeDecl]
    facts: list[ArtifactFacts]
    change_number: int


class GraphStore:
    """Reads and writes the graph's snapshot in ``folder``."""

    def __init__(self, folder: Path, *, read_only: bool = False) -> None:
        self.folder = folder
        self.read_only = read_only
        self._written: str | None = None
        """The snapshot this store last named (removed as soon as a newer one is named)."""

    def manifest(self) -> dict[str, Any] | None:
        """The manifest, or None when there is none or it cannot be read as one."""
        try:
            data = json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("change_number"), int):
            return None
        return data

    def load(self) -> Snapshot | str:
        """The persisted graph, or why there is none to serve ("" when none was ever written)."""
        if not (self.folder / MANIFEST).exists():
            return ""
        manifest = self.manifest()
        if manifest is None:
            return f"{self.folder / MANIFEST} is unreadable"
        found = (manifest.get("format_version"), manifest.get("facts_format"))
        if found != (FORMAT_VERSION, graph_facts.FORMAT):
            return f"format {found}, this L-gent writes {(FORMAT_VERSION, graph_facts.FORMAT)}"
        damaged = integrity.verify(self.folder, manifest)
        if damaged:
            return "damaged: " + "; ".join(damaged)
        path = self.folder / str(manifest.get("snapshot"))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            types = [TypeDecl.model_validate(t) for t in data["types"]]
            facts = [ArtifactFacts.from_json(f) for f in data["facts"]]
        except (OSError, ValueError, TypeError, KeyError) as err:
            return f"{path} cannot be read back ({err!s:.200})"
        return Snapshot(types, facts, int(manifest["change_number"]))

    def save(self, types: list[TypeDecl], facts: list[ArtifactFacts], change_number: int) -> None:
        """Write a snapshot of the graph at ``change_number`` (an ``IndexError_`` when the folder
        cannot be written; a full disk is a ``DiskFullError``)."""
        if self.read_only:
            raise IndexError_(f"the graph index in {self.folder} is read-only")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise write_error(f"cannot create {self.folder}", err, IndexError_) from err
        name = f"graph-{change_number}-{secrets.token_hex(4)}.json"
        body = {
            "types": [t.model_dump(mode="json", exclude_defaults=True) for t in types],
            "facts": [f.to_json() for f in facts],
        }
        integrity.atomic_write_text(self.folder / name, json.dumps(body, separators=(",", ":")))
        manifest = {
            "format_version": FORMAT_VERSION,
            "facts_format": graph_facts.FORMAT,
            "change_number": change_number,
            "artifacts": len(facts),
            "snapshot": name,
            integrity.CHECKSUMS: integrity.checksums(self.folder, [name]),
        }
        integrity.atomic_write_text(
            self.folder / MANIFEST, json.dumps(integrity.sealed(manifest), indent=2)
        )
        self._sweep(keep=name, superseded=self._written)
        self._written = name

    def _sweep(self, keep: str, superseded: str | None) -> None:
        """Remove the snapshots no manifest names (``keep``): the one this store named before
        at once, others once they are stale."""
        now = time.time()
        for path in self._snapshots():
            if path.name == keep:
                continue
            try:
                if path.name == superseded or now - path.stat().st_mtime > STALE_AFTER_S:
                    path.unlink()
            except OSError:
                continue  # gone already, or another process's to remove

    def _snapshots(self) -> Iterator[Path]:
        try:
            yield from (p for p in self.folder.iterdir() if p.name.startswith("graph-"))
        except OSError:
            return
