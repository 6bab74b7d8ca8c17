"""The embedding cache: vectors keyed by ``sha256(model name + entry text)``.

Stored beside the vector index in ``embeddings.sqlite`` (table ``embeddings(key TEXT PRIMARY KEY,
vector BLOB, checksum INTEGER)``, float32 bytes), so a rebuild re-embeds only texts it has never
seen with this model. ``path=None`` keeps it in a dict. A full build prunes keys it no longer uses.
An unreadable cache file is derived data: it is recreated and ``note`` says so.

Every row carries the CRC-32 of its key and vector bytes, verified whenever the row is read: a
row that fails it (a vector overwritten in place, a flipped bit) is never served. It counts as
a miss, so the text is embedded again and the row replaced, and ``note`` says how many were.
``damaged_rows`` is the same check over the whole file, for ``lgent doctor``. A cache written
before rows had checksums gets them when first opened for writing, for the rows whose vectors
are finite and of unit length (every vector L-gent stores is); the others are dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
import zlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from lgent.brains.semantic.embedders import Vectors
from lgent.errors import DiskFullError, IndexError_, disk_full, write_error

FILENAME = "embeddings.sqlite"
_CHUNK = 500  # keys per SQL statement, well under SQLite's variable limit

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS embeddings "
    "(key TEXT PRIMARY KEY, vector BLOB NOT NULL, checksum INTEGER)"
)
UNIT_TOLERANCE = 1e-3
"""How far from 1 the length of a vector written before checksums may be and still be kept."""


def cache_key(model_name: str, text: str) -> str:
    """The content hash a vector is cached under."""
    return hashlib.sha256(f"{model_name}\n{text}".encode()).hexdigest()


def row_checksum(key: str, blob: bytes) -> int:
    """The CRC-32 stored with a row: of its key and its vector's bytes."""
    return zlib.crc32(blob, zlib.crc32(key.encode()))


def _intact(key: str, blob: bytes, checksum: object, size: int) -> bool:
    return len(blob) == size and checksum == row_checksum(key, blob)


