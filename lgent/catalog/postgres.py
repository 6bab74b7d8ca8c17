"""The catalog in PostgreSQL (psycopg 3): one catalog that many L-gent processes share.

The tables and the promises are the SQLite store's (``lgent/catalog/protocol.py``). What differs
is how change numbers stay in commit order when several processes write at once: every write
transaction first takes ``LOCK TABLE changes IN EXCLUSIVE MODE``. The lock conflicts with itself
and with inserts, not with plain reads, so writers queue while readers go on; the writer holding
it numbers its changes ``max(seq) + 1, ...`` and commits before the next writer can read
``max(seq)``. The numbers are therefore gapless and in commit order, which a sequence alone would
not give (a sequence hands out numbers at insert time: a transaction that took 7 can commit after
one that took 8, and a rolled-back one leaves a hole). Each write that changed something sends
``NOTIFY lgent_changes`` (delivered at commit) so that replicas wake at once.

A catalog lives in the schema the connection's ``search_path`` selects (``public`` unless the URL
says ``?options=-csearch_path%3Dname``), so one database can hold several catalogs.

Rows carry the SQLite store's checksums and owners (``row_sum``, ``owner_kind``, ``owner_name``),
computed the same way, so a replica's copy holds the very same values; a catalog of schema
version 1 or 2 is upgraded by the first process that opens it for writing (the tables and their
upgrades: ``postgres_schema``).
"""

from __future__ import annotations

import select
import socket
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from lgent.catalog import ownership
from lgent.catalog.json_text import stored_json
from lgent.catalog.postgres_schema import (
    LEGACY_SCHEMA,
    SCHEMA_VERSION,
    UNNAMED_SCHEMA,
    create_tables,
    upgrade,
)
from lgent.catalog.records import (
    ENTRY_SUMMED,
    WRITER,
    BatchResult,
    ChangeKind,
    ChangeOp,
    Finding,
    Owner,
    Snapshot,
    change_sum,
    content_hash,
    entry_values,
    intact_type_hash,
    row_sum,
)
from lgent.catalog.sql_reads import POSTGRES, SqlReads, damaged_finding
from lgent.config import redact
from lgent.errors import (
    CatalogCorruptError,
    CatalogError,
    CatalogUnreachableError,
    NotFoundError,
)
from lgent.models import CatalogEntry, TypeDecl, now_utc
from lgent.versions import Version

CHANNEL = "lgent_changes"
"""The ``NOTIFY`` channel; the payload is ``<schema>:<change number>``."""
CONNECT_TIMEOUT_S = 5

ENTRY_COLUMNS = (
    "id, version, is_latest, name, entity_type, status, author, input_type, output_type, "
    "execution, data, content_hash, registered_at, owner_kind, owner_name, row_sum"
)
"""Every column of an entry row, in the order ``Delta.entries`` carries them."""
TYPE_COLUMNS = "name, data, content_hash, row_sum"
CHANGE_COLUMNS = "seq, kind, op, key, version, at, writer, status, row_sum"

ChangeRow = tuple[int, str, str, str, str | None, str, str | None, str | None, str | None]
"""A change log row: seq, kind, op, key, version, at, writer, status, row_sum."""


@dataclass(frozen=True, slots=True)
class Delta:
    """What a replica needs to move from change ``since`` to ``head``, read in one snapshot:
    the change rows after ``since``, and the current rows (every version) of each entry and
    type those changes touched. ``full``: everything (``since`` was 0)."""

    catalog_id: str
    since: int
    head: int
    full: bool
    changes: list[ChangeRow]
    entry_ids: list[str]
    entries: list[tuple[Any, ...]]
    type_names: list[str]
    types: list[tuple[str, str, str, str | None]]


