"""The plain records every catalog backend speaks: changes, batch results, list filters,
snapshots and the findings of a self-check. No backend code here."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from lgent.catalog.json_text import canonical_json
from lgent.errors import CatalogCorruptError, QueryError
from lgent.ids import namespace_of
from lgent.models import CatalogEntry, EntityType, Status, StoredText

ChangeKind = Literal["entry", "type"]
OwnerKind = Literal["file", "import", "server", "writer", "unknown"]
ChangeOp = Literal["upsert", "remove"]
Level = Literal["ok", "warn", "fail"]


@dataclass(frozen=True, slots=True)
class Owner:
    """The source that wrote an artifact version, stored with it (``Catalog.owners``).

    ``kind``: ``file``, a catalog file in L-gent's own formats (``name``: its absolute path);
    ``import``, an ecosystem source file read by ``lgent load`` or ``lgent import`` (an MCP
    tools/list, an OpenAPI spec, an agent card; ``name``: its absolute path or URL); ``server``,
    a live MCP server harvested by ``lgent import mcp`` (``name``: ``name:<name>`` for the name
    it was given with ``--name``, else ``stdio:<command>`` or its URL, as configured; never the
    name the server gives itself); ``writer``, a registration
    through the library, the HTTP API or MCP (``name``: the writer's token name once tokens are
    named, "" until then); ``unknown``, a version written before owners were recorded.
    ``lgent.catalog.ownership`` holds the rule of who may change what."""

    kind: OwnerKind
    name: str = ""

    @property
    def imported(self) -> bool:
        """An import (a source file in an ecosystem format, or a harvested server): it alone
        may change or retire what it wrote."""
        return self.kind in ("import", "server")

    @property
    def key(self) -> str:
        """The owner as one string, ``kind:name`` (``import:/srv/specs/slack.json``,
        ``writer:alice``, ``unknown:``): the *source* facets count and scopes match
        (``lgent.scopes``)."""
        return f"{self.kind}:{self.name}"

    def __str__(self) -> str:
        if self.kind == "file":
            return f"catalog file {self.name}"
        if self.kind == "import":
            return f"source {self.name}"
        if self.kind == "server":
            named = self.name.removeprefix("name:")
            return f"MCP server {named!r}" if named != self.name else f"MCP server {self.name}"
        if self.kind == "writer":
            return f"writer {self.name}" if self.name else "a writer (library, HTTP or MCP)"
        return "an unknown source (written before L-gent recorded owners)"

    @classmethod
    def of_columns(cls, kind: str | None, name: str | None) -> Owner:
        """The owner stored in a row's ``owner_kind`` and ``owner_name`` (NULL: unknown)."""
        if kind in ("file", "import", "server", "writer"):
            return cls(kind, name or "")  # type: ignore[arg-type]
        return UNKNOWN_OWNER


WRITER = Owner("writer")
"""The owner of a registration that names none (``register_batch`` without ``owners``)."""
UNKNOWN_OWNER = Owner("unknown")


@dataclass(frozen=True, slots=True)
class Change:
    """One row of the change log: an entry or type that was upserted or removed, when
    (``at``, ISO 8601), by whom (``writer``: the name of the token that wrote it, None for the
    home's own user, the library or the CLI without one) and, for an entry upserted, the
    status its version was written with (a draft's promotion shows as the same version
    written again as active)."""

    seq: int
    kind: ChangeKind
    op: ChangeOp
    key: str
    version: str | None
    at: str = ""
    writer: str | None = None
    status: str | None = None


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


ENTRY_FILTER_FIELDS = (
    "entity_type",
    "status",
    "author",
    "input_type",
    "output_type",
    "tag",
    "source",
)


@dataclass(frozen=True, slots=True)
class ArtifactFacts:
    """What listing, facets and scopes read of an artifact's latest version: its id, kind,
    status, author (the *owner* a card shows), types, keywords (its *tags*) and ``source``
    (``Owner.key``: the file, API spec, server or writer that wrote it)."""

    id: str
    entity_type: str
    status: str
    author: str | None
    input_type: str | None
    output_type: str | None
    tags: tuple[str, ...]
    source: str

    @property
    def namespace(self) -> str:
        """The id's namespace (``lgent.ids.namespace_of``)."""
        return namespace_of(self.id)


@dataclass(frozen=True, slots=True)
class EntryFilter:
    """Structured filters for listing: every given field must match exactly (latest versions);
    ``tag``: one of the artifact's keywords is it; ``source``: its owner's ``Owner.key``."""

    entity_type: EntityType | str | None = None
    status: Status | str | None = None
    author: str | None = None
    input_type: str | None = None
    output_type: str | None = None
    tag: str | None = None
    source: str | None = None

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
        for name in ("author", "input_type", "output_type", "tag", "source"):
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

    def admits(self, facts: ArtifactFacts) -> bool:
        """The filter on an artifact's facts, as the stores' SQL applies it."""
        for name, value in self.given().items():
            if name == "tag":
                if value not in facts.tags:
                    return False
            elif getattr(facts, name) != value:
                return False
        return True


@dataclass(frozen=True, slots=True)
class Finding:
    """One result of a self-check: what was checked, how it went, and the repair if not ok."""

    name: str
    level: Level
    message: str
    fix: str = ""