class EmbeddingCache:
    """Cached vectors of one dimension; ``hits``/``misses`` count lookups."""

    def __init__(self, path: Path | None, dimensions: int) -> None:
        self.path = path
        self.dimensions = dimensions
        self.hits = 0
        self.misses = 0
        self.damaged = 0
        """Rows read that failed their checksum (each embedded again and replaced)."""
        self.note = ""
        self._memory: dict[str, tuple[bytes, int]] = {}
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._closed = False
        if path is not None:
            self._db = self._connect(path)

    def _connect(self, path: Path) -> sqlite3.Connection:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            return self._open(path)
        except sqlite3.DatabaseError as err:
            if disk_full(path, err):  # a full disk is not damage: the cache is kept
                raise DiskFullError(
                    f"cannot open the embedding cache {path}: the disk is full ({err})"
                ) from err
            self.note = f"the embedding cache {path} was unreadable ({err}) and was recreated"
            try:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{path}{suffix}").unlink(missing_ok=True)
                return self._open(path)
            except (OSError, sqlite3.Error) as again:
                raise IndexError_(f"cannot create the embedding cache {path}: {again}") from again
        except OSError as err:
            raise write_error(
                f"cannot create the embedding cache {path}", err, IndexError_
            ) from err

    def _open(self, path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(_SCHEMA)
            db.execute("SELECT count(*) FROM embeddings").fetchone()
            columns = {row[1] for row in db.execute("PRAGMA table_info(embeddings)")}
            if "checksum" not in columns:
                self._add_checksums(db)
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _add_checksums(self, db: sqlite3.Connection) -> None:
        """A cache written before checksums: sum the rows whose vectors are finite and of unit
        length, drop the others (they are embedded again when needed)."""
        size = self.dimensions * 4
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("ALTER TABLE embeddings ADD COLUMN checksum INTEGER")
            dropped = []
            for key, blob in db.execute("SELECT key, vector FROM embeddings").fetchall():
                blob = bytes(blob)
                vector = np.frombuffer(blob if len(blob) == size else b"", dtype=np.float32)
                sound = len(blob) == size and bool(np.all(np.isfinite(vector)))
                if sound and abs(float(np.linalg.norm(vector)) - 1.0) <= UNIT_TOLERANCE:
                    db.execute(
                        "UPDATE embeddings SET checksum = ? WHERE key = ?",
                        (row_checksum(key, blob), key),
                    )
                else:
                    dropped.append((key,))
            db.executemany("DELETE FROM embeddings WHERE key = ?", dropped)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def get_many(self, keys: Sequence[str]) -> dict[str, Vectors]:
        """The cached vectors among ``keys``; a row of the wrong size or that fails its
        checksum is a miss (counted in ``damaged`` and said in ``note``), never a vector."""
        unique = list(dict.fromkeys(keys))
        with self._lock:
            self._check_open()
            found: dict[str, tuple[bytes, object]]
            if self._db is None:
                found = {k: self._memory[k] for k in unique if k in self._memory}
            else:
                found = self._select(self._db, unique)
        size = self.dimensions * 4
        vectors = {
            k: np.frombuffer(blob, dtype=np.float32).copy()
            for k, (blob, checksum) in found.items()
            if _intact(k, blob, checksum, size)
        }
        damaged = len(found) - len(vectors)
        if damaged:
            self.damaged += damaged
            self.note = (
                f"{self.damaged} cached vector(s) in {self.path or 'memory'} failed their "
                "checksum (damaged or overwritten); they were not used, and were embedded again"
            )
        self.hits += len(vectors)
        self.misses += len(unique) - len(vectors)
        return vectors

    def _select(self, db: sqlite3.Connection, keys: list[str]) -> dict[str, tuple[bytes, object]]:
        found: dict[str, tuple[bytes, object]] = {}
        try:
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                sql = f"SELECT key, vector, checksum FROM embeddings WHERE key IN ({marks})"
                rows = db.execute(sql, chunk)
                found.update((str(k), (bytes(v), c)) for k, v, c in rows)
        except sqlite3.Error as err:
            raise IndexError_(f"cannot read the embedding cache {self.path}: {err}") from err
        return found

    def put_many(self, items: Mapping[str, Vectors]) -> None:
        """Store vectors under their keys (replacing any already there), each with its
        checksum."""
        rows = []
        for k, v in items.items():
            blob = np.ascontiguousarray(v, dtype=np.float32).tobytes()
            rows.append((k, blob, row_checksum(k, blob)))
        with self._lock:
            self._check_open()
            if self._db is None:
                self._memory.update((k, (blob, checksum)) for k, blob, checksum in rows)
                return
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(
                    "INSERT OR REPLACE INTO embeddings (key, vector, checksum) VALUES (?, ?, ?)",
                    rows,
                )
                self._db.execute("COMMIT")
            except sqlite3.Error as err:
                self._rollback()
                raise IndexError_(f"cannot write the embedding cache {self.path}: {err}") from err

    def retain(self, keys: Iterable[str]) -> int:
        """Drop every vector not under one of ``keys``; returns how many were dropped."""
        keep = set(keys)
        with self._lock:
            self._check_open()
            if self._db is None:
                stale = [k for k in self._memory if k not in keep]
                for k in stale:
                    del self._memory[k]
                return len(stale)
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("CREATE TEMP TABLE IF NOT EXISTS keep (key TEXT PRIMARY KEY)")
                self._db.execute("DELETE FROM keep")
                self._db.executemany("INSERT OR IGNORE INTO keep VALUES (?)", ((k,) for k in keep))
                dropped = self._db.execute(
                    "DELETE FROM embeddings WHERE key NOT IN (SELECT key FROM keep)"
                ).rowcount
                self._db.execute("DELETE FROM keep")
                self._db.execute("COMMIT")
            except sqlite3.Error as err:
                self._rollback()
                raise IndexError_(f"cannot prune the embedding cache {self.path}: {err}") from err
            return int(dropped)

    def __len__(self) -> int:
        with self._lock:
            self._check_open()
            if self._db is None:
                return len(self._memory)
            try:
                return int(self._db.execute("SELECT count(*) FROM embeddings").fetchone()[0])
            except sqlite3.Error as err:
                raise IndexError_(f"cannot read the embedding cache {self.path}: {err}") from err

    def _rollback(self) -> None:
        assert self._db is not None
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # the original error is the one to report
                self._db.execute("ROLLBACK")

    def _check_open(self) -> None:
        if self._closed:
            raise IndexError_("the embedding cache is closed")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._db is not None:
                self._db.close()
                self._db = None


def damaged_rows(path: Path, dimensions: int | None = None, most: int = 5) -> tuple[int, list[str]]:
    """How many rows of the cache file at ``path`` fail their checksum (or, given
    ``dimensions``, have the wrong size), and up to ``most`` of their keys; read-only, for
    ``lgent doctor``. IndexError_ when the file cannot be read."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise IndexError_(f"cannot read the embedding cache {path}: {err}") from err
    try:
        columns = {row[1] for row in db.execute("PRAGMA table_info(embeddings)")}
        if "checksum" not in columns:
            return 0, []  # written before checksums: summed when next opened for writing
        count, keys = 0, list[str]()
        for key, blob, checksum in db.execute("SELECT key, vector, checksum FROM embeddings"):
            blob = bytes(blob)
            wrong_size = dimensions is not None and len(blob) != dimensions * 4
            if wrong_size or checksum != row_checksum(key, blob):
                count += 1
                if len(keys) < most:
                    keys.append(str(key))
        return count, keys
    except sqlite3.Error as err:
        raise IndexError_(f"cannot read the embedding cache {path}: {err}") from err
    finally:
        db.close()
