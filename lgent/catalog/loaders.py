"""Read sources into validated entries and type declarations, without touching the store.

Each file is read by one reader (``lgent.catalog.readers``): the one named by the caller
(``lgent import KIND``), or the first whose detector takes the file (``lgent load``), so a folder
may mix formats. L-gent's native formats are JSONL (one entry or type declaration per line),
``*.json`` and ``*.yaml``/``*.yml`` manifests (one object, a list, or ``{"entries": [...],
"types": [...]}``), and Markdown tool cards whose YAML front matter holds the entry; a record
with an ``id`` is an entry, one with a ``type`` and no ``id`` a type declaration.

A folder is read recursively in sorted order. Hidden files and folders, files of other
extensions, and paths matched by a ``.lgentignore`` (gitignore-style globs) at the folder's top
are skipped; Markdown without front matter is skipped too. Every skip is listed in the result.
A problem in a native file is collected (file:line:field) and raised with every other one as one
``LoadError``; a problem in an ecosystem source (MCP, OpenAPI...) leaves that source out, named
with the reason in ``rejected``, and the rest of the load goes on.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lgent import limits
from lgent.catalog.readers import ReaderRegistry
from lgent.catalog.readers.base import Document, Located, ReadContext, Reader
from lgent.errors import LGentError, LoadError
from lgent.models import CatalogEntry, TypeDecl

MAX_PROBLEMS = 50

Progress = Callable[[int, int, str], None]
"""Called as ``progress(bytes_done, bytes_total, current_file)`` while reading."""


@dataclass(slots=True)
class LoadedBatch:
    """Everything read from a path: records in order, files read, files skipped (with why),
    sources left out for a problem (with the problem), and the readers' warnings."""

    records: list[Located] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    formats: dict[str, str] = field(default_factory=dict)
    """Each file read -> the name of the reader that read it."""
    synced: set[str] = field(default_factory=set)
    """The files read by ecosystem readers, whose records a load syncs (``catalog.reconcile``)."""
    wholes: list[str] = field(default_factory=list)
    """The wholes (servers, APIs, agents) those files hold."""

    @property
    def entries(self) -> list[CatalogEntry]:
        return [r.record for r in self.records if isinstance(r.record, CatalogEntry)]

    @property
    def types(self) -> list[TypeDecl]:
        return [r.record for r in self.records if isinstance(r.record, TypeDecl)]


class _Problems:
    """Collects load problems; raises them together at the end."""

    def __init__(self) -> None:
        self.items: list[LGentError] = []

    def add(self, err: LGentError) -> None:
        self.items.append(err)
        if len(self.items) >= MAX_PROBLEMS:
            self.raise_if_any()

    def raise_if_any(self) -> None:
        if self.items:
            raise batch_error(self.items)


def batch_error(problems: list[LGentError]) -> LoadError:
    """One LoadError carrying every problem; its message is the first plus a count."""
    first = str(problems[0])
    more = (
        f" (and {len(problems) - 1} more problem{'s' * (len(problems) > 2)})"
        if len(problems) > 1
        else ""
    )
    return LoadError(first + more, errors=problems)


def read_path(
    path: str | Path,
    progress: Progress | None = None,
    *,
    kind: str | None = None,
    registry: ReaderRegistry | None = None,
) -> LoadedBatch:
    """Parse a file or a folder, each file in its detected format (or all in format ``kind``).
    Raises LoadError listing every problem found in native files."""
    readers = registry or ReaderRegistry.default()
    forced = readers.named(kind) if kind is not None else None
    suffixes = forced.suffixes if forced is not None else readers.suffixes
    root = Path(path)
    if not root.exists():
        raise LoadError(f"no such file or folder: {root}")
    batch = LoadedBatch()
    problems = _Problems()
    if root.is_dir():
        files = list(_walk(root, batch, suffixes))
    else:
        if root.suffix.lower() not in suffixes:
            raise LoadError(
                f"{root}: unsupported file type {root.suffix or '(none)'!r} "
                f"(expected one of {', '.join(sorted(suffixes))})"
            )
        files = [root]
    total = sum(f.stat().st_size for f in files)
    done = 0
    for file in files:

        def partial(n: int, f: Path = file, before: int = done) -> None:
            if progress is not None:
                progress(before + n, total, str(f))

        _read_file(file, batch, problems, partial, readers, forced)
        done += file.stat().st_size
        if progress:
            progress(done, total, str(file))
    _check_duplicates(batch, problems)
    problems.raise_if_any()
    return batch


def read_document(doc: Document, kind: str, registry: ReaderRegistry | None = None) -> LoadedBatch:
    """Read one in-memory document (a live harvest) in format ``kind``, as ``read_path`` reads
    a file of it."""
    readers = registry or ReaderRegistry.default()
    batch = LoadedBatch()
    problems = _Problems()
    _read_doc(doc, batch, problems, lambda _n: None, readers.named(kind))
    _check_duplicates(batch, problems)
    problems.raise_if_any()
    return batch


