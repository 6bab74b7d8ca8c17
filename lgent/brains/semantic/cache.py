"""The embedding cache: vectors keyed by ``sha256(model name + entry text)``.

Stored beside the vector index in ``embeddings.sqlite`` (table ``embeddings(key TEXT PRIMARY KEY,
vector BLOB)``, float32 bytes), so a rebuild re-embeds only texts it has never seen with this
model. ``path=None`` keeps it in a dict. A full build prunes keys it no longer uses.
An unreadable cache file is derived data: it is recreated and ``note`` says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from lgent.brains.semantic.embedders import Vectors
from lgent.errors import IndexError_

FILENAME = "embeddings.sqlite"
_CHUNK = 500  # keys per SQL statement, well under SQLite's variable limit

_SCHEMA = "CREATE TABLE IF NOT EXISTS embeddings (key TEXT PRIMARY KEY, vector BLOB NOT NULL)"


def cache_key(model_name: str, text: str) -> str:
    """The content hash a vector is cached under."""
    return hashlib.sha256(f"{model_name}\n{text}".encode()).hexdigest()


class EmbeddingCache:
    """Cached vectors of one dimension; ``hits``/``misses`` count lookups."""

    def __init__(self, path: Path | None, dimensions: int) -> None:
        self.path = path
        self.dimensions = dimensions
        self.hits = 0
        self.misses = 0
        self.note = ""
        self._memory: dict[str, bytes] = {}
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
            self.note = f"the embedding cache {path} was unreadable ({err}) and was recreated"
            try:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{path}{suffix}").unlink(missing_ok=True)
                return self._open(path)
            except (OSError, sqlite3.Error) as again:
                raise IndexError_(f"cannot create the embedding cache {path}: {again}") from again
        except OSError as err:
            raise IndexError_(f"cannot create the embedding cache {path}: {err}") from err

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(_SCHEMA)
            db.execute("SELECT count(*) FROM embeddings").fetchone()
        except sqlite3.Error:
            db.close()
            raise
        return db

    def get_many(self, keys: Sequence[str]) -> dict[str, Vectors]:
        """The cached vectors among ``keys`` (rows of the wrong size count as misses)."""
        unique = list(dict.fromkeys(keys))
        with self._lock:
            self._check_open()
            if self._db is None:
                found = {k: self._memory[k] for k in unique if k in self._memory}
            else:
                found = self._select(self._db, unique)
        size = self.dimensions * 4
        vectors = {
            k: np.frombuffer(blob, dtype=np.float32).copy()
            for k, blob in found.items()
            if len(blob) == size
        }
        self.hits += len(vectors)
        self.misses += len(unique) - len(vectors)
        return vectors

    def _select(self, db: sqlite3.Connection, keys: list[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        try:
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                sql = f"SELECT key, vector FROM embeddings WHERE key IN ({marks})"
                rows = db.execute(sql, chunk)
                found.update((str(k), bytes(v)) for k, v in rows)
        except sqlite3.Error as err:
            raise IndexError_(f"cannot read the embedding cache {self.path}: {err}") from err
        return found

    def put_many(self, items: Mapping[str, Vectors]) -> None:
        """Store vectors under their keys (replacing any already there)."""
        rows = [(k, np.ascontiguousarray(v, dtype=np.float32).tobytes()) for k, v in items.items()]
        with self._lock:
            self._check_open()
            if self._db is None:
                self._memory.update(rows)
                return
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?)", rows)
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
