"""The catalog store: SQLite in WAL mode, the single source of truth.

Every write runs in one ``BEGIN IMMEDIATE`` transaction under the store's lock, so a batch is
all-or-nothing, also across a crash. Each real change appends a row to the ``changes`` table;
its ``seq`` is the catalog *change number* that derived indexes are stamped with and catch up
from (``changes_since``). Re-registering identical content records no change.

Every row carries a checksum of its other columns (``row_sum``, ``records.row_sum``), verified
on every read that answers from it and by ``check``: a row damaged or edited in place is a
``CatalogCorruptError`` naming it, never an answer. Each entry version also records the source
that wrote it (``owner_kind``, ``owner_name``: ``records.Owner``). Schema version 1 (before
both) is upgraded when a catalog is first opened for writing; opened read-only it is read as
it is, unverified.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lgent.catalog import ownership
from lgent.catalog.fresh import FreshEntries
from lgent.catalog.json_text import stored_json
from lgent.catalog.records import (
    ENTRY_SUMMED,
    TYPE_CHECKED,
    WRITER,
    BatchResult,
    ChangeKind,
    ChangeOp,
    Finding,
    Owner,
    Snapshot,
    change_sum,
    content_hash,
    entry_row_key,
    entry_values,
    intact_type_hash,
    row_sum,
)
from lgent.catalog.sql_reads import SQLITE, SqlReads, damaged_finding
from lgent.errors import (
    CatalogCorruptError,
    CatalogError,
    DiskFullError,
    LGentError,
    NotFoundError,
    ReadOnlyHomeError,
    disk_full,
    write_error,
)
from lgent.models import CatalogEntry, TypeDecl, now_utc
from lgent.versions import Version

SCHEMA_VERSION = 3
LEGACY_SCHEMA = 1
"""The schema before row checksums and owners: upgraded on a writable open, read as it is
(unverified) read-only."""
UNNAMED_SCHEMA = 2
"""The schema before the change log named its writer and status: upgraded on a writable open,
read read-only with neither."""
WRITE_WAIT_SECONDS = 600.0
"""How long a write waits behind another process's before it gives up."""
BUSY_SLICE = 1.0
"""SQLite's own busy wait per attempt; the write's wait is reported between attempts."""
_BUSY = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    id TEXT NOT NULL,
    version TEXT NOT NULL,
    is_latest INTEGER NOT NULL DEFAULT 0,
    name TEXT NOT NULL,
    entity_type TEXT NOT NULL,
    status TEXT NOT NULL,
    author TEXT,
    input_type TEXT,
    output_type TEXT,
    execution TEXT,
    data TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    registered_at TEXT NOT NULL,
    owner_kind TEXT,
    owner_name TEXT,
    row_sum TEXT,
    PRIMARY KEY (id, version)
);
CREATE INDEX IF NOT EXISTS entries_latest ON entries (is_latest, id);
CREATE INDEX IF NOT EXISTS entries_type ON entries (entity_type, is_latest);
CREATE INDEX IF NOT EXISTS entries_status ON entries (status, is_latest);
CREATE INDEX IF NOT EXISTS entries_author ON entries (author, is_latest);
CREATE INDEX IF NOT EXISTS entries_input ON entries (input_type, is_latest);
CREATE INDEX IF NOT EXISTS entries_output ON entries (output_type, is_latest);
CREATE TABLE IF NOT EXISTS types (
    name TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    row_sum TEXT
);
CREATE TABLE IF NOT EXISTS changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('entry', 'type')),
    op TEXT NOT NULL CHECK (op IN ('upsert', 'remove')),
    key TEXT NOT NULL,
    version TEXT,
    at TEXT NOT NULL,
    row_sum TEXT,
    writer TEXT,
    status TEXT
);
"""

_UPGRADE_COLUMNS = (
    ("entries", "owner_kind"),
    ("entries", "owner_name"),
    ("entries", "row_sum"),
    ("types", "row_sum"),
    ("changes", "row_sum"),
)
"""The columns schema version 2 added to version 1 (``CatalogStore._upgrade``)."""
_NAMING_COLUMNS = (("changes", "writer"), ("changes", "status"))
"""The columns schema version 3 added to version 2: who wrote each change, and the status."""


class CatalogStore(SqlReads):
    """SQLite-backed catalog (the ``Catalog`` protocol's embedded backend).

    ``CatalogStore(path)`` on disk, ``CatalogStore(None)`` in memory; ``read_only=True`` opens
    an existing file without creating or changing anything (``check`` and reads only).
    Thread-safe: one connection, one lock; reads and writes are serialized, so a reader never
    sees half of a batch. Use ``close()`` (or ``with``) when done.
    """

    DIALECT = SQLITE
    _fresh: FreshEntries

    def __init__(
        self,
        path: str | Path | None,
        *,
        read_only: bool = False,
        on_wait: Callable[[float], None] | None = None,
        write_wait: float = WRITE_WAIT_SECONDS,
    ) -> None:
        """``on_wait(seconds)`` hears, about once a second, that a write is queued behind
        another process's; it gives up (``CatalogError``) after ``write_wait`` seconds."""
        self.path = None if path is None else Path(path)
        self.read_only = read_only
        self.on_wait = on_wait
        self.write_wait = write_wait
        self._lock = threading.RLock()
        self._fresh = FreshEntries()
        self.legacy = False
        target = ":memory:" if self.path is None else str(self.path)
        if read_only and (self.path is None or not self.path.is_file()):
            raise CatalogError(f"no catalog at {target}")
        try:
            if read_only:
                assert self.path is not None
                _refuse_empty(self.path)
                self._conn = _connect_read_only(self.path)
                found_read_only = self._check_schema(self._conn)
                self.legacy = found_read_only == LEGACY_SCHEMA
                self.unnamed = found_read_only == UNNAMED_SCHEMA
                return
            if self.path is not None:
                self._create_if_missing(self.path)
            self._conn = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
            self._conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SLICE * 1000)}")
            found = None
            if self.path is not None:
                found = self._check_schema(self._conn)  # before anything is written to the file
                mode = self._conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if mode.lower() != "wal":
                    raise CatalogError(f"{self.path}: could not enable WAL mode (got {mode})")
            self._conn.execute("PRAGMA synchronous = FULL")
            self._conn.execute("PRAGMA foreign_keys = ON")
            if self.path is None:
                self._init_schema()
            elif found in (LEGACY_SCHEMA, UNNAMED_SCHEMA):
                self._upgrade()
        except sqlite3.DatabaseError as err:
            self._close_quietly()
            if self.path is not None and disk_full(self.path, err):
                raise DiskFullError(
                    f"cannot open the catalog {target}: the disk is full ({err}); free some "
                    "space (the catalog itself is intact)"
                ) from err
            raise CatalogCorruptError(f"{target}: not a readable L-gent catalog ({err})") from err
        except CatalogError:
            self._close_quietly()
            raise

    @staticmethod
    def _create_if_missing(path: Path) -> None:
        """Make a new catalog file whole, or not at all: the schema is written to a temporary
        file that is then linked into place (so a crash never leaves an empty catalog.db, and an
        existing file is never overwritten). An existing file is left for ``_check_schema``."""
        if path.exists():
            _refuse_empty(path)
            return
        tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
        try:
            conn = sqlite3.connect(tmp, isolation_level=None)
            try:
                conn.execute("BEGIN IMMEDIATE")
                for statement in _SCHEMA.strip().split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema_version', ?)",
                    (str(SCHEMA_VERSION),),
                )
                conn.execute("COMMIT")
            finally:
                conn.close()
            with contextlib.suppress(FileExistsError):  # another process made it first
                os.link(tmp, path)
        except sqlite3.Error as err:
            raise _db_error(f"cannot create the catalog {path}", err) from err
        except OSError as err:
            raise write_error(f"cannot create the catalog {path}", err, CatalogError) from err
        finally:
            tmp.unlink(missing_ok=True)

    @property
    def location(self) -> str:
        return ":memory:" if self.path is None else str(self.path)

    # -- lifecycle -------------------------------------------------------------------------

    def _init_schema(self) -> None:
        with self._write() as conn:
            for statement in _SCHEMA.strip().split(";"):
                if statement.strip():
                    conn.execute(statement)
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema_version', ?)",
                    (str(SCHEMA_VERSION),),
                )
        self._check_schema(self._conn)

    def _check_schema(self, conn: sqlite3.Connection) -> int:
        """The schema version of the file (this one or ``LEGACY_SCHEMA``); CatalogCorruptError
        unless it is an L-gent catalog of a version this L-gent reads."""
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = {"meta", "entries", "types", "changes"} - tables
        if missing:
            found = ", ".join(sorted(tables)) or "none"
            raise CatalogCorruptError(
                f"{self.location} is not an L-gent catalog (no {', '.join(sorted(missing))} "
                f"table; tables found: {found}): restore catalog.db from a backup, or move it "
                "away and load the catalog files again"
            )
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        readable = (str(SCHEMA_VERSION), str(UNNAMED_SCHEMA), str(LEGACY_SCHEMA))
        if row is None or row[0] not in readable:
            found = "missing" if row is None else row[0]
            raise CatalogCorruptError(
                f"{self.location}: catalog schema version {found} is not supported "
                f"(this L-gent reads version {SCHEMA_VERSION})"
            )
        return int(row[0])

    def _upgrade(self) -> None:
        """Schema version 1 or 2 -> 3 in one transaction: from 1, add the owner and checksum
        columns and sum every row as it stands (its owner is unknown); from either, add the
        change log's writer and status columns (unknown for the changes before; a change row's
        sum covers them only when set, so the rows keep their sums). Another process may have
        upgraded the file meanwhile: then nothing is done."""
        with self._write() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row is not None and row[0] == str(SCHEMA_VERSION):
                return
            try:
                if row is not None and row[0] == str(LEGACY_SCHEMA):
                    for table, column in _UPGRADE_COLUMNS:
                        conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
                    _sum_all(conn)
                for table, column in _NAMING_COLUMNS:
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
                conn.execute(
                    "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),)
                )
            except sqlite3.Error as err:
                raise _db_error(f"cannot upgrade the catalog {self.location}", err) from err

    def _close_quietly(self) -> None:
        conn = getattr(self, "_conn", None)
        if conn is not None:
            conn.close()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> CatalogStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing --------------------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise ReadOnlyHomeError(f"{self.location} is open read-only: it cannot be changed")
        with self._lock:
            self._begin()
            try:
                yield self._conn
            except BaseException:
                self._rollback()
                raise
            else:
                try:
                    self._conn.execute("COMMIT")
                except sqlite3.Error as err:
                    self._rollback()
                    raise _db_error("commit failed; nothing of this write was kept", err) from err

    def _begin(self) -> None:
        """``BEGIN IMMEDIATE``, queued behind another process's write for up to ``write_wait``
        seconds (``on_wait`` hears how long so far), instead of failing at SQLite's timeout."""
        started = time.monotonic()
        while True:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as err:
                waited = time.monotonic() - started
                if getattr(err, "sqlite_errorcode", None) not in _BUSY or waited >= self.write_wait:
                    raise _db_error(
                        f"cannot start a write transaction (waited {waited:.0f} s)", err
                    ) from err
                if self.on_wait is not None:
                    self.on_wait(waited)
            except sqlite3.Error as err:
                raise _db_error("cannot start a write transaction", err) from err

    def _rollback(self) -> None:
        """Roll back if a transaction is still open (SQLite ends one itself on a full disk)."""
        if self._conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # the original error is the one to report
                self._conn.execute("ROLLBACK")

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as err:
                raise CatalogError(f"catalog read failed: {err}") from err

    @staticmethod
    def _log(
        conn: sqlite3.Connection,
        kind: ChangeKind,
        op: ChangeOp,
        key: str,
        version: str | None,
        writer: str | None = None,
        status: str | None = None,
    ) -> None:
        at = now_utc().isoformat()
        cursor = conn.execute(
            "INSERT INTO changes (kind, op, key, version, at, writer, status) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (kind, op, key, version, at, writer, status),
        )
        seq = cursor.lastrowid
        conn.execute(
            "UPDATE changes SET row_sum = ? WHERE seq = ?",
            (change_sum((seq, kind, op, key, version, at, writer, status)), seq),
        )

    @staticmethod
    def _refresh_latest(conn: sqlite3.Connection, artifact_id: str) -> None:
        versions = [
            r[0] for r in conn.execute("SELECT version FROM entries WHERE id = ?", (artifact_id,))
        ]
        if not versions:
            return
        newest = max(versions, key=Version)
        conn.execute(  # only the rows whose flag changes: a row rewrite copies its data
            "UPDATE entries SET is_latest = (version = ?) WHERE id = ? AND is_latest != (version = ?)",
            (newest, artifact_id, newest),
        )

    # -- writes ----------------------------------------------------------------------------

    def register(self, entry: CatalogEntry) -> BatchResult:
        """Upsert one entry (by id and version)."""
        return self.register_batch([entry])

    def register_batch(
        self,
        entries: Iterable[CatalogEntry],
        types: Iterable[TypeDecl] = (),
        *,
        owners: Mapping[str, Owner] | None = None,
        writer: str | None = None,
    ) -> BatchResult:
        """Upsert entries and type declarations in one atomic transaction.

        A new version of an existing id is added beside the older ones (history); the same
        id and version with new content replaces that version; identical content is a no-op.
        ``owners``: the source writing each entry id (default ``WRITER``); a claim the
        ownership rule refuses (``lgent.catalog.ownership``) is an ``OwnershipError`` and
        nothing of the batch is written. ``writer``: the token that writes, named in each
        change row (None: the home's own user).
        """
        result = BatchResult()
        entries = list(entries)
        written: list[tuple[tuple[Any, ...], CatalogEntry]] = []
        self._fresh.forget()
        with self._write() as conn:
            try:
                self._check_owners(conn, entries, owners or {})
                for decl in types:
                    self._upsert_type(conn, decl, result, writer)
                touched: set[str] = set()
                for entry in entries:
                    owner = (owners or {}).get(entry.id, WRITER)
                    key = self._upsert_entry(conn, entry, owner, result, writer)
                    if key is not None:
                        written.append((key, entry))
                    touched.add(entry.id)
                for artifact_id in touched:
                    self._refresh_latest(conn, artifact_id)
            except sqlite3.Error as err:
                raise _db_error(
                    "catalog write failed; nothing of this batch was kept", err
                ) from err
            result.change_number = self._change_number(conn)
        self._fresh.keep(written)  # committed: the index builds that follow read them back
        return result

    def _check_owners(
        self, conn: sqlite3.Connection, entries: Sequence[CatalogEntry], owners: Mapping[str, Owner]
    ) -> None:
        """``OwnershipError`` for the first entry whose writer may not change its artifact
        (checked inside the write transaction, so no other writer can slip in between)."""
        ids = sorted({e.id for e in entries})
        held: dict[str, Owner] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for artifact_id, kind, name in conn.execute(
                f"SELECT id, owner_kind, owner_name FROM entries WHERE is_latest = 1 "
                f"AND id IN ({marks})",
                chunk,
            ):
                held[artifact_id] = Owner.of_columns(kind, name)
        claims = ((i, owners.get(i, WRITER)) for i in ids)
        refused = ownership.refusals(held, claims)
        if refused:
            raise refused[0]

    def _upsert_entry(
        self,
        conn: sqlite3.Connection,
        entry: CatalogEntry,
        owner: Owner,
        result: BatchResult,
        writer: str | None,
    ) -> tuple[Any, ...] | None:
        """Write ``entry`` unless its row already holds the same content; the key of the row
        written (``entry_row_key``), or None when nothing was written."""
        record = entry.to_record()
        digest = content_hash(record)
        row = conn.execute(
            f"SELECT {ENTRY_SUMMED}, row_sum FROM entries WHERE id = ? AND version = ?",
            (entry.id, entry.version),
        ).fetchone()
        # the same content is kept, credited to its first writer, unless its row is damaged
        if row is not None and row[10] == digest and row_sum(row[:-1]) == row[-1]:
            result.unchanged.append(entry.id)
            return None
        exists = (
            row is not None
            or conn.execute("SELECT 1 FROM entries WHERE id = ? LIMIT 1", (entry.id,)).fetchone()
            is not None
        )
        values = entry_values(entry, owner, stored_json(record), digest)
        summed = row_sum(values)
        conn.execute(
            f"""INSERT INTO entries ({ENTRY_SUMMED}, row_sum, is_latest, registered_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (id, version) DO UPDATE SET
                   name = excluded.name, entity_type = excluded.entity_type,
                   status = excluded.status, author = excluded.author,
                   input_type = excluded.input_type, output_type = excluded.output_type,
                   execution = excluded.execution, data = excluded.data,
                   content_hash = excluded.content_hash, registered_at = excluded.registered_at,
                   owner_kind = excluded.owner_kind, owner_name = excluded.owner_name,
                   row_sum = excluded.row_sum""",
            (
                *values,
                summed,
                int(not exists),  # a new id's only version is its latest
                now_utc().isoformat(),
            ),
        )
        (result.updated if exists else result.added).append(entry.id)
        self._log(conn, "entry", "upsert", entry.id, entry.version, writer, entry.status.value)
        self._repaired(entry.id, entry.version)
        return entry_row_key((*values, summed))

    def _upsert_type(
        self, conn: sqlite3.Connection, decl: TypeDecl, result: BatchResult, writer: str | None
    ) -> None:
        record = decl.to_record()
        digest = content_hash(record)
        row = conn.execute(
            f"SELECT {TYPE_CHECKED} FROM types WHERE name = ?", (decl.type,)
        ).fetchone()
        if row is not None and intact_type_hash(row) == digest:
            result.types_unchanged.append(decl.type)
            return
        values = (decl.type, stored_json(record), digest)
        conn.execute(
            "INSERT INTO types (name, data, content_hash, row_sum) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET data = excluded.data, "
            "content_hash = excluded.content_hash, row_sum = excluded.row_sum",
            (*values, row_sum(values)),
        )
        (result.types_updated if row is not None else result.types_added).append(decl.type)
        self._log(conn, "type", "upsert", decl.type, None, writer)

    def remove(
        self, artifact_id: str, version: str | None = None, *, writer: str | None = None
    ) -> int:
        """Remove an artifact (every version, or just ``version``). Returns the rows removed;
        ``writer`` is named in the change row."""
        with self._write() as conn:
            if version is None:
                cursor = conn.execute("DELETE FROM entries WHERE id = ?", (artifact_id,))
            else:
                cursor = conn.execute(
                    "DELETE FROM entries WHERE id = ? AND version = ?", (artifact_id, version)
                )
            if cursor.rowcount == 0:
                raise NotFoundError(artifact_id, version)
            self._refresh_latest(conn, artifact_id)
            self._log(conn, "entry", "remove", artifact_id, version, writer)
            return cursor.rowcount

    def remove_type(self, name: str) -> None:
        """Remove a type declaration."""
        with self._write() as conn:
            if conn.execute("DELETE FROM types WHERE name = ?", (name,)).rowcount == 0:
                raise NotFoundError(name)
            self._log(conn, "type", "remove", name, None)

    # -- reads -----------------------------------------------------------------------------

    def snapshot(self, artifact_ids: Sequence[str]) -> Snapshot:
        """The change number and the latest versions of ``artifact_ids``, read together: no write
        can fall between them, so every entry returned is in the catalog at that number."""
        with self._lock, self._read_transaction():
            return Snapshot(self.change_number(), self._latest_rows(artifact_ids))

    def snapshot_now(self, artifact_ids: Sequence[str]) -> Snapshot | None:
        """``snapshot`` when this process's writer is not holding the catalog (no wait); None
        when it is. The read itself never waits on another process in WAL mode."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            return self.snapshot(artifact_ids)
        finally:
            self._lock.release()

    def change_number_now(self) -> int | None:
        """``change_number`` when this process's writer is not holding the catalog; else None."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            return self._change_number(self._conn)
        finally:
            self._lock.release()

    @contextmanager
    def _read_transaction(self) -> Iterator[None]:
        """One read transaction around the reads inside (the caller holds the lock): in WAL mode
        they all see the catalog as it was at the first, even when another process commits
        meanwhile (the lock only keeps this process's writer out)."""
        try:
            self._conn.execute("BEGIN")
        except sqlite3.Error as err:
            raise CatalogError(f"catalog read failed: {err}") from err
        try:
            yield
        finally:
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as err:
                raise CatalogError(f"catalog read failed to end: {err}") from err

    def parts_of(self, whole_ids: Sequence[str]) -> dict[str, list[str]]:
        """For each of ``whole_ids``, the ids of the artifacts whose latest version declares
        ``part_of`` it (any status), sorted; a whole with no parts maps to an empty list."""
        wanted = set(whole_ids)
        found: dict[str, list[str]] = {w: [] for w in wanted}
        if not wanted:
            return found
        rows = self._read(
            "SELECT e.id, json_extract(r.value, '$.target') FROM entries AS e, "
            "json_each(e.data, '$.relations') AS r WHERE e.is_latest = 1 "
            "AND json_extract(r.value, '$.type') = 'part_of'"
        )
        for part, whole in rows:
            if whole in wanted:
                found[whole].append(part)
        return {w: sorted(ids) for w, ids in found.items()}

    def change_number(self) -> int:
        """The catalog's change number: the seq of the last change (0 for a new catalog)."""
        with self._lock:
            return self._change_number(self._conn)

    @staticmethod
    def _change_number(conn: sqlite3.Connection) -> int:
        row = conn.execute("SELECT MAX(seq) FROM changes").fetchone()
        return int(row[0] or 0)

    def check(self) -> list[Finding]:
        """SQLite's integrity check and exactly one latest version per artifact."""
        fix = "restore catalog.db from a backup, or re-load the catalog files into a new home"
        try:
            integrity = self._read("PRAGMA integrity_check")[0][0]
            if integrity != "ok":
                return [Finding("catalog integrity", "fail", f"SQLite: {integrity}", fix)]
            broken = [
                r[0]
                for r in self._read(
                    "SELECT id FROM entries GROUP BY id HAVING SUM(is_latest) != 1 LIMIT 5"
                )
            ]
        except CatalogError as err:
            return [Finding("catalog file", "fail", f"{self.location}: {err}", fix)]
        findings = [Finding("catalog integrity", "ok", "SQLite integrity check passed")]
        if not self.legacy:
            try:
                damaged = self.damaged_rows()
            except CatalogError as err:
                return [Finding("catalog file", "fail", f"{self.location}: {err}", fix)]
            if damaged:
                findings.append(damaged_finding(damaged))
        if broken:
            findings.append(
                Finding(
                    "catalog versions",
                    "fail",
                    f"artifacts without exactly one latest version: {', '.join(broken)}",
                    "re-register those artifacts (lgent load their files again)",
                )
            )
        return findings

    def stats(self) -> dict[str, Any]:
        """Counts for ``lgent stats``: artifacts, versions, types, relations, by type and status."""
        by_type = self._counts("entity_type")
        by_status = self._counts("status")
        relations = self._read(
            "SELECT COALESCE(SUM(json_array_length(data, '$.relations')), 0) FROM entries WHERE is_latest = 1"
        )[0][0]
        return {
            "artifacts": sum(by_type.values()),
            "versions": self._read("SELECT COUNT(*) FROM entries")[0][0],
            "types": self._read("SELECT COUNT(*) FROM types")[0][0],
            "relations": int(relations),
            "by_entity_type": by_type,
            "by_status": by_status,
            "change_number": self.change_number(),
        }