def row_sum(values: Sequence[object]) -> str:
    """The checksum stored with a catalog row, over the values of its other columns (None and
    "" differ): BLAKE2b, 64 bits, as hex. Like the index checksums (``brains/integrity.py``) it
    guards against damaged media and edits in place, not against someone who can write the
    file and recompute it."""
    # each value as \x01 and its text, None as \x00, each followed by \x1f, hashed in one call
    # (the same bytes as one update per value, a fifth faster: every row read is checked)
    text = "".join("\x00\x1f" if value is None else f"\x01{value}\x1f" for value in values)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


ENTRY_SUMMED = (
    "id, version, name, entity_type, status, author, input_type, output_type, execution, data, "
    "content_hash, owner_kind, owner_name"
)
"""The columns of an entry row its ``row_sum`` covers, in order (not ``is_latest``, which a
newer version changes, nor ``registered_at``, which no answer reads)."""
ENTRY_CHECKED = ENTRY_SUMMED + ", row_sum"
"""What a verified read of an entry row selects: the summed columns and the sum."""
TYPE_CHECKED = "name, data, content_hash, row_sum"
CHANGE_CHECKED = "seq, kind, op, key, version, at, writer, status, row_sum"
"""What a verified read of a change row selects (``change_sum`` covers all but the sum)."""


def change_sum(values: Sequence[object]) -> str:
    """The checksum of a change row's ``seq, kind, op, key, version, at, writer, status``:
    ``writer`` and ``status`` (schema version 3) are summed when either is set, so a row written
    before them keeps its sum, and one that had them cannot lose them unseen."""
    if values[6] is None and values[7] is None:
        return row_sum(values[:6])
    return row_sum(values[:8])


def entry_values(entry: CatalogEntry, owner: Owner, data: str, digest: str) -> tuple[Any, ...]:
    """The values of ``ENTRY_SUMMED`` for ``entry`` written by ``owner``."""
    return (
        entry.id,
        entry.version,
        entry.name,
        entry.entity_type.value,
        entry.status.value,
        entry.author,
        entry.input_type,
        entry.output_type,
        entry.execution.value if entry.execution else None,
        data,
        digest,
        None if owner.kind == "unknown" else owner.kind,
        None if owner.kind == "unknown" else owner.name,
    )


def checked_entry_row(location: str, row: Sequence[Any]) -> Sequence[Any]:
    """``row`` (the columns of ``ENTRY_CHECKED``) when its sum matches its values, else
    ``CatalogCorruptError`` naming the artifact, its version and the catalog."""
    if row_sum(row[:-1]) != row[-1]:
        owner = Owner.of_columns(row[11], row[12])
        raise CatalogCorruptError(
            f"{location}: the stored row of {row[0]!r} version {row[1]} fails its checksum "
            "(damaged or edited in place); it is not served. Run lgent doctor; re-load or "
            f"re-register it (it was written by {owner}), or restore the catalog from a backup"
        )
    return row


def entry_row_key(row: Sequence[Any]) -> tuple[Any, ...]:
    """What identifies the content of an entry row (``ENTRY_CHECKED``, or the summed values
    followed by their sum): id, version, content hash and row checksum."""
    return (row[0], row[1], row[10], row[-1])


def intact_type_hash(row: Sequence[Any]) -> str | None:
    """The content hash of a type row (``TYPE_CHECKED``) when its sum matches its values, else
    None: a type whose new hash equals it is unchanged, whatever JSON text the row holds."""
    return row[2] if row_sum(row[:3]) == row[3] else None


def checked_type_row(location: str, row: Sequence[Any]) -> Sequence[Any]:
    """``row`` (``TYPE_CHECKED``) when its sum matches, else ``CatalogCorruptError``."""
    if row_sum(row[:-1]) != row[-1]:
        raise CatalogCorruptError(
            f"{location}: the stored declaration of type {row[0]!r} fails its checksum "
            "(damaged or edited in place); run lgent doctor, load its file again or restore "
            "the catalog from a backup"
        )
    return row


def checked_change_row(location: str, row: Sequence[Any]) -> Sequence[Any]:
    """``row`` (``CHANGE_CHECKED``) when its sum matches, else ``CatalogCorruptError``."""
    if change_sum(row[:-1]) != row[-1]:
        raise CatalogCorruptError(
            f"{location}: change log row {row[0]} fails its checksum (damaged or edited in "
            "place); run lgent doctor, and restore the catalog from a backup"
        )
    return row


def content_hash(record: dict[str, Any]) -> str:
    """Stable hash of a JSON record (``StrictModel.to_record``): SHA-256 of its canonical text
    (sorted keys, compact: ``json_text.canonical_json``)."""
    return hashlib.sha256(canonical_json(record).encode()).hexdigest()


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
        self._texts: dict[str, StoredText] = {}

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
        """The entry's text fields (``decode_text``, once; KeyError for an id the snapshot
        lacks): for a rule that reads names or words of many results, a fraction of
        decoding their entries."""
        found = self._texts.get(artifact_id)
        if found is None:
            found = self._texts[artifact_id] = decode_text(self._rows[artifact_id][1])
        return found
