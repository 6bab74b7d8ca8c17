"""The graph brain's persisted state, so that a new process opens the graph without reading
and validating every catalog entry again (about 0.7 ms an entry: 12 s at 17,000).

The folder ``<home>/indexes/graph`` holds, for one change number:

- ``graph-<change>-<token>.json``: the facts of every entry and the type declarations
  (``lgent.graph.facts``), the durable form: any later L-gent builds the graph from it;
- ``graph-<change>-<token>.image``: the built graph itself (``lgent.graph.image``), read in a
  fraction of the time a build from facts takes, and only by the code that wrote it;
- ``manifest.json``: names both, with the change number, the image's code fingerprint and
  checksums of both files and of itself (``lgent.brains.integrity``).

The files are written under names of their own and the manifest replaced last, so two
processes saving at once each leave a complete set and the last manifest wins; files no
manifest names are swept once a minute old. A damaged, missing or other-format snapshot is
not served: the graph is rebuilt from the catalog and the problem said once. The snapshot may
be behind the catalog (a crash between saves): the brain pool applies the changes since.
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
from lgent.graph.image import code_fingerprint, graph_from, image_of
from lgent.graph.model import CatalogGraph
from lgent.models import TypeDecl

MANIFEST = "manifest.json"
FORMAT_VERSION = 1
"""The layout of the folder and the facts file (the facts' own layout: ``graph_facts.FORMAT``)."""
STALE_AFTER_S = 60.0
"""How old a file no manifest names must be before a save removes it (another process may be
about to name it)."""


class Opened(NamedTuple):
    """A graph opened from its snapshot. ``from_facts``: the image was written by other code,
    so the graph was built from the facts (save again to write an image this code reads)."""

    graph: CatalogGraph
    from_facts: bool


class GraphStore:
    """Reads and writes the graph's snapshot in ``folder``."""

    def __init__(self, folder: Path, *, read_only: bool = False) -> None:
        self.folder = folder
        self.read_only = read_only
        self._written: tuple[str, ...] = ()
        """The files this store last named (removed as soon as newer ones are named)."""

    def manifest(self) -> dict[str, Any] | None:
        """The manifest, or None when there is none or it cannot be read as one."""
        try:
            data = json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("change_number"), int):
            return None
        return data

    def load(self) -> Opened | str:
        """The persisted graph, or why there is none to serve ("" when none was ever written)."""
        if not (self.folder / MANIFEST).exists():
            return ""
        manifest = self.manifest()
        if manifest is None:
            return f"{self.folder / MANIFEST} is unreadable"
        found = manifest.get("format_version")
        if found != FORMAT_VERSION or manifest.get("facts_format") != graph_facts.FORMAT:
            return f"format {found!r}, this L-gent writes {FORMAT_VERSION}"
        damaged = integrity.verify(self.folder, manifest)
        if damaged:
            return "damaged: " + "; ".join(damaged)
        if manifest.get("image_code") == code_fingerprint():
            path = self.folder / str(manifest.get("image"))
            try:
                return Opened(graph_from(path.read_bytes()), from_facts=False)
            except (OSError, ValueError) as err:
                return f"{path} cannot be read back ({err!s:.200})"
        return self._from_facts(manifest)

    def _from_facts(self, manifest: dict[str, Any]) -> Opened | str:
        path = self.folder / str(manifest.get("facts"))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            types = [TypeDecl.model_validate(t) for t in data["types"]]
            facts = [ArtifactFacts.from_json(f) for f in data["facts"]]
        except (OSError, ValueError, TypeError, KeyError) as err:
            return f"{path} cannot be read back ({err!s:.200})"
        graph = CatalogGraph()
        graph.build_from(facts, types, int(manifest["change_number"]))
        return Opened(graph, from_facts=True)

    def save(self, graph: CatalogGraph) -> None:
        """Write a snapshot of ``graph`` (an ``IndexError_`` when the folder cannot be written;
        a full disk is a ``DiskFullError``)."""
        if self.read_only:
            raise IndexError_(f"the graph index in {self.folder} is read-only")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise write_error(f"cannot create {self.folder}", err, IndexError_) from err
        with graph.reading():
            change_number = graph.change_number
            types, facts = graph.declarations(), graph.facts()
            image = image_of(graph)
        stem = f"graph-{change_number}-{secrets.token_hex(4)}"
        names = (f"{stem}.json", f"{stem}.image")
        body = {
            "types": [t.model_dump(mode="json", exclude_defaults=True) for t in types],
            "facts": [f.to_json() for f in facts],
        }
        integrity.atomic_write_text(self.folder / names[0], json.dumps(body, separators=(",", ":")))
        integrity.atomic_write_bytes(self.folder / names[1], image)
        manifest = {
            "format_version": FORMAT_VERSION,
            "facts_format": graph_facts.FORMAT,
            "change_number": change_number,
            "artifacts": len(facts),
            "facts": names[0],
            "image": names[1],
            "image_code": code_fingerprint(),
            integrity.CHECKSUMS: integrity.checksums(self.folder, names),
        }
        integrity.atomic_write_text(
            self.folder / MANIFEST, json.dumps(integrity.sealed(manifest), indent=2)
        )
        self._sweep(keep=names, superseded=self._written)
        self._written = names

    def _sweep(self, keep: tuple[str, ...], superseded: tuple[str, ...]) -> None:
        """Remove the files no manifest names: those this store named before at once, others
        once they are stale."""
        now = time.time()
        for path in self._snapshots():
            if path.name in keep:
                continue
            try:
                if path.name in superseded or now - path.stat().st_mtime > STALE_AFTER_S:
                    path.unlink()
            except OSError:
                continue  # gone already, or another process's to remove

    def _snapshots(self) -> Iterator[Path]:
        try:
            yield from (p for p in self.folder.iterdir() if p.name.startswith("graph-"))
        except OSError:
            return