def _walk(root: Path, batch: LoadedBatch, suffixes: frozenset[str]) -> Iterator[Path]:
    patterns = _ignore_patterns(root)
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        if _ignored(rel, path.is_dir(), patterns):
            if not any(_ignored(p, True, patterns) for p in _parents(rel)):
                batch.skipped.append((str(path), "matched by .lgentignore"))
            continue
        if path.is_dir() or any(_ignored(p, True, patterns) for p in _parents(rel)):
            continue
        if path.suffix.lower() not in suffixes:
            batch.skipped.append(
                (str(path), f"not a catalog file ({path.suffix or 'no extension'})")
            )
            continue
        yield path


def _read_file(
    path: Path,
    batch: LoadedBatch,
    problems: _Problems,
    progress: Callable[[int], Any],
    readers: ReaderRegistry,
    forced: Reader | None,
) -> None:
    source = str(path)
    size = path.stat().st_size
    if size > limits.MAX_SOURCE_BYTES:
        error = LoadError(
            f"file of {size / 1e6:.0f} MB is over the {limits.MAX_SOURCE_BYTES // 10**6} MB "
            "limit for one source",
            source=source,
        )
        if forced is not None and forced.skips_bad_sources:
            batch.rejected.append((source, str(error)))
        else:
            problems.add(error)
        return
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        problems.add(LoadError(f"invalid UTF-8 at byte {err.start}", source=source, line=line))
        return
    doc = Document(source, text, path.suffix)
    reader = forced or readers.detect(doc)
    _read_doc(doc, batch, problems, progress, reader)


def _read_doc(
    doc: Document,
    batch: LoadedBatch,
    problems: _Problems,
    progress: Callable[[int], Any],
    reader: Reader | None,
) -> None:
    source = doc.source
    if reader is None:
        reason = (
            "Markdown without YAML front matter"
            if doc.suffix in (".md", ".markdown")
            else "no reader recognises its content"
        )
        batch.skipped.append((source, reason))
        return
    found: list[LGentError] = []
    ctx = ReadContext(
        problem=found.append if reader.skips_bad_sources else problems.add, progress=progress
    )
    try:
        records = list(reader.read(doc, ctx))
    except LGentError as err:  # a reader may also give up with one typed error
        ctx.problem(err)
        records = []
    if reader.skips_bad_sources and not found:
        clash = _clash(records, batch)
        if clash is not None:
            found.append(clash)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        batch.rejected.append((source, f"{found[0]}{more}"))
        return
    batch.warnings.extend(ctx.warnings)
    batch.records.extend(records)
    if records or doc.suffix == ".jsonl":
        batch.files.append(source)
        batch.formats[source] = reader.name
    if reader.skips_bad_sources:
        batch.synced.add(source)
        batch.wholes.extend(ctx.wholes)


def _parents(rel: str) -> list[str]:
    parts = rel.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]


def _ignore_patterns(root: Path) -> list[str]:
    ignore = root / ".lgentignore"
    if not ignore.is_file():
        return []
    lines = ignore.read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith("#")]


def _ignored(rel: str, is_dir: bool, patterns: list[str]) -> bool:
    name = rel.rsplit("/", 1)[-1]
    for pattern in patterns:
        dir_only = pattern.endswith("/")
        pat = pattern.rstrip("/").lstrip("/")
        if dir_only and not is_dir:
            continue
        target = rel if "/" in pat else name
        if fnmatch.fnmatch(target, pat):
            return True
    return False


def _clash(records: list[Located], batch: LoadedBatch) -> LoadError | None:
    """A source whose artifact ids another source of the batch already holds is left out."""
    held = {r.record.id: r.source for r in batch.records if isinstance(r.record, CatalogEntry)}
    for item in records:
        if isinstance(item.record, CatalogEntry) and item.record.id in held:
            return LoadError(
                f"id {item.record.id!r} is also read from {held[item.record.id]}",
                source=item.source,
            )
    return None


def _check_duplicates(batch: LoadedBatch, problems: _Problems) -> None:
    seen_entries: dict[tuple[str, str], Located] = {}
    seen_types: dict[str, Located] = {}
    for item in batch.records:
        record = item.record
        if isinstance(record, CatalogEntry):
            key = (record.id, record.version)
            if key in seen_entries:
                first = seen_entries[key]
                problems.add(
                    LoadError(
                        f"duplicate entry {record.id!r} version {record.version} "
                        f"(first at {first.source}:{first.line})",
                        source=item.source,
                        line=item.line,
                    )
                )
            else:
                seen_entries[key] = item
        else:
            if record.type in seen_types and seen_types[record.type].record != record:
                first = seen_types[record.type]
                problems.add(
                    LoadError(
                        f"type {record.type!r} declared twice with different content "
                        f"(first at {first.source}:{first.line})",
                        source=item.source,
                        line=item.line,
                    )
                )
            seen_types.setdefault(record.type, item)