def _sum_all(conn: sqlite3.Connection) -> None:
    """Set every row's ``row_sum`` from its values (the upgrade to schema version 2)."""
    entries = conn.execute(f"SELECT rowid, {ENTRY_SUMMED} FROM entries").fetchall()
    conn.executemany(
        "UPDATE entries SET row_sum = ? WHERE rowid = ?", ((row_sum(r[1:]), r[0]) for r in entries)
    )
    types = conn.execute("SELECT name, data, content_hash FROM types").fetchall()
    conn.executemany(
        "UPDATE types SET row_sum = ? WHERE name = ?", ((row_sum(r), r[0]) for r in types)
    )
    changes = conn.execute("SELECT seq, kind, op, key, version, at FROM changes").fetchall()
    conn.executemany(
        "UPDATE changes SET row_sum = ? WHERE seq = ?", ((row_sum(r), r[0]) for r in changes)
    )


def _db_error(what: str, err: sqlite3.Error) -> LGentError:
    """The typed error for a SQLite failure: a full disk is ``DiskFullError``."""
    code = getattr(err, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL:
        return DiskFullError(f"{what}: the disk is full ({err})")
    if code == sqlite3.SQLITE_READONLY:
        return ReadOnlyHomeError(f"{what}: the catalog file is read-only ({err})")
    return CatalogError(f"{what}: {err}")


def _refuse_empty(path: Path) -> None:
    """An empty file where the catalog should be is damage, never a new empty catalog."""
    if path.is_file() and path.stat().st_size == 0:
        raise CatalogCorruptError(
            f"{path} is empty (0 bytes), not an L-gent catalog: restore it from a backup, "
            "or move it away and load the catalog files again"
        )


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection. With a ``-wal`` file beside the catalog, SQLite reads it (and
    keeps its shared memory in the heap when ``-shm`` cannot be written); without one, a
    catalog in a folder this process cannot write is opened ``immutable`` (nothing is
    uncommitted, and SQLite need not create the ``-shm`` it could not)."""
    wal = path.with_name(path.name + "-wal")
    immutable = not wal.exists() and not os.access(path.parent, os.W_OK)
    mode = "immutable=1" if immutable else "mode=ro"
    return sqlite3.connect(
        f"file:{path}?{mode}", uri=True, check_same_thread=False, isolation_level=None
    )
