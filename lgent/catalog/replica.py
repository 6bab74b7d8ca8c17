"""A replica of a shared catalog: this process's local copy of a PostgreSQL catalog.

Many L-gent processes (library, ``serve --http``, ``serve --mcp``), each with its own home, can
open one PostgreSQL catalog. Each keeps a *mirror* of it in its home (``<home>/replica.db``, a
SQLite catalog holding the same rows and the same change numbers) and answers every read from
the mirror; writes go to PostgreSQL, and the mirror then pulls them. A pull reads, in one
snapshot of the shared catalog, the change rows after the mirror's last one and the current
rows of everything they touched, and applies them in one SQLite transaction: the mirror only
ever moves from one committed state of the shared catalog to a later one, and a replica killed
halfway keeps its previous state and pulls again on the next start.

Because queries never wait for PostgreSQL, a replica keeps answering (from its last state, and
saying so) while the shared catalog is unreachable, and its query rate does not depend on the
database. ``Follower`` keeps a mirror current: woken by ``LISTEN/NOTIFY`` on every commit, and
every ``poll_seconds`` as a safety net for a lost notification or connection.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from lgent.catalog.records import (
    ArtifactFacts,
    BatchResult,
    Change,
    EntryFilter,
    Finding,
    Owner,
    Snapshot,
)
from lgent.catalog.store import CatalogStore
from lgent.errors import CatalogError, CatalogUnreachableError, LGentError
from lgent.models import CatalogEntry, TypeDecl

if TYPE_CHECKING:
    from lgent.catalog.postgres import ChangeRow, Delta, PostgresCatalog

log = logging.getLogger("lgent.replica")
T = TypeVar("T")

_ENTRY_INSERT = (
    "INSERT INTO entries (id, version, is_latest, name, entity_type, status, author, input_type, "
    "output_type, execution, data, content_hash, registered_at, owner_kind, owner_name, row_sum) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class Mirror(CatalogStore):
    """A SQLite catalog that copies another catalog's rows and change numbers (``apply``).

    Reads are ``CatalogStore``'s. A file mirror applies on a second connection, so readers keep
    reading the last applied state while a long pull is written (WAL); ``snapshot`` reads in one
    SQLite read transaction (``CatalogStore``'s) for the same reason."""

    def __init__(self, path: str | Path | None) -> None:
        super().__init__(path)
        self._apply_lock = threading.Lock()
        if self.path is None:
            self._apply_conn = self._conn
        else:
            self._apply_conn = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None
            )
            self._apply_conn.execute("PRAGMA busy_timeout = 10000")
            self._apply_conn.execute("PRAGMA synchronous = FULL")

    def close(self) -> None:
        with self._apply_lock:
            if self._apply_conn is not self._conn:
                self._apply_conn.close()
        super().close()

    def source(self) -> str | None:
        """The id of the catalog this mirror copies (None for a new mirror)."""
        rows = self._read("SELECT value FROM meta WHERE key = 'source'")
        return str(rows[0][0]) if rows else None

    def last_change(self) -> ChangeRow | None:
        """The mirror's last change row (seq, kind, op, key, version, at, writer, status,
        row_sum)."""
        rows = self._read(
            "SELECT seq, kind, op, key, version, at, writer, status, row_sum FROM changes "
            "ORDER BY seq DESC LIMIT 1"
        )
        if not rows:
            return None
        r = rows[0]
        return (int(r[0]), str(r[1]), str(r[2]), str(r[3]), r[4], str(r[5]), r[6], r[7], r[8])

    @contextmanager
    def _applying(self) -> Iterator[sqlite3.Connection]:
        lock = self._lock if self._apply_conn is self._conn else self._apply_lock
        with lock:
            conn = self._apply_conn
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as err:
                raise CatalogError(f"{self.location}: cannot start a write: {err}") from err
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            try:
                conn.execute("COMMIT")
            except sqlite3.Error as err:
                conn.execute("ROLLBACK")
                raise CatalogError(f"{self.location}: commit failed: {err}") from err

    def apply(self, delta: Delta) -> None:
        """Move to ``delta.head`` in one transaction: replace the rows of every touched entry
        and type (all of them for a full delta) and append the change rows.

        Another process of the same home may have pulled the copy forward since ``delta`` was
        read: a copy already at ``delta.head`` or past it is left as it is (applying would take
        it back), and one between ``delta.since`` and the head gets the change rows it lacks."""
        changes = delta.changes
        try:
            with self._applying() as conn:
                if delta.full:
                    for table in ("entries", "types", "changes"):
                        conn.execute(f"DELETE FROM {table}")
                else:
                    held = int(
                        conn.execute("SELECT COALESCE(MAX(seq), 0) FROM changes").fetchone()[0]
                    )
                    if held >= delta.head:
                        return
                    if held < delta.since:
                        raise CatalogError(
                            f"{self.location}: the copy went back to change {held} while changes "
                            f"{delta.since + 1} to {delta.head} were read; pull again"
                        )
                    changes = [c for c in delta.changes if c[0] > held]
                    for chunk in _chunks(delta.entry_ids, 500):
                        marks = ",".join("?" * len(chunk))
                        conn.execute(f"DELETE FROM entries WHERE id IN ({marks})", chunk)
                    for chunk in _chunks(delta.type_names, 500):
                        marks = ",".join("?" * len(chunk))
                        conn.execute(f"DELETE FROM types WHERE name IN ({marks})", chunk)
                conn.executemany(
                    _ENTRY_INSERT, ((r[0], r[1], int(r[2]), *r[3:]) for r in delta.entries)
                )
                conn.executemany(
                    "INSERT INTO types (name, data, content_hash, row_sum) VALUES (?, ?, ?, ?)",
                    delta.types,
                )
                conn.executemany(
                    "INSERT INTO changes (seq, kind, op, key, version, at, writer, status, "
                    "row_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    changes,
                )
                conn.execute(
                    "INSERT INTO meta (key, value) VALUES ('source', ?) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (delta.catalog_id,),
                )
        except sqlite3.Error as err:
            raise CatalogError(
                f"{self.location}: cannot apply the shared catalog's changes: {err}"
            ) from err


