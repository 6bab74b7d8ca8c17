"""Read sources into validated entries and type declarations, without touching the store.

Each file is read by one reader (``lgent.catalog.readers``): the one named by the caller
(``lgent import KIND``), or the first whose detector takes the file (``lgent load``), so a folder
may mix formats. L-gent's native formats are JSONL (one entry or type declaration per line),
``*.json`` and ``*.yaml``/``*.yml`` manifests (one object, a list, or ``{"entries": [...],
"types": [...]}``), and Markdown tool cards whose YAML front matter holds the entry; a record
with an ``id`` is an entry, one with a ``type`` and no ``id`` a type declaration.

A folder is read recursively in sorted order. Hidden files and folders, files of other
extensions, and paths matched by a ``.lgentignore`` (gitignore-style globs) at the folder's top
are skipped; Markdown without front matter is skipped too; so are what is not a regular file
(FIFOs, devices, sockets), unreadable files and folders, and symlinks that point nowhere, loop,
or lead out of the folder (unless allowed). Every skip is listed in the result with its reason.
A problem in a native file is collected (file:line:field) and raised with every other one as one
``LoadError``; a problem in an ecosystem source (MCP, OpenAPI...) leaves that source out, named
with the reason in ``rejected``, and the rest of the load goes on.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lgent.catalog.kind_inference import KindInference, catalog_vocabulary, kind_declarations
from lgent.catalog.read_workers import worker_count
from lgent.catalog.readers import ReaderRegistry
from lgent.catalog.readers.base import Document, Located, ReadContext, Reader
from lgent.catalog.source_reads import SourceRead, read_source
from lgent.config import LoadSettings
from lgent.errors import LGentError, LoadError, LoadStoppedError
from lgent.home import Home
from lgent.models import CatalogEntry, TypeDecl

if TYPE_CHECKING:
    from lgent.kinds import Vocabulary

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
    entry_sources: dict[str, str] = field(default_factory=dict, repr=False)
    """Each entry id in ``records`` -> the source it was last read from (kept by ``add``)."""
    harvested: bool = False
    """Read from a live server (``read_document``): a problem with it is an error, not a source
    left out of a larger load."""
    kind_types: list[TypeDecl] = field(default_factory=list)
    """The vocabulary's kinds the catalog does not declare, added with ecosystem sources so
    that every kind an entry names is a type (``kind_inference.kind_declarations``)."""
    inference: KindInference | None = field(default=None, repr=False)
    """The kind inference the readers used (its vocabulary, and what it cost)."""

    def add(self, records: list[Located]) -> None:
        """Append records read from one source."""
        self.records.extend(records)
        for item in records:
            if isinstance(item.record, CatalogEntry):
                self.entry_sources[item.record.id] = item.source

    def leave_out(self, source: str, reason: str) -> None:
        """Drop everything read from ecosystem source ``source`` and name it in ``rejected``."""
        dropped = {
            r.record.id
            for r in self.records
            if r.source == source and isinstance(r.record, CatalogEntry)
        }
        self.records = [r for r in self.records if r.source != source]
        self.entry_sources = {i: s for i, s in self.entry_sources.items() if s != source}
        self.files = [f for f in self.files if f != source]
        self.formats.pop(source, None)
        self.synced.discard(source)
        self.wholes = [w for w in self.wholes if w not in dropped]
        self.rejected.append((source, reason))

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
    path: str | Path | Sequence[str | Path],
    progress: Progress | None = None,
    *,
    kind: str | None = None,
    registry: ReaderRegistry | None = None,
    options: LoadSettings | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    declared: Iterable[TypeDecl] = (),
) -> LoadedBatch:
    """Parse a file or a folder (or several, read as one batch in the order given; a file
    named twice is read once), each file in its detected format (or all in format ``kind``).
    Raises LoadError listing every problem found in native files. ``options`` sets the file size
    limit and whether symlinks may lead out of the folder (``[load]`` in lgent.toml).
    ``cancelled()`` is asked before each file, whenever a reader reports progress through one,
    and at the end (true: ``LoadStoppedError``).

    ``declared``: the catalog's type declarations. Value kinds are inferred with the shipped
    vocabulary extended by the catalog's kinds and the batch's own (a load that declares new
    kinds beside ecosystem sources reads them again with those kinds: their kinds never depend
    on the order of the files)."""
    roots = [Path(path)] if isinstance(path, (str, Path)) else [Path(p) for p in path]
    if not roots:
        raise LoadError("no file or folder to load")
    stored = {t.type: t for t in declared}
    vocabulary = catalog_vocabulary(stored.values())
    batch = _read_path(roots, progress, kind, registry, options, cancelled, vocabulary)
    if batch.synced:
        own = {t.type: t for t in batch.types if stored.get(t.type) != t}
        wider = catalog_vocabulary({**stored, **own}.values()) if own else vocabulary
        if _kinds_of(wider) != _kinds_of(vocabulary):
            vocabulary = wider
            batch = _read_path(roots, progress, kind, registry, options, cancelled, vocabulary)
        _add_kind_types(batch, vocabulary, stored)
    return batch


def _kinds_of(vocabulary: Vocabulary) -> dict[str, TypeDecl]:
    return {kind.name: kind.declaration for kind in vocabulary}


def _add_kind_types(
    batch: LoadedBatch, vocabulary: Vocabulary, stored: dict[str, TypeDecl]
) -> None:
    """The kinds neither the catalog nor the batch declares, as types to add with the batch."""
    known = {**stored, **{t.type: t for t in batch.types}}
    batch.kind_types = kind_declarations(vocabulary, known)


def _files_of(
    root: Path, batch: LoadedBatch, suffixes: frozenset[str], opts: LoadSettings
) -> list[Path]:
    """The catalog files ``root`` names: itself, or the files of the folder it is (walked as
    ``_walk`` does); ``LoadError`` for a missing, unreadable or system path, or a file of an
    unsupported type."""
    try:
        if not root.exists():
            raise LoadError(f"no such file or folder: {root}")
        system = system_folder(root.resolve())
        is_dir = root.is_dir()
    except OSError as err:
        raise LoadError(f"{root} cannot be read ({_why(err)})") from None
    if system is not None:
        raise LoadError(f"{root} is in the system folder {system}: it holds no catalog files")
    if is_dir:
        return _walk(root, batch, suffixes, opts)
    if root.suffix.lower() not in suffixes:
        raise LoadError(
            f"{root}: unsupported file type {root.suffix or '(none)'!r} "
            f"(expected one of {', '.join(sorted(suffixes))})"
        )
    return [root]


def _files_of_all(
    roots: list[Path], batch: LoadedBatch, suffixes: frozenset[str], opts: LoadSettings
) -> tuple[list[Path], list[bool]]:
    """The files of every root in order, each once (by its resolved path: only several roots
    can name a file twice), and whether each was named itself (a problem with a named file is
    an error, not a skip)."""
    files: list[Path] = []
    named: list[bool] = []
    seen: set[Path] = set()
    for root in roots:
        for file in _files_of(root, batch, suffixes, opts):
            if len(roots) > 1:
                try:
                    key = file.resolve()
                except (OSError, RuntimeError):  # a symlink loop: read (and skipped) as it is
                    key = file.absolute()
                if key in seen:
                    continue
                seen.add(key)
            files.append(file)
            named.append(file is root)
    return files, named


def _read_path(
    roots: list[Path],
    progress: Progress | None,
    kind: str | None,
    registry: ReaderRegistry | None,
    options: LoadSettings | None,
    cancelled: Callable[[], bool],
    vocabulary: Vocabulary,
) -> LoadedBatch:
    inference = KindInference(vocabulary)
    readers = registry or ReaderRegistry.default()
    opts = options or LoadSettings()
    forced = readers.named(kind) if kind is not None else None
    suffixes = forced.suffixes if forced is not None else readers.suffixes
    batch = LoadedBatch(inference=inference)
    problems = _Problems()
    files, named = _files_of_all(roots, batch, suffixes, opts)
    sizes = [_size(f) for f in files]
    total = sum(sizes)
    done = 0

    def check(read: int) -> None:
        if cancelled():
            raise LoadStoppedError(
                f"load stopped: nothing was committed ({read} of {len(files)} file(s) read)"
            )

    def partial_progress(file: Path, before: int, read: int) -> Callable[[int], None]:
        def partial(n: int) -> None:
            check(read)
            if progress is not None:
                progress(before + n, total, str(file))

        return partial

    workers = worker_count(len(files), total) if registry is None else 0
    if workers:  # the same steps, the ecosystem sources read in worker processes
        applied = 0
        for index in _read_in_workers(
            files,
            named,
            (batch, problems),
            opts,
            (readers, forced, inference, kind),
            workers,
            check,
            lambda index: partial_progress(files[index], done, index),  # noqa: B023 - done so far
        ):
            done += sizes[index]
            applied += 1
            if progress:
                progress(done, total, str(files[index]))
        check(applied)  # raises when the reading stopped before the end
    else:
        for read, (file, size) in enumerate(zip(files, sizes, strict=True)):
            check(read)
            raw = _read_bytes(file, batch, problems, forced, opts, named=named[read])
            if raw is not None:
                partial = partial_progress(file, done, read)
                _read_raw(file, raw, batch, problems, partial, readers, forced, inference)
            done += size
            if progress:
                progress(done, total, str(file))
        check(len(files))
    _check_duplicates(batch, problems)
    problems.raise_if_any()
    return batch


def read_document(
    doc: Document,
    kind: str,
    registry: ReaderRegistry | None = None,
    *,
    declared: Iterable[TypeDecl] = (),
) -> LoadedBatch:
    """Read one in-memory document (a live harvest) in format ``kind``, as ``read_path`` reads
    a file of it (``declared``: the catalog's type declarations, whose kinds inference uses)."""
    readers = registry or ReaderRegistry.default()
    stored = {t.type: t for t in declared}
    inference = KindInference(catalog_vocabulary(stored.values()))
    batch = LoadedBatch(harvested=True, inference=inference)
    problems = _Problems()
    _read_doc(doc, batch, problems, lambda _n: None, readers.named(kind), inference)
    _check_duplicates(batch, problems)
    problems.raise_if_any()
    if batch.synced:
        _add_kind_types(batch, inference.vocabulary, stored)
    return batch


SYSTEM_FOLDERS = ("/proc", "/sys", "/dev")
"""The kernel's pseudo-filesystems: never read, even through a symlink that is followed (their
files are not catalogs, and /proc's links lead back to the whole filesystem)."""


def system_folder(path: Path) -> str | None:
    """The pseudo-filesystem ``path`` (already resolved) lies in, or None."""
    for top in SYSTEM_FOLDERS:
        if path == Path(top) or path.is_relative_to(top):
            return top
    try:
        device = path.stat().st_dev
    except OSError:
        return None
    for top in SYSTEM_FOLDERS[:2]:  # a bind mount of /proc or /sys elsewhere
        try:
            if os.stat(top).st_dev == device:
                return top
        except OSError:
            continue
    return None


def _walk(
    root: Path, batch: LoadedBatch, suffixes: frozenset[str], opts: LoadSettings
) -> list[Path]:
    """The catalog files under ``root``, in sorted order; every other path met is skipped with
    its reason in ``batch.skipped`` (hidden paths silently). Symlinks are resolved: one that
    points nowhere or loops, or (unless ``opts.follow_symlinks``) leads out of ``root``, is
    skipped; so is one into a system pseudo-filesystem (/proc, /sys, /dev) whatever the option,
    anything that is not a regular file, and a folder that cannot be read. No file system
    error escapes: each is a skip naming the path."""
    patterns = _ignore_patterns(root)
    inside = root.resolve()
    found: list[Path] = []
    pending = [root]
    seen = {inside}
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                children = sorted(listing, key=lambda e: e.name)
        except OSError as err:
            batch.skipped.append((str(folder), f"folder cannot be read ({_why(err)})"))
            continue
        for child in children:
            path = Path(child.path)
            if child.name.startswith("."):
                continue
            try:
                _visit(
                    root, inside, path, child, batch, suffixes, opts, patterns, seen, pending, found
                )
            except OSError as err:
                batch.skipped.append((str(path), f"cannot be read ({_why(err)})"))
    return sorted(found)


def _visit(
    root: Path,
    inside: Path,
    path: Path,
    child: os.DirEntry[str],
    batch: LoadedBatch,
    suffixes: frozenset[str],
    opts: LoadSettings,
    patterns: list[str],
    seen: set[Path],
    pending: list[Path],
    found: list[Path],
) -> None:
    """Decide about one entry of a folder ``_walk`` reads (a file to read, a folder to read
    next, or a skip with its reason); an OSError is the caller's to turn into a skip."""
    rel = path.relative_to(root).as_posix()
    target = path
    if child.is_symlink():
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError) as err:
            batch.skipped.append((str(path), f"symlink {_why_link(err)}"))
            return
        system = system_folder(target)
        if system is not None:
            batch.skipped.append(
                (str(path), f"symlink to {target}, in the system folder {system} (never read)")
            )
            return
        if not target.is_relative_to(inside) and not opts.follow_symlinks:
            batch.skipped.append(
                (
                    str(path),
                    f"symlink to {target}, outside the loaded folder (allow it with "
                    "--follow-symlinks or load.follow_symlinks = true)",
                )
            )
            return
    is_dir = target.is_dir()
    if _ignored(rel, is_dir, patterns):
        batch.skipped.append((str(path), "matched by .lgentignore"))
        return
    if is_dir:
        if Home.is_home(target):
            batch.skipped.append(
                (str(path), "an L-gent home (its catalog and indexes are not catalog files)")
            )
        elif target != path and target.is_relative_to(inside):
            batch.skipped.append(
                (str(path), f"symlink to a folder inside the loaded folder ({target})")
            )
        elif target.resolve() in seen:
            batch.skipped.append((str(path), f"folder {target} already read (a loop)"))
        else:
            seen.add(target.resolve())
            pending.append(path)
        return
    if path.suffix.lower() not in suffixes:
        batch.skipped.append((str(path), f"not a catalog file ({path.suffix or 'no extension'})"))
        return
    found.append(path)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _why(err: OSError) -> str:
    return err.strerror or type(err).__name__


