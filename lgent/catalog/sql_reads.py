"""The catalog reads the SQLite and PostgreSQL stores share.

Both keep the same tables (``entries`` with one ``is_latest`` row per artifact, ``types``,
``changes``); their SQL differs only in the parameter marker and in how true is spelt, which a
``Dialect`` holds. A store mixes in ``SqlReads`` and gives its ``_read``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from lgent.catalog.records import Change, EntryFilter, decode_entry
from lgent.errors import NotFoundError
from lgent.models import CatalogEntry, TypeDecl
from lgent.versions import Version


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one database spells a query parameter and true."""

    param: str
    true: str

    @property
    def latest(self) -> str:
        """The condition that keeps the latest version of each artifact."""
        return f"is_latest = {self.true}"

    def where(self, filters: EntryFilter | None) -> tuple[str, list[Any]]:
        """The SQL condition (and its parameters) for an ``EntryFilter``."""
        given = (filters or EntryFilter()).given()
        condition = " AND ".join(f"{column} = {self.param}" for column in given)
        return condition or self.true, list(given.values())


SQLITE = Dialect(param="?", true="1")
POSTGRES = Dialect(param="%s", true="TRUE")


class SqlReads:
    """Reads of the latest entries, the types and the change log, in one store's dialect."""

    DIALECT: ClassVar[Dialect]

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one read statement (the store's own connection and errors)."""
        raise NotImplementedError

    def _latest_rows(self, artifact_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """``id -> (status, stored JSON)`` of the latest versions of the ids that exist."""
        raise NotImplementedError

    def get(self, artifact_id: str, version: str | None = None) -> CatalogEntry:
        """The latest version of an artifact, or the given version. Raises NotFoundError."""
        d = self.DIALECT
        params: tuple[str, ...] = (artifact_id,)
        which = d.latest
        if version is not None:
            params, which = (artifact_id, version), f"version = {d.param}"
        rows = self._read(f"SELECT data FROM entries WHERE id = {d.param} AND {which}", params)
        if not rows:
            raise NotFoundError(artifact_id, version)
        return decode_entry(rows[0][0])

    def get_many(self, artifact_ids: Sequence[str]) -> dict[str, CatalogEntry]:
        """Latest versions of the ids that exist (missing ids are simply absent)."""
        return {i: decode_entry(data) for i, (_, data) in self._latest_rows(artifact_ids).items()}

    def versions(self, artifact_id: str) -> list[str]:
        """Every stored version of an artifact, oldest first."""
        p = self.DIALECT.param
        rows = self._read(f"SELECT version FROM entries WHERE id = {p}", (artifact_id,))
        return sorted((r[0] for r in rows), key=Version)

    def exists(self, artifact_id: str) -> bool:
        p = self.DIALECT.param
        return bool(self._read(f"SELECT 1 FROM entries WHERE id = {p} LIMIT 1", (artifact_id,)))

    def list_entries(
        self, filters: EntryFilter | None = None, *, limit: int | None = None, offset: int = 0
    ) -> list[CatalogEntry]:
        """Latest versions matching ``filters``, ordered by id."""
        d = self.DIALECT
        where, params = d.where(filters)
        sql = f"SELECT data FROM entries WHERE {d.latest} AND {where} ORDER BY id"
        if limit is not None:
            sql += f" LIMIT {d.param} OFFSET {d.param}"
            params = [*params, limit, offset]
        return [decode_entry(r[0]) for r in self._read(sql, params)]

    def iter_latest(self, batch_size: int = 2000) -> Iterator[CatalogEntry]:
        """Every artifact at its latest version, by id, read in pages."""
        d = self.DIALECT
        sql = (
            f"SELECT id, data FROM entries WHERE {d.latest} AND id > {d.param} "
            f"ORDER BY id LIMIT {d.param}"
        )
        last = ""
        while True:
            rows = self._read(sql, (last, batch_size))
            if not rows:
                return
            for row in rows:
                yield decode_entry(row[1])
            last = rows[-1][0]

    def count(self, filters: EntryFilter | None = None) -> int:
        d = self.DIALECT
        where, params = d.where(filters)
        sql = f"SELECT COUNT(*) FROM entries WHERE {d.latest} AND {where}"
        return int(self._read(sql, params)[0][0])

    def types(self) -> list[TypeDecl]:
        """Every type declaration, by name."""
        return [
            TypeDecl.parse(json.loads(r[0]))
            for r in self._read("SELECT data FROM types ORDER BY name")
        ]

    def changes_since(self, seq: int) -> list[Change]:
        """Changes after change number ``seq``, oldest first."""
        rows = self._read(
            "SELECT seq, kind, op, key, version FROM changes "
            f"WHERE seq > {self.DIALECT.param} ORDER BY seq",
            (seq,),
        )
        return [Change(int(r[0]), r[1], r[2], r[3], r[4]) for r in rows]

    def _counts(self, column: Literal["entity_type", "status"]) -> dict[str, int]:
        """Latest entries per value of ``column``."""
        rows = self._read(
            f"SELECT {column}, COUNT(*) FROM entries WHERE {self.DIALECT.latest} "
            f"GROUP BY {column} ORDER BY 1"
        )
        return {str(r[0]): int(r[1]) for r in rows}
