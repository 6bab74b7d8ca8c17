"""The catalog reads the SQLite and PostgreSQL stores share.

Both keep the same tables (``entries`` with one ``is_latest`` row per artifact, ``types``,
``changes``); their SQL differs only in the parameter marker and in how true is spelt, which a
``Dialect`` holds. A store mixes in ``SqlReads`` and gives its ``_read``.

Every read that answers from a row selects its checksum too and verifies it
(``records.checked_entry_row`` and its siblings): a row damaged or edited in place is a
``CatalogCorruptError`` naming it. A catalog of the legacy schema (version 1, opened read-only)
has no checksums: ``legacy`` is then set and its rows are read unverified.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from lgent.catalog.records import (
    CHANGE_CHECKED,
    ENTRY_CHECKED,
    TYPE_CHECKED,
    ArtifactFacts,
    Change,
    EntryFilter,
    Finding,
    Owner,
    checked_change_row,
    checked_entry_row,
    checked_type_row,
    decode_entry,
    entry_row_key,
)
from lgent.errors import CatalogCorruptError, NotFoundError
from lgent.models import CatalogEntry, TypeDecl
from lgent.versions import Version

if TYPE_CHECKING:
    from lgent.catalog.fresh import FreshEntries


@dataclass(frozen=True, slots=True)
class Dialect:
    """How one database spells a query parameter, true, "one of the keywords is" and "the
    keywords as a JSON array"."""

    param: str
    true: str
    has_tag: str
    tags_json: str

    @property
    def latest(self) -> str:
        """The condition that keeps the latest version of each artifact."""
        return f"is_latest = {self.true}"

    def where(self, filters: EntryFilter | None) -> tuple[str, list[Any]]:
        """The SQL condition (and its parameters) for an ``EntryFilter``."""
        given = (filters or EntryFilter()).given()
        condition = " AND ".join(self._condition(column) for column in given)
        return condition or self.true, list(given.values())

    def _condition(self, column: str) -> str:
        if column == "tag":
            return self.has_tag
        if column == "source":
            return f"{SOURCE_SQL} = {self.param}"
        return f"{column} = {self.param}"


SOURCE_SQL = "(COALESCE(owner_kind, 'unknown') || ':' || COALESCE(owner_name, ''))"
"""An entry row's ``Owner.key``."""
SQLITE = Dialect(
    param="?",
    true="1",
    has_tag="EXISTS (SELECT 1 FROM json_each(data, '$.keywords') WHERE json_each.value = ?)",
    tags_json="json_extract(data, '$.keywords')",
)
POSTGRES = Dialect(
    param="%s",
    true="TRUE",
    has_tag="(data::jsonb -> 'keywords') ? %s",
    tags_json="(data::jsonb -> 'keywords')::text",
)


_LEGACY_ENTRY = ENTRY_CHECKED.replace(
    "owner_kind, owner_name, row_sum", "NULL AS owner_kind, NULL AS owner_name, NULL AS row_sum"
)
_LEGACY_TYPE = TYPE_CHECKED.replace("row_sum", "NULL AS row_sum")
_LEGACY_CHANGE = CHANGE_CHECKED.replace(
    "writer, status, row_sum", "NULL AS writer, NULL AS status, NULL AS row_sum"
)
_UNNAMED_CHANGE = CHANGE_CHECKED.replace("writer, status", "NULL AS writer, NULL AS status")
"""A change row of schema version 2 (opened read-only): no writer or status columns yet."""
DATA = 9
"""The position of ``data`` in a row of ``ENTRY_CHECKED``."""


