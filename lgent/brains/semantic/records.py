"""What the semantic brain keeps about each indexed artifact (``EntryInfo``: filters,
lineage, explanations, without the catalog), and the files one save writes."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from lgent.brains.integrity import atomic_write_text
from lgent.brains.semantic.vectors import IDS_FILE, INDEX_FILE
from lgent.errors import IndexError_
from lgent.models import CatalogEntry, RelationType, SearchFilters

ENTRIES_FILE = "entries-{generation}.json"
DESCRIPTION_HEAD = 400  # characters of the description kept for explanations


@dataclass(frozen=True, slots=True)
class EntryInfo:
    """What the brain keeps about one indexed entry (filters, lineage, explanations)."""

    key: str
    status: str
    entity_type: str
    author: str | None
    execution: str | None
    successor_to: tuple[str, ...]
    name: str
    description: str
    keywords: tuple[str, ...]
    cut: bool  # its text was cut to the text budget

    @classmethod
    def of(cls, entry: CatalogEntry, key: str, cut: bool) -> EntryInfo:
        return cls(
            key=key,
            status=entry.status.value,
            entity_type=entry.entity_type.value,
            author=entry.author,
            execution=entry.execution.value if entry.execution else None,
            successor_to=tuple(entry.relation_targets(RelationType.SUCCESSOR_TO)),
            name=entry.name,
            description=entry.description[:DESCRIPTION_HEAD],
            keywords=entry.keywords,
            cut=cut,
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EntryInfo:
        return cls(
            key=str(data["key"]),
            status=str(data["status"]),
            entity_type=str(data["entity_type"]),
            author=None if data["author"] is None else str(data["author"]),
            execution=None if data["execution"] is None else str(data["execution"]),
            successor_to=tuple(str(t) for t in data["successor_to"]),
            name=str(data["name"]),
            description=str(data["description"]),
            keywords=tuple(str(k) for k in data["keywords"]),
            cut=bool(data["cut"]),
        )

    def admitted_by(self, filters: SearchFilters) -> bool:
        return filters.matches(self.entity_type, self.status, self.author, self.execution)


def key_of(info: EntryInfo | None) -> str | None:
    return None if info is None else info.key


def read_entries(path: Path, generation: str) -> dict[str, EntryInfo]:
    """The records of the save ``generation`` in ``path`` (``IndexError_`` when unreadable)."""
    file = path / ENTRIES_FILE.format(generation=generation)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        return {str(k): EntryInfo.from_json(v) for k, v in data["entries"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise IndexError_(f"cannot read {file}: {err}") from err


def write_entries(path: Path, generation: str, entries: dict[str, EntryInfo]) -> None:
    """Write the records of the save ``generation`` (``read_entries`` reads them back)."""
    records = {k: asdict(v) for k, v in entries.items()}
    atomic_write_text(
        path / ENTRIES_FILE.format(generation=generation),
        json.dumps({"generation": generation, "entries": records}, separators=(",", ":")),
    )


def generation_files(generation: str) -> list[str]:
    """The files one save writes (the manifest names them and their checksums)."""
    return [
        INDEX_FILE.format(generation=generation),
        IDS_FILE.format(generation=generation),
        ENTRIES_FILE.format(generation=generation),
    ]
