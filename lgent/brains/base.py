"""The small protocol every brain implements, and the status it reports.

A brain is a derived index over the catalog: it is built from entries, kept current by applying
the catalog's changes, stamped with the change number it reflects, and searched for ranked
``BrainHit``s. Brains never import each other or the catalog store.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from lgent.models import CatalogEntry, TypeDecl


@dataclass(frozen=True, slots=True)
class ChangeSet:
    """What changed in the catalog since a brain's change number, resolved to latest entries."""

    upserts: Sequence[CatalogEntry]
    removals: Sequence[str]
    types: Sequence[TypeDecl] | None  # the full type list when any type changed, else None
    change_number: int


@dataclass(frozen=True, slots=True)
class BrainStatus:
    """What a brain can say about itself: whether it is usable, and what it reflects."""

    name: str
    ready: bool
    documents: int
    change_number: int
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Brain(Protocol):
    """A derived index: build, apply changes, report status. Searching is brain-specific."""

    name: str

    @property
    def change_number(self) -> int:
        """The catalog change number this brain reflects (-1 when it has never been built)."""
        ...

    def build(
        self, entries: Iterable[CatalogEntry], types: Sequence[TypeDecl], change_number: int
    ) -> None:
        """Replace the whole index with ``entries`` and stamp it with ``change_number``."""
        ...

    def apply_changes(self, changes: ChangeSet) -> None:
        """Index new/changed entries, drop removed ids, and stamp the change number."""
        ...

    def status(self) -> BrainStatus: ...

    def close(self) -> None: ...