class SqlReads:
    """Reads of the latest entries, the types and the change log, in one store's dialect."""

    DIALECT: ClassVar[Dialect]
    legacy: bool = False
    """The catalog has the legacy schema (no checksums, no owners): rows are read unverified."""
    unnamed: bool = False
    """The change log has no writer and status columns (schema version 2, opened read-only)."""
    _damaged: set[tuple[str, str]]
    _fresh: FreshEntries | None = None
    """The entries the last write stored, taken by the reads that follow instead of decoding
    them again (``lgent.catalog.fresh``); None for a store that keeps none."""
    _known_types: dict[tuple[Any, ...], TypeDecl] | None = None
    """The type declarations the last ``types()`` decoded, by name, content hash and row
    checksum: a row read again unchanged (verified as always) is not decoded again."""

    @property
    def location(self) -> str:
        raise NotImplementedError

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one read statement (the store's own connection and errors)."""
        raise NotImplementedError

    def _entry_columns(self) -> str:
        """The columns a verified read of entry rows selects (``ENTRY_CHECKED``)."""
        return _LEGACY_ENTRY if self.legacy else ENTRY_CHECKED

    def _checked(self, row: Sequence[Any]) -> Sequence[Any]:
        """An entry row of ``ENTRY_CHECKED``, verified (CatalogCorruptError if damaged; the
        row is remembered for ``damage_note``)."""
        if self.legacy:
            return row
        try:
            return checked_entry_row(self.location, row)
        except CatalogCorruptError:
            self._damage_seen().add((str(row[0]), str(row[1])))
            raise

    def _intact(self, row: Sequence[Any], skip_damaged: bool) -> Sequence[Any] | None:
        """``_checked(row)``, or None for a damaged row when ``skip_damaged``."""
        try:
            return self._checked(row)
        except CatalogCorruptError:
            if skip_damaged:
                return None
            raise

    def _damage_seen(self) -> set[tuple[str, str]]:
        seen: set[tuple[str, str]] | None = getattr(self, "_damaged", None)
        if seen is None:
            seen = set()
            self._damaged = seen
        return seen

    def _repaired(self, artifact_id: str, version: str) -> None:
        """Row ``(artifact_id, version)`` was written whole again."""
        self._damage_seen().discard((artifact_id, version))

    def damage_note(self) -> str | None:
        """What this process found damaged in the catalog (rows that failed their checksum and
        were left out of what was read), or None: every answer says it until they are repaired."""
        seen = sorted(self._damage_seen())
        if not seen:
            return None
        named = ", ".join(f"{i!r} version {v}" for i, v in seen[:3])
        more = f" and {len(seen) - 3} more" if len(seen) > 3 else ""
        return (
            f"the catalog holds damaged rows ({named}{more} fail their checksum): they are never "
            "served and are left out of the indexes; run lgent doctor"
        )

    def get(self, artifact_id: str, version: str | None = None) -> CatalogEntry:
        """The latest version of an artifact, or the given version. Raises NotFoundError."""
        d = self.DIALECT
        params: tuple[str, ...] = (artifact_id,)
        which = d.latest
        if version is not None:
            params, which = (artifact_id, version), f"version = {d.param}"
        rows = self._read(
            f"SELECT {self._entry_columns()} FROM entries WHERE id = {d.param} AND {which}",
            params,
        )
        if not rows:
            raise NotFoundError(artifact_id, version)
        return decode_entry(self._checked(rows[0])[DATA])

    def get_many(
        self, artifact_ids: Sequence[str], *, skip_damaged: bool = False
    ) -> dict[str, CatalogEntry]:
        """Latest versions of the ids that exist (missing ids are simply absent); a damaged row
        raises, or with ``skip_damaged`` is left out (``damage_note`` names it)."""
        rows = self._latest_rows(artifact_ids, skip_damaged=skip_damaged)
        return {i: decode_entry(data) for i, (_, data) in rows.items()}

    def _decoded(self, row: Sequence[Any]) -> CatalogEntry:
        """The entry of a verified row: the one the last write kept for that very row
        (``_fresh``), else decoded from its JSON."""
        fresh = None
        if self._fresh is not None and not self.legacy:
            fresh = self._fresh.take(entry_row_key(row))
        return decode_entry(row[DATA]) if fresh is None else fresh

    def _latest_rows(
        self, artifact_ids: Sequence[str], *, skip_damaged: bool = False
    ) -> dict[str, tuple[str, str]]:
        """``id -> (status, stored JSON)`` of the latest versions of the ids that exist, each
        row verified (a damaged one raises, or with ``skip_damaged`` is left out)."""
        found: dict[str, tuple[str, str]] = {}
        d = self.DIALECT
        columns = self._entry_columns()
        for start in range(0, len(artifact_ids), 500):
            chunk = list(artifact_ids[start : start + 500])
            marks = ",".join([d.param] * len(chunk))
            for row in self._read(
                f"SELECT {columns} FROM entries WHERE {d.latest} AND id IN ({marks})", chunk
            ):
                checked = self._intact(row, skip_damaged)
                if checked is not None:
                    found[checked[0]] = (checked[4], checked[DATA])
        return found

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
        sql = (
            f"SELECT {self._entry_columns()} FROM entries WHERE {d.latest} AND {where} ORDER BY id"
        )
        if limit is not None:
            sql += f" LIMIT {d.param} OFFSET {d.param}"
            params = [*params, limit, offset]
        return [decode_entry(self._checked(r)[DATA]) for r in self._read(sql, params)]

    def iter_latest(
        self, batch_size: int = 2000, *, skip_damaged: bool = False
    ) -> Iterator[CatalogEntry]:
        """Every artifact at its latest version, by id, read in pages; a damaged row raises, or
        with ``skip_damaged`` (an index build) is left out (``damage_note`` names it)."""
        d = self.DIALECT
        sql = (
            f"SELECT {self._entry_columns()} FROM entries WHERE {d.latest} AND id > {d.param} "
            f"ORDER BY id LIMIT {d.param}"
        )
        last = ""
        while True:
            rows = self._read(sql, (last, batch_size))
            if not rows:
                return
            for row in rows:
                checked = self._intact(row, skip_damaged)
                if checked is not None:
                    yield self._decoded(checked)
            last = rows[-1][0]

    def facts(self) -> list[ArtifactFacts]:
        """What listing, facets and scopes read of every artifact's latest version, by id (a
        row that fails its checksum is left out, as index builds leave it out)."""
        d = self.DIALECT
        rows = self._read(
            f"SELECT {self._entry_columns()}, {d.tags_json} FROM entries WHERE {d.latest} "
            "ORDER BY id"
        )
        found = []
        for row in rows:
            checked = self._intact(row[:-1], True)
            if checked is None:
                continue
            tags = json.loads(row[-1]) if row[-1] else []
            owner = Owner.of_columns(checked[11], checked[12])
            found.append(
                ArtifactFacts(
                    checked[0],
                    checked[3],
                    checked[4],
                    checked[5],
                    checked[6],
                    checked[7],
                    tuple(t for t in tags if isinstance(t, str)),
                    owner.key,
                )
            )
        return found

    def count(self, filters: EntryFilter | None = None) -> int:
        d = self.DIALECT
        where, params = d.where(filters)
        sql = f"SELECT COUNT(*) FROM entries WHERE {d.latest} AND {where}"
        return int(self._read(sql, params)[0][0])

    def types(self) -> list[TypeDecl]:
        """Every type declaration, by name."""
        columns = _LEGACY_TYPE if self.legacy else TYPE_CHECKED
        found = []
        known = self._known_types or {}
        seen: dict[tuple[Any, ...], TypeDecl] = {}
        for row in self._read(f"SELECT {columns} FROM types ORDER BY name"):
            if not self.legacy:
                checked_type_row(self.location, row)
            key = tuple(row[:1]) + tuple(row[2:]) if not self.legacy else None
            decl = known.get(key) if key is not None else None
            if decl is None:
                try:
                    decl = TypeDecl.parse(json.loads(row[1]))
                except (ValueError, TypeError) as err:
                    raise CatalogCorruptError(
                        f"{self.location}: stored type {row[0]!r} is unreadable: {err}"
                    ) from err
            if key is not None:
                seen[key] = decl
            found.append(decl)
        self._known_types = seen  # the declarations a verified row held, by name, hash and sum
        return found

    def changes_since(self, seq: int) -> list[Change]:
        """Changes after change number ``seq``, oldest first."""
        rows = self._read(
            f"SELECT {self._change_columns()} FROM changes WHERE seq > {self.DIALECT.param} "
            "ORDER BY seq",
            (seq,),
        )
        return self._changes(rows)

    def history(self, artifact_id: str) -> list[Change]:
        """The change log's rows about one artifact, oldest first: each version written (with
        its status and writer) and each removal."""
        p = self.DIALECT.param
        rows = self._read(
            f"SELECT {self._change_columns()} FROM changes WHERE kind = 'entry' AND key = {p} "
            "ORDER BY seq",
            (artifact_id,),
        )
        return self._changes(rows)

    def _change_columns(self) -> str:
        if self.legacy:
            return _LEGACY_CHANGE
        return _UNNAMED_CHANGE if self.unnamed else CHANGE_CHECKED

    def _changes(self, rows: Sequence[Sequence[Any]]) -> list[Change]:
        if not self.legacy:
            for row in rows:
                checked_change_row(self.location, row)
        return [Change(int(r[0]), r[1], r[2], r[3], r[4], str(r[5]), r[6], r[7]) for r in rows]

    def owners(self, artifact_ids: Sequence[str]) -> dict[str, Owner]:
        """The source that wrote the latest version of each id that exists (``Owner``;
        ``unknown`` for a version written before owners were recorded). Only the owner columns
        are read (a load asks this of every id it holds; the write checks the rule again)."""
        d = self.DIALECT
        columns = "id, NULL, NULL" if self.legacy else "id, owner_kind, owner_name"
        found: dict[str, Owner] = {}
        ids = list(dict.fromkeys(artifact_ids))
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join([d.param] * len(chunk))
            for row in self._read(
                f"SELECT {columns} FROM entries WHERE {d.latest} AND id IN ({marks})", chunk
            ):
                found[row[0]] = Owner.of_columns(row[1], row[2])
        return found

    def version_owners(self, artifact_id: str) -> dict[str, Owner]:
        """Each stored version of an artifact (oldest first) -> the source that wrote it."""
        d = self.DIALECT
        rows = self._read(
            f"SELECT {self._entry_columns()} FROM entries WHERE id = {d.param}", (artifact_id,)
        )
        checked = sorted((self._checked(r) for r in rows), key=lambda r: Version(r[1]))
        return {r[1]: Owner.of_columns(r[11], r[12]) for r in checked}

    def damaged_rows(self, most: int = 5) -> list[str]:
        """Up to ``most`` rows whose checksum does not match their values (what ``check``
        reports), each named; every row of the catalog is read."""
        found: list[str] = []
        for table, columns, check in (
            ("entries", ENTRY_CHECKED, checked_entry_row),
            ("types", TYPE_CHECKED, checked_type_row),
            ("changes", self._change_columns(), checked_change_row),
        ):
            for row in self._read(f"SELECT {columns} FROM {table}"):
                try:
                    check(self.location, row)
                except CatalogCorruptError:
                    found.append(_row_name(table, row))
                    if len(found) >= most:
                        return found
        return found

    def _counts(self, column: Literal["entity_type", "status"]) -> dict[str, int]:
        """Latest entries per value of ``column``."""
        rows = self._read(
            f"SELECT {column}, COUNT(*) FROM entries WHERE {self.DIALECT.latest} "
            f"GROUP BY {column} ORDER BY 1"
        )
        return {str(r[0]): int(r[1]) for r in rows}


def _row_name(table: str, row: Sequence[Any]) -> str:
    if table == "entries":
        return f"entry {row[0]!r} version {row[1]}"
    if table == "types":
        return f"type {row[0]!r}"
    return f"change {row[0]}"


def damaged_finding(damaged: Sequence[str]) -> Finding:
    """The doctor's finding for rows that fail their checksums."""
    return Finding(
        "catalog rows",
        "fail",
        "rows that fail their checksum (damaged or edited in place; never served): "
        + ", ".join(damaged),
        "re-load or re-register those artifacts (lgent load their files again), or restore the "
        "catalog from a backup",
    )