class PostgresCatalog(SqlReads):
    """PostgreSQL-backed catalog (the ``Catalog`` protocol for a catalog shared by many hosts).

    ``PostgresCatalog(url)`` connects (creating the tables if missing; ``read_only=True`` creates
    nothing and refuses writes; ``lazy=True`` waits for the first call to connect).
    Thread-safe: one connection behind one lock, like the SQLite store; a lost connection is
    reopened on the next call. Use ``close()`` when done.
    """

    DIALECT = POSTGRES

    def __init__(self, url: str, *, read_only: bool = False, lazy: bool = False) -> None:
        self.url = url
        self.read_only = read_only
        self._lock = threading.RLock()
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None
        self._schema = ""
        self.catalog_id = ""
        self.legacy = False
        if not lazy:
            with self._lock:
                self._connection()

    @property
    def location(self) -> str:
        return redact(self.url)

    # -- lifecycle -------------------------------------------------------------------------

    def _connection(self) -> psycopg.Connection[tuple[Any, ...]]:
        """The open connection, reconnecting after a failure (CatalogError if unreachable)."""
        if self._conn is not None and not self._conn.closed and not self._conn.broken:
            return self._conn
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        conn = connect(self.url, self.location)
        try:
            row = conn.execute("SELECT current_schema()").fetchone()
            if row is None or row[0] is None:
                raise CatalogError(f"{self.location}: no schema selected (check search_path)")
            self._schema = str(row[0])
            if not self.catalog_id:  # the first connection: create or check the tables
                if not self.read_only:
                    create_tables(conn, self.location)
                    upgrade(conn, self.location)
                self._check_schema(conn)
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        return conn

    def _check_schema(self, conn: psycopg.Connection[tuple[Any, ...]]) -> None:
        try:
            rows = dict(
                conn.execute(
                    "SELECT key, value FROM meta WHERE key IN ('schema_version', 'catalog_id')"
                ).fetchall()
            )
        except pg_errors.UndefinedTable as err:
            raise CatalogError(f"no catalog at {self.location} (schema {self._schema})") from err
        except psycopg.Error as err:
            raise CatalogCorruptError(
                f"{self.location}: not a readable L-gent catalog: {err}"
            ) from err
        found = rows.get("schema_version")
        self.legacy = found == str(LEGACY_SCHEMA) and self.read_only
        self.unnamed = found == str(UNNAMED_SCHEMA) and self.read_only
        if found != str(SCHEMA_VERSION) and not (self.legacy or self.unnamed):
            raise CatalogCorruptError(
                f"{self.location}: catalog schema version {found or 'missing'} is not supported "
                f"(this L-gent reads version {SCHEMA_VERSION})"
            )
        self.catalog_id = rows.get("catalog_id", "")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> PostgresCatalog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing --------------------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        """One write transaction holding the change log's lock (see the module docstring)."""
        if self.read_only:
            raise CatalogError(f"{self.location}: opened read-only")
        with self._lock:
            conn = self._connection()
            try:
                with conn.transaction():
                    conn.execute("LOCK TABLE changes IN EXCLUSIVE MODE")
                    yield conn
            except psycopg.Error as err:
                raise _failure(self.location, "catalog write failed", err, self._conn) from err

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._connection().execute(sql, params).fetchall()
            except psycopg.Error as err:
                raise _failure(self.location, "catalog read failed", err, self._conn) from err

    @contextmanager
    def _reading(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        """A read-only transaction whose reads all see one snapshot of the catalog."""
        with self._lock:
            conn = self._connection()
            try:
                with conn.transaction():
                    conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    yield conn
            except psycopg.Error as err:
                raise _failure(self.location, "catalog read failed", err, self._conn) from err

    class _Log:
        """The change rows one write appends, numbered after the last committed one."""

        def __init__(
            self, conn: psycopg.Connection[tuple[Any, ...]], writer: str | None = None
        ) -> None:
            row = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM changes").fetchone()
            self.last = int(row[0]) if row else 0
            self.writer = writer
            self.rows: list[ChangeRow] = []

        def add(
            self,
            kind: ChangeKind,
            op: ChangeOp,
            key: str,
            version: str | None,
            writer: str | None = None,
            status: str | None = None,
        ) -> None:
            self.last += 1
            who = self.writer if writer is None else writer
            values = (self.last, kind, op, key, version, now_utc().isoformat(), who, status)
            self.rows.append((*values, change_sum(values)))

        def write(self, conn: psycopg.Connection[tuple[Any, ...]], schema: str) -> None:
            if not self.rows:
                return
            with conn.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO changes ({CHANGE_COLUMNS}) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    self.rows,
                )
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{schema}:{self.last}"))

    @staticmethod
    def _refresh_latest(conn: psycopg.Connection[tuple[Any, ...]], ids: Iterable[str]) -> None:
        wanted = sorted(set(ids))
        if not wanted:
            return
        versions: dict[str, list[str]] = {}
        for artifact_id, version in conn.execute(
            "SELECT id, version FROM entries WHERE id = ANY(%s) ORDER BY id, version", (wanted,)
        ):
            versions.setdefault(artifact_id, []).append(version)
        if not versions:
            return
        newest = {i: max(v, key=Version) for i, v in versions.items()}
        conn.execute(
            "UPDATE entries SET is_latest = (entries.version = n.version) "
            "FROM unnest(%s::text[], %s::text[]) AS n(id, version) "
            "WHERE entries.id = n.id AND entries.is_latest IS DISTINCT FROM "
            "(entries.version = n.version)",
            (list(newest), list(newest.values())),
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
        """Upsert entries and type declarations in one transaction (see ``CatalogStore``)."""
        entries, types = list(entries), list(types)  # a bad record fails before anything is written
        result = BatchResult()
        with self._write() as conn:
            log = self._Log(conn, writer)
            self._upsert_types(conn, types, result, log)
            self._upsert_entries(conn, entries, owners or {}, result, log)
            log.write(conn, self._schema)
            result.change_number = log.last
        return result

    def _upsert_types(
        self,
        conn: psycopg.Connection[tuple[Any, ...]],
        types: Sequence[TypeDecl],
        result: BatchResult,
        log: PostgresCatalog._Log,
    ) -> None:
        if not types:
            return
        found = conn.execute(
            f"SELECT {TYPE_COLUMNS} FROM types WHERE name = ANY(%s)", ([t.type for t in types],)
        ).fetchall()
        known = {row[0] for row in found}
        intact = {row[0]: intact_type_hash(row) for row in found}
        rows: list[tuple[str, str, str, str]] = []
        for decl in types:
            record = decl.to_record()
            digest = content_hash(record)
            if intact.get(decl.type) == digest:  # the same content, and an intact row
                result.types_unchanged.append(decl.type)
                continue
            (result.types_updated if decl.type in known else result.types_added).append(decl.type)
            known.add(decl.type)
            intact[decl.type] = digest
            values = (decl.type, stored_json(record), digest)
            rows.append((*values, row_sum(values)))
            log.add("type", "upsert", decl.type, None)
        with conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO types ({TYPE_COLUMNS}) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (name) DO UPDATE SET data = excluded.data, "
                "content_hash = excluded.content_hash, row_sum = excluded.row_sum",
                rows,
            )

    def _upsert_entries(
        self,
        conn: psycopg.Connection[tuple[Any, ...]],
        entries: Sequence[CatalogEntry],
        owners: Mapping[str, Owner],
        result: BatchResult,
        log: PostgresCatalog._Log,
    ) -> None:
        """Each entry written by ``owners[id]`` (default ``WRITER``): ``OwnershipError`` (and
        nothing written) when the ownership rule refuses one, checked under the change log's
        lock so that no other writer can claim an id in between."""
        if not entries:
            return
        ids = sorted({e.id for e in entries})
        intact: dict[tuple[str, str], str] = {}
        """(id, version) -> content hash of each stored row that passes its checksum."""
        held: dict[str, Owner] = {}
        for row in conn.execute(
            f"SELECT {ENTRY_SUMMED}, row_sum, is_latest FROM entries WHERE id = ANY(%s)", (ids,)
        ):
            if row_sum(row[:13]) == row[13]:
                intact[(row[0], row[1])] = row[10]
            if row[14]:
                held[row[0]] = Owner.of_columns(row[11], row[12])
        refused = ownership.refusals(held, ((i, owners.get(i, WRITER)) for i in ids))
        if refused:
            raise refused[0]
        known = set(held)
        rows: list[tuple[Any, ...]] = []
        for entry in entries:
            record = entry.to_record()
            digest = content_hash(record)
            # the same content is kept, credited to its first writer, unless its row is damaged
            if intact.get((entry.id, entry.version)) == digest:
                result.unchanged.append(entry.id)
                continue
            (result.updated if entry.id in known else result.added).append(entry.id)
            values = entry_values(entry, owners.get(entry.id, WRITER), stored_json(record), digest)
            intact[(entry.id, entry.version)] = digest
            known.add(entry.id)
            self._repaired(entry.id, entry.version)
            rows.append((*values, row_sum(values), now_utc().isoformat()))
            log.add("entry", "upsert", entry.id, entry.version, status=entry.status.value)
        with conn.cursor() as cur:
            cur.executemany(
                f"""INSERT INTO entries ({ENTRY_SUMMED}, row_sum, registered_at)
                   VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
                   ON CONFLICT (id, version) DO UPDATE SET
                       name = excluded.name, entity_type = excluded.entity_type,
                       status = excluded.status, author = excluded.author,
                       input_type = excluded.input_type, output_type = excluded.output_type,
                       execution = excluded.execution, data = excluded.data,
                       content_hash = excluded.content_hash,
                       registered_at = excluded.registered_at,
                       owner_kind = excluded.owner_kind, owner_name = excluded.owner_name,
                       row_sum = excluded.row_sum""",
                rows,
            )
        self._refresh_latest(conn, ids)

    def remove(
        self, artifact_id: str, version: str | None = None, *, writer: str | None = None
    ) -> int:
        """Remove an artifact (every version, or just ``version``). Returns the rows removed;
        ``writer`` is named in the change row."""
        with self._write() as conn:
            if version is None:
                cursor = conn.execute("DELETE FROM entries WHERE id = %s", (artifact_id,))
            else:
                cursor = conn.execute(
                    "DELETE FROM entries WHERE id = %s AND version = %s", (artifact_id, version)
                )
            if cursor.rowcount == 0:
                raise NotFoundError(artifact_id, version)
            self._refresh_latest(conn, [artifact_id])
            log = self._Log(conn, writer)
            log.add("entry", "remove", artifact_id, version)
            log.write(conn, self._schema)
            return cursor.rowcount

    def remove_type(self, name: str) -> None:
        """Remove a type declaration."""
        with self._write() as conn:
            if conn.execute("DELETE FROM types WHERE name = %s", (name,)).rowcount == 0:
                raise NotFoundError(name)
            log = self._Log(conn)
            log.add("type", "remove", name, None)
            log.write(conn, self._schema)

    # -- reads -----------------------------------------------------------------------------

    def _latest_sql(self) -> str:
        return f"SELECT {self._entry_columns()} FROM entries WHERE is_latest AND id = ANY(%s)"

    def _latest_rows(
        self, artifact_ids: Sequence[str], *, skip_damaged: bool = False
    ) -> dict[str, tuple[str, str]]:
        """``id -> (status, stored JSON)`` of the latest versions of the ids that exist, each
        row verified against its checksum (see ``SqlReads._latest_rows``)."""
        if not artifact_ids:
            return {}
        found: dict[str, tuple[str, str]] = {}
        for row in self._read(self._latest_sql(), (list(artifact_ids),)):
            checked = self._intact(row, skip_damaged)
            if checked is not None:
                found[checked[0]] = (checked[4], checked[9])
        return found

    def snapshot(self, artifact_ids: Sequence[str]) -> Snapshot:
        """The change number and the latest versions of ``artifact_ids``, read in one snapshot."""
        with self._reading() as conn:
            number = self._change_number(conn)
            rows: dict[str, tuple[str, str]] = {}
            if artifact_ids:
                for r in conn.execute(self._latest_sql(), (list(artifact_ids),)):
                    checked = self._checked(r)
                    rows[checked[0]] = (checked[4], checked[9])
            return Snapshot(number, rows)

    def parts_of(self, whole_ids: Sequence[str]) -> dict[str, list[str]]:
        """For each of ``whole_ids``, the ids of the artifacts whose latest version declares
        ``part_of`` it (any status), sorted; a whole with no parts maps to an empty list."""
        found: dict[str, list[str]] = {w: [] for w in set(whole_ids)}
        if not found:
            return found
        rows = self._read(
            "SELECT e.id, r ->> 'target' FROM entries AS e CROSS JOIN LATERAL "
            "jsonb_array_elements(CASE jsonb_typeof(e.data::jsonb -> 'relations') "
            "WHEN 'array' THEN e.data::jsonb -> 'relations' ELSE '[]'::jsonb END) AS r "
            "WHERE e.is_latest AND r ->> 'type' = 'part_of' AND r ->> 'target' = ANY(%s)",
            (list(found),),
        )
        for part, whole in rows:
            found[whole].append(part)
        return {w: sorted(ids) for w, ids in found.items()}

    def change_number(self) -> int:
        """The seq of the last committed change (0 for a new catalog)."""
        return int(self._read("SELECT COALESCE(MAX(seq), 0) FROM changes")[0][0])

    @staticmethod
    def _change_number(conn: psycopg.Connection[tuple[Any, ...]]) -> int:
        row = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM changes").fetchone()
        return int(row[0]) if row else 0

    def change_row(self, seq: int) -> ChangeRow | None:
        """The whole change log row ``seq`` (None if there is none)."""
        rows = self._read(f"SELECT {CHANGE_COLUMNS} FROM changes WHERE seq = %s", (seq,))
        return _change_row(rows[0]) if rows else None

    def delta(self, since: int) -> Delta:
        """Everything after change ``since`` (everything when 0), read in one snapshot."""
        with self._reading() as conn:
            head = self._change_number(conn)
            changes = [
                _change_row(r)
                for r in conn.execute(
                    f"SELECT {CHANGE_COLUMNS} FROM changes WHERE seq > %s ORDER BY seq", (since,)
                )
            ]
            if since == 0:
                entry_ids = [r[0] for r in conn.execute("SELECT DISTINCT id FROM entries")]
                type_names = [r[0] for r in conn.execute("SELECT name FROM types")]
                entries = conn.execute(f"SELECT {ENTRY_COLUMNS} FROM entries").fetchall()
                types = conn.execute(f"SELECT {TYPE_COLUMNS} FROM types").fetchall()
            else:
                entry_ids = sorted({c[3] for c in changes if c[1] == "entry"})
                type_names = sorted({c[3] for c in changes if c[1] == "type"})
                entries = conn.execute(
                    f"SELECT {ENTRY_COLUMNS} FROM entries WHERE id = ANY(%s)", (entry_ids,)
                ).fetchall()
                types = conn.execute(
                    f"SELECT {TYPE_COLUMNS} FROM types WHERE name = ANY(%s)", (type_names,)
                ).fetchall()
        return Delta(
            self.catalog_id, since, head, since == 0, changes, entry_ids, entries, type_names, types
        )

    def check(self) -> list[Finding]:
        """Exactly one latest version per artifact and a change log without holes."""
        fix = "restore the database from a backup, or re-load the catalog files into a new one"
        try:
            broken = [
                r[0]
                for r in self._read(
                    "SELECT id FROM entries GROUP BY id "
                    "HAVING COUNT(*) FILTER (WHERE is_latest) != 1 LIMIT 5"
                )
            ]
            count, top = self._read("SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM changes")[0]
            damaged = [] if self.legacy else self.damaged_rows()
        except CatalogError as err:
            return [Finding("catalog database", "fail", str(err), fix)]
        if damaged:
            return [damaged_finding(damaged)]
        if broken:
            return [
                Finding(
                    "catalog versions",
                    "fail",
                    f"artifacts without exactly one latest version: {', '.join(broken)}",
                    "re-register those artifacts (lgent load their files again)",
                )
            ]
        if count != top:
            return [
                Finding(
                    "catalog change log",
                    "fail",
                    f"{top - count} change numbers are missing below {top}",
                    fix,
                )
            ]
        return [
            Finding(
                "catalog integrity",
                "ok",
                f"PostgreSQL {self.location}: one latest version per artifact, "
                f"change log complete to {top}",
            )
        ]

    def stats(self) -> dict[str, Any]:
        """Counts for ``lgent stats``: artifacts, versions, types, relations, by type and status."""
        by_type = self._counts("entity_type")
        by_status = self._counts("status")
        relations = self._read(
            "SELECT COALESCE(SUM(json_array_length(data::json -> 'relations')), 0) "
            "FROM entries WHERE is_latest"
        )[0][0]
        return {
            "artifacts": sum(by_type.values()),
            "versions": int(self._read("SELECT COUNT(*) FROM entries")[0][0]),
            "types": int(self._read("SELECT COUNT(*) FROM types")[0][0]),
            "relations": int(relations),
            "by_entity_type": by_type,
            "by_status": by_status,
            "change_number": self.change_number(),
        }

    # -- following -------------------------------------------------------------------------

    def listener(self) -> ChangeListener:
        """A connection of its own that wakes when any process commits a change here."""
        return ChangeListener(self.url, self.location)


