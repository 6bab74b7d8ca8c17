"""The entries a write just stored, handed to the reads that follow it without decoding them.

After a load commits, every quick brain (keyword, graph) rebuilds or catches up by reading the
entries back from the catalog: each read would parse the stored JSON and validate the entry
again, the same work for every brain, on entries the write held a moment before.
:class:`FreshEntries` keeps what a write stored, each entry by what identifies its row's
content: its id, version, content hash (SHA-256 of the record) and row checksum. A read whose
verified row holds the same takes the entry kept (an entry round-trips through its stored JSON:
``StrictModel.to_record``), so the answer is the one decoding gives; the stored text itself is
not kept (it would double the memory held).

Each entry is handed out ``reads`` times at most (once per quick brain), then forgotten; the
next write replaces them all, so a serving process never keeps a large load's entries for long.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lgent.models import CatalogEntry

QUICK_READS = 2
"""How many reads take a written entry before it is forgotten: one per quick brain's build."""


class FreshEntries:
    """Entries of the last write by their rows' keys, each handed out ``reads`` times."""

    def __init__(self, reads: int = QUICK_READS) -> None:
        self._reads = reads
        self._kept: dict[Hashable, tuple[CatalogEntry, int]] = {}
        self._lock = threading.Lock()

    def keep(self, written: Iterable[tuple[Hashable, CatalogEntry]]) -> None:
        """Remember what one write stored (``(row key, entry)``), forgetting the last."""
        kept = {key: (entry, self._reads) for key, entry in written}
        with self._lock:
            self._kept = kept

    def forget(self) -> None:
        """Forget every entry kept (a write that failed, a store that closes)."""
        with self._lock:
            self._kept = {}

    def take(self, key: Hashable) -> CatalogEntry | None:
        """The entry the last write stored in the row of ``key``, or None (decode it)."""
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                return None
            entry, left = found
            if left <= 1:
                del self._kept[key]
            else:
                self._kept[key] = (entry, left - 1)
            return entry

    def __len__(self) -> int:
        return len(self._kept)


__all__ = ["QUICK_READS", "FreshEntries"]
