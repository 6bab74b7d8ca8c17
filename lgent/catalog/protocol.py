"""The catalog protocol: what everything above the store relies on, and its guarantees.

A backend (``sqlite.CatalogStore`` is the first; the catalog test suite in ``tests/catalog``
runs against every backend unchanged) must keep these promises:

1. **Atomic batches.** ``register_batch`` commits all of its entries and types or none of them,
   also when the process dies halfway; a committed batch survives a crash.
2. **Change numbers in commit order.** Every real change (an entry or type upserted or removed)
   appends one row to the change log; ``change_number()`` is the seq of the last one. A batch
   that changes nothing (identical content) records nothing. Seqs grow in commit order: a
   reader that has seen change ``n`` has seen every change below ``n``.
3. **No skipped change.** ``changes_since(n)`` returns every committed change after ``n``,
   oldest first, never one out of order and never with a hole that a later call could fill.
4. **Consistent reads.** ``snapshot(ids)`` reads the change number and the latest versions of
   ``ids`` together: every entry in it is in the catalog at that number.
5. **History.** A new version of an id is kept beside the older ones; ``get`` without a
   version returns the latest (highest) version.
6. **Errors.** Failures are ``LGentError``s: ``NotFoundError`` for an unknown id,
   ``CatalogCorruptError`` for unreadable storage, ``CatalogError`` for the rest.
7. **Checked rows.** Every stored row carries a checksum of its values, verified by every read
   that answers from it and by ``check``: a damaged row is a ``CatalogCorruptError`` naming it,
   never an answer. Index builds read with ``skip_damaged`` (the row is left out, and
   ``damage_note`` says so), so one damaged row never stops a brain.
8. **Owners.** Each entry version records the source that wrote it (``records.Owner``), given
   per id to ``register_batch`` (default: a writer); a batch whose claim the ownership rule
   refuses (``lgent.catalog.ownership``) is an ``OwnershipError`` and writes nothing.
9. **Writers.** Each change row names the token that wrote it (``writer``, given to
   ``register_batch`` and ``remove``; None: the home's own user) and, for an entry upserted,
   its status; ``history(id)`` gives an artifact's rows, so a draft's promotion is on record.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from lgent.catalog.records import (
    ArtifactFacts,
    BatchResult,
    Change,
    EntryFilter,
    Finding,
    Owner,
    Snapshot,
)
from lgent.models import CatalogEntry, TypeDecl


@runtime_checkable
class Catalog(Protocol):
    """The source of truth: entries with every version, type declarations, the change log."""

    @property
    def location(self) -> str:
        """Where the catalog lives, for messages (a path, ``:memory:``, a database URL)."""
        ...

    # -- writes --------------------------------------------------------------------------

    def register_batch(
        self,
        entries: Iterable[CatalogEntry],
        types: Iterable[TypeDecl] = (),
        *,
        owners: Mapping[str, Owner] | None = None,
        writer: str | None = None,
    ) -> BatchResult:
        """Upsert entries and type declarations atomically (promise 1), each entry credited
        to ``owners[id]`` (default: a writer; promise 8), each change naming ``writer``
        (promise 9)."""
        ...

    def remove(
        self, artifact_id: str, version: str | None = None, *, writer: str | None = None
    ) -> int:
        """Remove an artifact (every version, or one); the rows removed. NotFoundError if none.
        The change row names ``writer`` (promise 9)."""
        ...

    def remove_type(self, name: str) -> None: ...

    # -- reads ---------------------------------------------------------------------------

    def get(self, artifact_id: str, version: str | None = None) -> CatalogEntry: ...

    def get_many(
        self, artifact_ids: Sequence[str], *, skip_damaged: bool = False
    ) -> dict[str, CatalogEntry]:
        """Latest versions of the ids that exist (missing ids are simply absent); a damaged row
        raises ``CatalogCorruptError``, or with ``skip_damaged`` is left out (promise 7)."""
        ...

    def snapshot(self, artifact_ids: Sequence[str]) -> Snapshot:
        """The change number and those ids' latest entries, read together (promise 4)."""
        ...

    def versions(self, artifact_id: str) -> list[str]:
        """Every stored version of an artifact, oldest first."""
        ...

    def parts_of(self, whole_ids: Sequence[str]) -> dict[str, list[str]]:
        """For each whole id, the ids whose latest version declares ``part_of`` it (any status),
        sorted; a whole with no parts maps to an empty list (what a re-import may retire)."""
        ...

    def exists(self, artifact_id: str) -> bool: ...

    def owners(self, artifact_ids: Sequence[str]) -> dict[str, Owner]:
        """The source that wrote the latest version of each id that exists (promise 8)."""
        ...

    def version_owners(self, artifact_id: str) -> dict[str, Owner]:
        """Each stored version of an artifact, oldest first -> the source that wrote it."""
        ...

    def list_entries(
        self, filters: EntryFilter | None = None, *, limit: int | None = None, offset: int = 0
    ) -> list[CatalogEntry]:
        """Latest versions matching ``filters``, ordered by id."""
        ...

    def iter_latest(
        self, batch_size: int = 2000, *, skip_damaged: bool = False
    ) -> Iterator[CatalogEntry]:
        """Every artifact at its latest version, by id, read in pages (``skip_damaged``: as for
        ``get_many``; what index builds read, so one damaged row never stops a brain)."""
        ...

    def damage_note(self) -> str | None:
        """The rows this process found damaged, said in one sentence (None: none); answers
        carry it until the rows are written whole again (promise 7)."""
        ...

    def count(self, filters: EntryFilter | None = None) -> int: ...

    def facts(self) -> list[ArtifactFacts]:
        """Every artifact's ``ArtifactFacts`` (latest versions), by id; a damaged row is left
        out (promise 7). What facets count and scopes decide on (``lgent.facets``)."""
        ...

    def types(self) -> list[TypeDecl]:
        """Every type declaration, by name."""
        ...

    def change_number(self) -> int:
        """The seq of the last change (0 for a new catalog; promise 2)."""
        ...

    def changes_since(self, seq: int) -> list[Change]:
        """Changes after ``seq``, oldest first (promise 3)."""
        ...

    def history(self, artifact_id: str) -> list[Change]:
        """The change rows about one artifact, oldest first (promise 9)."""
        ...

    def stats(self) -> dict[str, Any]:
        """Counts: artifacts, versions, types, relations, by entity type and by status."""
        ...

    def check(self) -> list[Finding]:
        """Verify the stored data without changing it (for ``lgent doctor``)."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class ReadsWithoutWaiting(Protocol):
    """What a backend offers when some reads may be made in place on an event loop: each
    gives its answer if it can be read without waiting (on a lock, a writer or the network),
    else None. The SQLite store and a replica offer it; PostgreSQL, whose every read is a
    round trip, does not."""

    def snapshot_now(self, artifact_ids: Sequence[str]) -> Snapshot | None:
        """``Catalog.snapshot`` if it can be read without waiting, else None."""
        ...

    def change_number_now(self) -> int | None:
        """``Catalog.change_number`` if it can be read without waiting, else None."""
        ...
