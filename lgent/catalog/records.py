"""The plain records every catalog backend speaks: changes, batch results, list filters,
snapshots and the findings of a self-check. No backend code here."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from lgent.errors import CatalogCorruptError, QueryError
from lgent.models import CatalogEntry, EntityType, Status, StoredText

ChangeKind = Literal["entry", "type"]
ChangeOp = Literal["upsert", "remove"]
Level = Literal["ok", "warn", "fail"]


@dataclass(frozen=True, slots=True)
class Change:
    """One row of the change log: an entry or type that was upserted or removed."""

    seq: int
    kind: ChangeKind
    op: ChangeOp
    key: str
    version: str | None


@dataclass(slots=True)
class BatchResult:
    """What a write did: counts of added, updated (new content or version), unchanged, removed."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    types_added: list[str] = field(default_factory=list)
    types_updated: list[str] = field(default_factory=list)
    types_unchanged: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    """Artifacts a re-import no longer found: kept, with their latest version set retired."""
    change_number: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": len(self.added),
            "updated": len(self.updated),
            "retired": len(self.retired),
            "unchanged": len(self.unchanged),
            "types_added": len(self.types_added),
            "types_updated": len(self.types_updated),
            "types_unchanged": len(self.types_unchanged),
            "change_number": self.change_number,
        }


ENTRY_FILTER_FIELDS = ("entity_type", "status", "author", "input_type", "output_type")


@dataclass(frozen=True, slots=True)
class EntryFilter:
    """Structured filters for listing: every given field must match exactly (latest versions)."""

    entity_type: EntityType | str | None = None
    status: Status | str | None = None
    author: str | None = None
    input_type: str | None = None
    output_type: str | None = None

    def __post_init__(self) -> None:
        """Kinds and statuses are read in any case and must be known; the rest are strings
        (``QueryError`` naming the field otherwise: a bad filter would silently match nothing)."""
        for name, kind in (("entity_type", EntityType), ("status", Status)):
            value = getattr(self, name)
            if value is None or isinstance(value, kind):
                continue
            known = {member.value: member for member in kind}
            found = known.get(value.lower()) if isinstance(value, str) else None
            if found is None:
                raise QueryError(
                    f"filter {name}: unknown value {value!r} (one of {', '.join(known)})"
                )
            object.__setattr__(self, name, found)
        for name in ("author", "input_type", "output_type"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise QueryError(f"filter {name}: expected a string, got {type(value).__name__}")
            if isinstance(value, str) and not value.strip():
                raise QueryError(
                    f"filter {name}: empty (it would match nothing; leave it out for any {name})"
                )

    @classmethod
    def of(cls, filters: EntryFilter | Mapping[str, Any] | None) -> EntryFilter | None:
        """``filters`` as an ``EntryFilter``: one, a mapping of its fields, or None."""
        if filters is None or isinstance(filters, EntryFilter):
            return filters
        if not isinstance(filters, Mapping):
            raise QueryError(
                f"filters: expected an EntryFilter or a mapping, got {type(filters).__name__}"
            )
        unknown = sorted(set(map(str, filters)) - set(ENTRY_FILTER_FIELDS))
        if unknown:
            raise QueryError(
                f"filters: unknown field(s) {', '.join(unknown)} "
                f"(known: {', '.join(ENTRY_FILTER_FIELDS)})"
            )
        return cls(**filters)

    def given(self) -> dict[str, str]:
        """The fields that are set, as plain strings, in ``ENTRY_FILTER_FIELDS`` order."""
        values = {name: getattr(self, name) for name in ENTRY_FILTER_FIELDS}
        return {name: str(value) for name, value in values.items() if value is not None}


@dataclass(frozen=True, slots=True)
class Finding:
    """One result of a self-check: what was checked, how it went, and the repair if not ok."""

    name: str
    level: Level
    message: str
    fix: str = ""


def content_hash(record: dict[str, Any]) -> str:
    """Stable hash of a JSON record (sorted keys, compact)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def decode_entry(data: str) -> CatalogEntry:
    """An entry from its stored JSON; unreadable JSON is catalog corruption."""
    try:
        return CatalogEntry.parse(json.loads(data))
    except (ValueError, TypeError) as err:
        raise CatalogCorruptError(f"stored entry is unreadable: {err}") from err


def decode_text(data: str) -> StoredText:
    """The text fields of an entry from its stored JSON (``StoredText``: what explanations
    read, without validating the whole entry again); unreadable JSON is catalog corruption."""
    try:
        return StoredText.of(json.loads(data))
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        raise CatalogCorruptError(f"stored entry is unreadable: {err!r}") from err


class Snapshot:
    """Latest entries of some ids as the catalog held them at ``change_number``. Each entry is
    decoded when first asked for (decoding is most of the cost of a read, and a caller often
    needs only a few of the entries it had to check for existence or status)."""

    def __init__(self, change_number: int, rows: dict[str, tuple[str, str]]) -> None:
        """``rows``: ``id -> (status value, stored entry JSON)``."""
        self.change_number = change_number
        self._rows = rows
        self._entries: dict[str, CatalogEntry] = {}

    def __contains__(self, artifact_id: object) -> bool:
        return artifact_id in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def status(self, artifact_id: str) -> Status:
        """The entry's status, without decoding it (KeyError for an id the snapshot lacks)."""
        return Status(self._rows[artifact_id][0])

    def entry(self, artifact_id: str) -> CatalogEntry:
        """The entry (KeyError for an id the snapshot lacks)."""
        if artifact_id not in self._entries:
            self._entries[artifact_id] = decode_entry(self._rows[artifact_id][1])
        return self._entries[artifact_id]

    def text(self, artifact_id: str) -> StoredText:
        """The entry's text fields (``decode_text``; KeyError for an id the snapshot lacks)."""
        return decode_text(self._rows[artifact_id][1])