def _why_link(err: BaseException) -> str:
    if isinstance(err, FileNotFoundError):
        return "that points nowhere (dangling)"
    if isinstance(err, RuntimeError) or getattr(err, "errno", None) == errno.ELOOP:
        return "that loops (a cycle of symlinks)"
    return f"that cannot be followed ({_why(err) if isinstance(err, OSError) else err})"


_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def _read_bytes(
    path: Path,
    batch: LoadedBatch,
    problems: _Problems,
    forced: Reader | None,
    opts: LoadSettings,
    *,
    named: bool,
) -> bytes | None:
    """The bytes of ``path`` if it is a readable regular file within the size limit. It is
    opened without blocking (a FIFO never stalls the load) and read no further than the limit
    (a device never fills memory). Otherwise: a file named directly is a LoadError; a file met
    in a folder is skipped with the reason, or (too large) a problem of the load."""
    source = str(path)

    def skip(reason: str) -> None:
        if named:
            problems.add(LoadError(reason, source=source))
        else:
            batch.skipped.append((source, reason))

    def irregular(mode: int) -> bool:
        if stat.S_ISREG(mode):
            return False
        kind = next((name for test, name in _KINDS if test(mode)), "not a plain file")
        skip(f"not a regular file ({kind})")
        return True

    try:  # a device or socket is never opened; what is opened is checked again (a swap)
        if irregular(os.stat(path).st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        skip(f"cannot be read ({_why(err)})")
        return None
    limit = opts.max_file_bytes
    try:
        if irregular(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as err:
        skip(f"cannot be read ({_why(err)})")
        return None
    finally:
        os.close(fd)
    if got > limit:
        error = LoadError(
            f"file is over the {opts.max_file_mib} MiB limit for one source "
            "(load.max_file_mib in lgent.toml)",
            source=source,
        )
        if forced is not None and forced.skips_bad_sources:
            batch.rejected.append((source, str(error)))
        else:
            problems.add(error)
        return None
    return b"".join(chunks)


def _read_raw(
    path: Path,
    raw: bytes,
    batch: LoadedBatch,
    problems: _Problems,
    progress: Callable[[int], Any],
    readers: ReaderRegistry,
    forced: Reader | None,
    inference: KindInference,
) -> None:
    source = str(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        problems.add(LoadError(f"invalid UTF-8 at byte {err.start}", source=source, line=line))
        return
    doc = Document(source, text, path.suffix)
    reader = forced or readers.detect(doc)
    _read_doc(doc, batch, problems, progress, reader, inference)


def _read_in_workers(
    files: list[Path],
    named: list[bool],
    into: tuple[LoadedBatch, _Problems],
    opts: LoadSettings,
    reading: tuple[ReaderRegistry, Reader | None, KindInference, str | None],
    workers: int,
    check: Callable[[int], None],
    partial: Callable[[int], Callable[[int], None]],
) -> Iterator[int]:
    """Read ``files`` as the serial loop does, their ecosystem sources in worker processes
    (``read_workers``): each file's checks, then what was read of it, are put into the batch
    in the files' order; yields each file's index once it is in. A source a worker did not
    read is read here (``partial(index)``: its progress). ``check(n)`` raises once the load
    is to stop (``n`` files were read); the reading then ends early."""
    from lgent.catalog.read_workers import ReadWorkers

    batch, problems = into
    readers, forced, inference, kind = reading

    checked: list[tuple[LoadedBatch, _Problems, bytes | None]] = []
    sources: list[tuple[str, str, bytes] | None] = []
    for file, is_named in zip(files, named, strict=True):
        part, found = LoadedBatch(), _Problems()
        raw = _read_bytes(file, part, found, forced, opts, named=is_named)
        checked.append((part, found, raw))
        sources.append(None if raw is None else (str(file), file.suffix, raw))
    stop = [False]

    def stopped() -> bool:
        try:
            check(0)
        except LoadStoppedError:
            stop[0] = True
        return stop[0]

    with ReadWorkers(workers, inference.vocabulary, kind) as pool:
        for index, answer in pool.read_all(sources, stopped):
            check(index)
            part, found, raw = checked[index]
            batch.skipped.extend(part.skipped)
            batch.rejected.extend(part.rejected)
            for problem in found.items:
                problems.add(problem)
            file = files[index]
            if raw is not None and answer is None:
                _read_raw(file, raw, batch, problems, partial(index), readers, forced, inference)
            elif answer is not None:
                settle(batch, str(file), file.suffix, answer, skips=True)
            checked[index] = (part, found, None)
            yield index


def _read_doc(
    doc: Document,
    batch: LoadedBatch,
    problems: _Problems,
    progress: Callable[[int], Any],
    reader: Reader | None,
    inference: KindInference,
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
        problem=found.append if reader.skips_bad_sources else problems.add,
        progress=progress,
        kinds=inference,
    )
    read = read_source(doc, reader, ctx, found)
    settle(batch, source, doc.suffix, read, skips=reader.skips_bad_sources)


def settle(batch: LoadedBatch, source: str, suffix: str, read: SourceRead, *, skips: bool) -> None:
    """Add what was read of one source to ``batch``, or leave an ecosystem source (``skips``)
    out for its problem or for an id another source of the batch holds."""
    problem = read.problem
    if skips and problem is None:
        clash = _clash(read.records, batch)
        if clash is not None:
            problem = str(clash)
    if problem is not None:
        batch.rejected.append((source, problem))
        return
    batch.warnings.extend(read.warnings)
    batch.add(read.records)
    if read.records or suffix == ".jsonl":
        batch.files.append(source)
        batch.formats[source] = read.reader
    if skips:
        batch.synced.add(source)
        batch.wholes.extend(read.wholes)


def _ignore_patterns(root: Path) -> list[str]:
    ignore = root / ".lgentignore"
    if not ignore.is_file():
        return []
    try:
        lines = ignore.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise LoadError(f"cannot read .lgentignore: {err}", source=str(ignore)) from None
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
    """A source whose artifact ids another source of the batch already holds is left out; so is
    one that holds an id and version twice itself."""
    held = batch.entry_sources
    own: dict[tuple[str, str], Located] = {}
    for item in records:
        if not isinstance(item.record, CatalogEntry):
            continue
        if item.record.id in held:
            return LoadError(
                f"id {item.record.id!r} is also read from {held[item.record.id]}",
                source=item.source,
            )
        key = (item.record.id, item.record.version)
        if key in own:
            return LoadError(
                f"entry {item.record.id!r} version {item.record.version} twice "
                f"(at {own[key].place} and {item.place})",
                source=item.source,
            )
        own[key] = item
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