def _chunks(items: Sequence[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


@dataclass(frozen=True, slots=True)
class PullReport:
    """What a pull did: the mirror's change number before and after; ``replaced``: the mirror
    held another catalog or another history (a database restored from an older copy), so
    everything was copied again and indexes built on the old copy must be rebuilt."""

    before: int
    after: int
    replaced: bool = False

    @property
    def advanced(self) -> bool:
        return self.after != self.before or self.replaced


class ReplicaCatalog:
    """The ``Catalog`` of a replica: reads from the local mirror, writes to the shared catalog
    (then pulls them, so a process reads its own writes at once)."""

    def __init__(
        self,
        primary: PostgresCatalog,
        mirror: Mirror,
        *,
        on_replace: Callable[[], None] | None = None,
    ) -> None:
        self.primary = primary
        self.mirror = mirror
        self._on_replace = on_replace
        self._pull_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._unreachable: tuple[float, str] | None = None
        self._announced = 0

    @property
    def location(self) -> str:
        return f"{self.primary.location} (replica {self.mirror.location})"

    # -- following the shared catalog ------------------------------------------------------

    def pull(self) -> PullReport:
        """Bring the mirror to the shared catalog's current change number (CatalogError when it
        cannot be reached: the mirror is then left as it was)."""
        with self._pull_lock:
            mine = self.mirror.last_change()
            before = mine[0] if mine else 0
            try:
                head = self.primary.change_number()
                self.announce(head)
                # the copy continues the shared catalog's history only if the last change it
                # holds is still that change there (not so after a restore from an older copy)
                ours = self.mirror.source() == self.primary.catalog_id and (
                    mine is None or self.primary.change_row(before) == mine
                )
                if ours and head == before:
                    self.reachable()
                    return PullReport(before, before)
                delta = self.primary.delta(before if ours else 0)
            except CatalogUnreachableError as err:
                self.unreachable(err)
                raise
            replaced = not ours and mine is not None
            if replaced and self._on_replace is not None:
                self._on_replace()
            self.mirror.apply(delta)
            self.reachable()
            if replaced:
                log.warning(
                    "%s holds another catalog or history than this replica's copy "
                    "(change %d); copied it again at change %d",
                    self.primary.location,
                    before,
                    delta.head,
                )
            return PullReport(before, delta.head, replaced)

    def announce(self, head: int) -> None:
        """The shared catalog is known to be at least at change ``head``."""
        with self._state_lock:
            self._announced = max(self._announced, head)

    def reachable(self) -> None:
        with self._state_lock:
            self._unreachable = None

    def unreachable(self, err: Exception) -> None:
        with self._state_lock:
            since = self._unreachable[0] if self._unreachable else time.time()
            self._unreachable = (since, str(err))

    def lag_note(self) -> str | None:
        """Why an answer may not reflect the shared catalog's latest state, or None."""
        number = self.mirror.change_number()
        with self._state_lock:
            unreachable, announced = self._unreachable, self._announced
        if unreachable is not None:
            since = datetime.fromtimestamp(unreachable[0], UTC).strftime("%H:%M:%S UTC")
            return (
                f"the shared catalog has been unreachable since {since} ({unreachable[1]}); "
                f"answering from this replica's copy at change {number}"
            )
        if announced > number:
            return (
                f"catching up with the shared catalog: answering from change {number} "
                f"of {announced} ({announced - number:,} changes behind)"
            )
        return None

    def listener(self) -> Listener:
        return self.primary.listener()

    # -- writes: to the shared catalog -----------------------------------------------------

    def _write(self, write: Callable[[], T]) -> T:
        """Run a write on the shared catalog, then pull it, so that this process reads its own
        write at once (if that pull fails, the write stands and the follower pulls it later)."""
        try:
            done = write()
        except CatalogUnreachableError as err:
            self.unreachable(err)
            raise
        try:
            self.pull()
        except CatalogError as err:
            log.warning("pulling a committed write failed; the follower retries: %s", err)
        return done

    def register_batch(
        self,
        entries: Iterable[CatalogEntry],
        types: Iterable[TypeDecl] = (),
        *,
        owners: Mapping[str, Owner] | None = None,
        writer: str | None = None,
    ) -> BatchResult:
        return self._write(
            lambda: self.primary.register_batch(entries, types, owners=owners, writer=writer)
        )

    def remove(
        self, artifact_id: str, version: str | None = None, *, writer: str | None = None
    ) -> int:
        return self._write(lambda: self.primary.remove(artifact_id, version, writer=writer))

    def remove_type(self, name: str) -> None:
        self._write(lambda: self.primary.remove_type(name))

    # -- reads: from the mirror ------------------------------------------------------------

    def get(self, artifact_id: str, version: str | None = None) -> CatalogEntry:
        return self.mirror.get(artifact_id, version)

    def get_many(
        self, artifact_ids: Sequence[str], *, skip_damaged: bool = False
    ) -> dict[str, CatalogEntry]:
        return self.mirror.get_many(artifact_ids, skip_damaged=skip_damaged)

    def damage_note(self) -> str | None:
        return self.mirror.damage_note()

    def snapshot(self, artifact_ids: Sequence[str]) -> Snapshot:
        return self.mirror.snapshot(artifact_ids)

    def snapshot_now(self, artifact_ids: Sequence[str]) -> Snapshot | None:
        return self.mirror.snapshot_now(artifact_ids)

    def change_number_now(self) -> int | None:
        return self.mirror.change_number_now()

    def versions(self, artifact_id: str) -> list[str]:
        return self.mirror.versions(artifact_id)

    def parts_of(self, whole_ids: Sequence[str]) -> dict[str, list[str]]:
        return self.mirror.parts_of(whole_ids)

    def owners(self, artifact_ids: Sequence[str]) -> dict[str, Owner]:
        return self.mirror.owners(artifact_ids)

    def version_owners(self, artifact_id: str) -> dict[str, Owner]:
        return self.mirror.version_owners(artifact_id)

    def exists(self, artifact_id: str) -> bool:
        return self.mirror.exists(artifact_id)

    def list_entries(
        self, filters: EntryFilter | None = None, *, limit: int | None = None, offset: int = 0
    ) -> list[CatalogEntry]:
        return self.mirror.list_entries(filters, limit=limit, offset=offset)

    def iter_latest(
        self, batch_size: int = 2000, *, skip_damaged: bool = False
    ) -> Iterator[CatalogEntry]:
        return self.mirror.iter_latest(batch_size, skip_damaged=skip_damaged)

    def facts(self) -> list[ArtifactFacts]:
        return self.mirror.facts()

    def count(self, filters: EntryFilter | None = None) -> int:
        return self.mirror.count(filters)

    def types(self) -> list[TypeDecl]:
        return self.mirror.types()

    def change_number(self) -> int:
        return self.mirror.change_number()

    def changes_since(self, seq: int) -> list[Change]:
        return self.mirror.changes_since(seq)

    def history(self, artifact_id: str) -> list[Change]:
        return self.mirror.history(artifact_id)

    def stats(self) -> dict[str, Any]:
        return self.mirror.stats()

    def check(self) -> list[Finding]:
        """The shared catalog's own check, then the mirror's problems, if any."""
        findings = self.primary.check()
        findings += [f for f in self.mirror.check() if f.level != "ok"]
        return findings

    def close(self) -> None:
        try:
            self.primary.close()
        finally:
            self.mirror.close()


class Listener(Protocol):
    """Wakes a follower when the shared catalog announces a change."""

    def connect(self) -> None: ...

    def wait(self, timeout: float) -> int:
        """The highest change number announced (0: none before ``timeout`` or ``wake``)."""
        ...

    def wake(self) -> None: ...

    def close(self) -> None: ...


class Follower:
    """A thread that keeps a replica current and calls ``on_pull(report)`` after each pull
    that moved the mirror (from this thread; the facade brings its brains current there).

    It listens first and pulls second, so a commit is never missed between the two; it pulls
    again when a change is announced, and every ``poll_seconds`` in any case. While the shared
    catalog is unreachable it retries every ``retry_seconds``; the replica says so meanwhile."""

    def __init__(
        self,
        replica: ReplicaCatalog,
        on_pull: Callable[[PullReport], None],
        *,
        poll_seconds: float = 5.0,
        retry_seconds: float = 1.0,
    ) -> None:
        self.replica = replica
        self.on_pull = on_pull
        self.poll_seconds = poll_seconds
        self.retry_seconds = retry_seconds
        self.pulls = 0
        self._told: int | None = None
        """The copy's change number ``on_pull`` last brought the indexes to (None: not yet)."""
        self._stop = threading.Event()
        self._listener: Listener | None = None
        self._thread = threading.Thread(target=self._run, name="lgent-follower", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.wake()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        listener = self._listener = self.replica.listener()
        try:
            while not self._stop.is_set():
                try:
                    listener.connect()
                    self.pull_once()
                    while not self._stop.is_set():
                        announced = listener.wait(self.poll_seconds)
                        if announced:
                            self.replica.announce(announced)
                        self.pull_once()
                except CatalogUnreachableError as err:
                    self.replica.unreachable(err)
                    self._stop.wait(self.retry_seconds)
                except CatalogError as err:  # not the connection: say what, and try again
                    log.warning("following %s failed: %s", self.replica.location, err)
                    self._stop.wait(self.retry_seconds)
        finally:
            listener.close()

    def pull_once(self) -> None:
        """Pull once and bring the indexes along (what the thread does on each wake-up)."""
        report = self.replica.pull()
        self.pulls += 1
        if self._told is None and not report.advanced:  # the first look: where things stand
            self._told = report.after
            return
        # Another process of this home may have moved the copy (its own pull, or its write):
        # this one's indexes are then behind a copy its pull finds current. Tell them too.
        if report.advanced or report.after != self._told:
            try:
                self.on_pull(report)
                self._told = report.after
            except LGentError as err:
                log.warning("bringing the indexes to change %d failed: %s", report.after, err)


def follow(
    catalog: object, on_pull: Callable[[PullReport], None], poll_seconds: float
) -> Follower | None:
    """A started ``Follower`` of ``catalog`` when it is a replica of a shared catalog, else None."""
    if not isinstance(catalog, ReplicaCatalog):
        return None
    follower = Follower(catalog, on_pull, poll_seconds=poll_seconds)
    follower.start()
    return follower


def lag_note(catalog: object) -> str | None:
    """Why answers may not reflect the shared catalog's latest state (a replica catching up or
    unable to reach its database), else None (and always None for a catalog of its own)."""
    return catalog.lag_note() if isinstance(catalog, ReplicaCatalog) else None