def _failure(
    location: str, what: str, err: psycopg.Error, conn: psycopg.Connection[Any] | None
) -> CatalogError:
    """A psycopg error as an LGentError: CatalogUnreachableError when it cost the connection."""
    reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    if conn is None or conn.closed or conn.broken:
        return CatalogUnreachableError(f"{location}: {what}: connection lost ({reason})")
    return CatalogError(f"{location}: {what}: {reason}")


def _change_row(row: tuple[Any, ...]) -> ChangeRow:
    return (
        int(row[0]),
        str(row[1]),
        str(row[2]),
        str(row[3]),
        row[4],
        str(row[5]),
        row[6],
        row[7],
        row[8],
    )


def connect(url: str, location: str) -> psycopg.Connection[tuple[Any, ...]]:
    """An autocommit connection; CatalogError naming ``location`` when it cannot be made."""
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.Error as err:
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        reason = reason.replace(url, redact(url))  # libpq may quote the whole URI back
        raise CatalogUnreachableError(f"cannot reach the catalog at {location}: {reason}") from err


class ChangeListener:
    """``LISTEN lgent_changes`` on a connection of its own. ``wait(timeout)`` returns the highest
    change number this catalog announced meanwhile (0 on timeout or ``wake()``); a lost
    connection is a CatalogUnreachableError, and the next call reconnects."""

    def __init__(self, url: str, location: str) -> None:
        self._url = url
        self._location = location
        self._schema = ""  # the catalog's schema, read on connecting (payloads name it)
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)

    def _connection(self) -> psycopg.Connection[tuple[Any, ...]]:
        if self._conn is not None and not self._conn.closed and not self._conn.broken:
            return self._conn
        self._drop()
        conn = connect(self._url, self._location)
        try:
            row = conn.execute("SELECT current_schema()").fetchone()
            self._schema = str(row[0]) if row and row[0] else ""
            conn.execute(f"LISTEN {CHANNEL}")
        except psycopg.Error as err:
            conn.close()
            raise _failure(self._location, "cannot listen", err, conn) from err
        self._conn = conn
        return conn

    def connect(self) -> None:
        """Listen now (changes committed from here on wake ``wait``)."""
        self._connection()

    def wait(self, timeout: float) -> int:
        conn = self._connection()
        try:
            wake = self._wake_r.fileno()
            ready, _, _ = select.select([conn.fileno(), wake], [], [], timeout)
            if wake in ready:
                while True:
                    try:
                        if not self._wake_r.recv(64):
                            break
                    except BlockingIOError:
                        break
            if conn.fileno() not in ready:
                return 0
            announced = 0
            for note in conn.notifies(timeout=0):
                schema, _, number = note.payload.rpartition(":")
                if schema == self._schema and number.isdigit():
                    announced = max(announced, int(number))
            if conn.broken or conn.closed:
                raise CatalogUnreachableError(f"lost the connection to {self._location}")
            return announced
        except (psycopg.Error, OSError, ValueError) as err:
            self._drop()
            raise CatalogUnreachableError(
                f"lost the connection to {self._location}: {err}"
            ) from err

    def wake(self) -> None:
        """Make a ``wait`` in another thread return now."""
        with suppress(OSError):
            self._wake_w.send(b"x")

    def _drop(self) -> None:
        if self._conn is not None:
            with suppress(psycopg.Error):
                self._conn.close()
            self._conn = None

    def close(self) -> None:
        self._drop()
        self._wake_r.close()
        self._wake_w.close()
