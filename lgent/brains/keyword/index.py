"""The tantivy index of the keyword brain: schema, documents, persistence and its manifest.

Text fields are analyzed by ``lgent.analysis`` (``documents``) so that indexing and querying share
one analyzer.
Only the artifact id is stored: the catalog is the one copy of every entry's text, and a doc store
that held it all would make fetching the ids of the top hits several times slower (a stored
document is read by decompressing its whole block; with ids alone the blocks stay cached).
The index lives in ``<home>/indexes/keyword`` beside ``manifest.json`` (format version and the
catalog change number it reflects), written to a temporary file and renamed after each commit.

A rebuild (``fresh``) never touches the live folder while it runs: it builds in a hidden sibling
(``.keyword.build-<token>``), writes that folder's manifest last, then swaps the folders by two
renames (live -> ``.keyword.retired-<token>``, build -> live) and deletes the retired one. An
interrupted or failed rebuild therefore leaves the previous index served. The builder holds a
lock on ``.keyword.build-<token>.lock`` meanwhile; the next open (``sweep_leftovers``) removes
what a builder that died left behind, and puts a retired folder back if it died between the
two renames.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import uuid
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import tantivy

from lgent.brains import integrity
from lgent.brains.keyword.documents import TOKEN_TOKENIZER, DocumentMaker
from lgent.brains.keyword.managed import managed_problem
from lgent.errors import BuildStoppedError, DiskFullError, IndexError_, LGentError
from lgent.models import CatalogEntry

FORMAT_VERSION = 6
"""2: name_prefix; input/output_names hold whole type names. 3: only id stored; author in all.
4: the manifest carries a checksum of every index file and of itself. 5: analyzed fields hold
space-separated tokens for tantivy's whitespace tokenizer (the same terms and positions).
6: each Chinese or Japanese character (ideograph, kana) is a token of its own."""
MANIFEST = "manifest.json"
CANCEL_EVERY = 1000
"""A build asks whether to stop every this many entries (a few hundredths of a second)."""
BUILD = ".{name}.build-{token}"
RETIRED = ".{name}.retired-{token}"
LOCK = BUILD + ".lock"
"""Siblings of the index folder during a rebuild: where it is built, where the folder it
replaces goes for the moment of the swap, and the lock its builder holds until it is done."""

EXACT_FIELDS = (
    "id",
    "name_exact",
    "name_prefix",
    "keywords_exact",
    "author",
    "entity_type",
    "status",
    "execution",
    "version",
    "input",
    "output",
)
TOKEN_FIELDS = (
    "name",
    "keywords",
    "description",
    "author_text",
    "input_text",
    "output_text",
    "input_names",
    "output_names",
    "all",
)
STORED = ("id",)


def build_schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    for field in EXACT_FIELDS:
        builder.add_text_field(
            field, stored=field in STORED, tokenizer_name="raw", index_option="basic"
        )
    for field in TOKEN_FIELDS:
        builder.add_text_field(
            field,
            stored=field in STORED,
            tokenizer_name=TOKEN_TOKENIZER,
            index_option="position",
        )
    return builder.build()


class KeywordIndex:
    """A tantivy index plus its manifest; ``path=None`` keeps it in memory.

    ``fresh``: start empty in a folder beside the live one, which it replaces at its first
    commit (the caller rebuilds it; until then the live index stays as it was). ``read_only``:
    open what is on disk without writing a file; an index that is missing, of another format
    or damaged is then an ``IndexError_`` (the caller builds one in memory instead). ``detail``
    says what was wrong with the files found on disk, when something was (they are not served:
    the index starts empty, unbuilt, and is rebuilt from the catalog)."""

    def __init__(self, path: Path | None, *, fresh: bool = False, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        self.schema = build_schema()
        self.change_number = -1
        self.detail = ""
        self._building: _Build | None = None
        """The rebuild folder of a ``fresh`` index until its first commit swaps it in."""
        self._index = self._open(fresh)

    @property
    def directory(self) -> Path | None:
        """Where the index files are now: the rebuild folder until it is swapped in."""
        return self._building.folder if self._building is not None else self.path

    # -- persistence -----------------------------------------------------------------------

    def _open(self, fresh: bool) -> tantivy.Index:
        if self.path is None:
            return tantivy.Index(self.schema)
        if self.read_only:
            problem = "a rebuild was asked for" if fresh else self._problem()
            if problem:
                raise IndexError_(f"the keyword index in {self.path} cannot be used: {problem}")
            try:
                return tantivy.Index.open(str(self.path))
            except ValueError as err:
                raise IndexError_(f"cannot open the keyword index {self.path}: {err}") from err
        sweep_leftovers(self.path)
        if fresh:
            self._building = _Build.start(self.path)
            return self._new_index(self._building.folder)
        problem = self._problem()
        if problem:
            self.detail = problem
            shutil.rmtree(self.path, ignore_errors=True)
        _mkdir(self.path)
        try:
            index = tantivy.Index(self.schema, path=str(self.path), reuse=True)
        except ValueError as err:  # an unreadable index is rebuilt, and the caller is told
            shutil.rmtree(self.path, ignore_errors=True)
            index = self._new_index(self.path)
            self.detail = f"tantivy could not open it ({err})"
            return index
        if not problem:
            manifest = self._read_manifest()
            assert manifest is not None
            self.change_number = int(manifest["change_number"])
        return index

    def _new_index(self, folder: Path) -> tantivy.Index:
        """An empty index in ``folder`` (made if missing)."""
        _mkdir(folder)
        try:
            return tantivy.Index(self.schema, path=str(folder), reuse=True)
        except ValueError as err:
            raise _tantivy_error(f"cannot create the keyword index {folder}", err) from err

    def _problem(self) -> str:
        """Why the index on disk cannot be served as it is ("" when it can)."""
        assert self.path is not None
        if not (self.path / MANIFEST).exists():
            return "not built yet" if not self.path.exists() else "no manifest"
        manifest = self._read_manifest()
        if manifest is None:
            return f"{self.path / MANIFEST} is unreadable"
        if manifest.get("format_version") != FORMAT_VERSION:
            return f"format {manifest.get('format_version')!r}, this L-gent writes {FORMAT_VERSION}"
        damaged = integrity.verify(self.path, manifest)
        managed = None if damaged else managed_problem(self.path, manifest)
        if damaged or managed:
            return "damaged: " + "; ".join(damaged or [str(managed)])
        return ""

    def _read_manifest(self) -> dict[str, Any] | None:
        assert self.path is not None
        try:
            data = json.loads((self.path / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("change_number"), int):
            return None
        return data

    def _write_manifest(self) -> None:
        folder = self.directory
        if folder is None:
            return
        data = {
            "format_version": FORMAT_VERSION,
            "change_number": self.change_number,
            "documents": self.documents(),
            integrity.CHECKSUMS: integrity.checksums(folder, index_files(folder)),
        }
        integrity.atomic_write_text(folder / MANIFEST, json.dumps(integrity.sealed(data), indent=2))

    # -- writes ----------------------------------------------------------------------------

    def _writer(self) -> tantivy.IndexWriter:
        if self.read_only:
            raise IndexError_(f"the keyword index in {self.path} is read-only")
        try:
            return self._index.writer(heap_size=64_000_000, num_threads=1)
        except ValueError as err:
            raise IndexError_(f"keyword index is locked or unwritable: {err}") from err

    def replace_all(
        self,
        entries: Iterable[CatalogEntry],
        change_number: int,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> None:
        """Index exactly ``entries``; ``cancelled()`` is asked every ``CANCEL_EVERY`` entries
        (true: nothing is committed, and ``BuildStoppedError`` is raised)."""
        writer = self._writer()
        document = DocumentMaker()
        try:
            writer.delete_all_documents()
            for n, entry in enumerate(entries, start=1):
                writer.add_document(document(entry))
                if n % CANCEL_EVERY == 0 and cancelled():
                    writer.rollback()
                    raise BuildStoppedError(f"the keyword build stopped after {n} entries")
            writer.commit()
            writer.wait_merging_threads()
        except ValueError as err:
            raise _tantivy_error("keyword index build failed", err) from err
        self._committed(change_number)

    def apply(
        self, upserts: Sequence[CatalogEntry], removals: Sequence[str], change_number: int
    ) -> None:
        writer = self._writer()
        try:
            for artifact_id in [*removals, *(e.id for e in upserts)]:
                writer.delete_documents_by_term("id", artifact_id)
            document = DocumentMaker()
            for entry in upserts:
                writer.add_document(document(entry))
            writer.commit()
            writer.wait_merging_threads()
        except ValueError as err:
            raise _tantivy_error("keyword index update failed", err) from err
        self._committed(change_number)

    def _committed(self, change_number: int) -> None:
        self._index.reload()
        self.change_number = change_number
        self._write_manifest()
        if self._building is not None:
            self._swap_in(self._building)

    def _swap_in(self, build: _Build) -> None:
        """Put the committed rebuild folder in the live one's place and read it there."""
        assert self.path is not None
        retired = build.sibling(RETIRED)
        try:
            if self.path.exists():
                os.rename(self.path, retired)
            try:
                os.rename(build.folder, self.path)
            except OSError:
                if retired.exists():
                    os.rename(retired, self.path)  # the previous index stays live
                raise
        except OSError as err:
            self.close()
            raise IndexError_(
                f"cannot put the rebuilt keyword index in place of {self.path}: "
                f"{err.strerror or err}; the previous index is kept"
            ) from err
        self._building = None
        shutil.rmtree(retired, ignore_errors=True)
        build.release()
        try:
            _sync_folder(self.path.parent)
            self._index = tantivy.Index(self.schema, path=str(self.path), reuse=True)
        except (OSError, ValueError) as err:
            raise IndexError_(f"cannot open the rebuilt keyword index {self.path}: {err}") from err

    def close(self) -> None:
        """Drop a rebuild that was never swapped in (stopped or failed): the live index, which
        it was to replace, stays as it was."""
        build, self._building = self._building, None
        if build is not None:
            shutil.rmtree(build.folder, ignore_errors=True)
            build.release()

    # -- reads -----------------------------------------------------------------------------

    def searcher(self) -> tantivy.Searcher:
        return self._index.searcher()

    def documents(self) -> int:
        return int(self._index.searcher().num_docs)


class _Build:
    """The folder a rebuild writes beside the live index, and the lock its builder holds on
    ``LOCK`` until the rebuild is swapped in or dropped (``sweep_leftovers`` takes an unheld
    lock as the sign that its builder died)."""

    def __init__(self, live: Path, token: str, lock: BinaryIO) -> None:
        self.live = live
        self.token = token
        self.folder = self.sibling(BUILD)
        self._lock: BinaryIO | None = lock

    @classmethod
    def start(cls, live: Path) -> _Build:
        token = uuid.uuid4().hex
        _mkdir(live.parent)
        lock_path = live.parent / LOCK.format(name=live.name, token=token)
        try:
            lock = lock_path.open("a+b")  # the lock first: a folder without one is never made
            fcntl.flock(lock, fcntl.LOCK_EX)
        except OSError as err:
            raise IndexError_(f"cannot lock {lock_path}: {err.strerror or err}") from err
        build = cls(live, token, lock)
        _mkdir(build.folder)
        return build

    def sibling(self, pattern: str) -> Path:
        return self.live.parent / pattern.format(name=self.live.name, token=self.token)

    def release(self) -> None:
        """Remove the lock file and let go of the lock (the folders are gone by now)."""
        lock, self._lock = self._lock, None
        if lock is not None:
            if not self.sibling(RETIRED).exists():  # else the next sweep puts it back
                self.sibling(LOCK).unlink(missing_ok=True)
            lock.close()


def sweep_leftovers(live: Path) -> None:
    """Clean up after rebuilds of the index at ``live`` whose builder died (its lock is not
    held): put back the folder a swap retired when the live one is missing (the builder died
    between the two renames), then delete its build and retired folders and its lock file."""
    prefix, suffix = LOCK.format(name=live.name, token="\0").split("\0")
    try:
        locks = [p for p in live.parent.iterdir() if p.name.startswith(prefix)]
    except FileNotFoundError:
        return
    for lock_path in locks:
        token = lock_path.name[len(prefix) : len(lock_path.name) - len(suffix)]
        if not lock_path.name.endswith(suffix) or not token:
            continue
        with contextlib.suppress(OSError), lock_path.open("a+b") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # its builder is at work
            retired = live.parent / RETIRED.format(name=live.name, token=token)
            if retired.exists() and not live.exists():
                os.rename(retired, live)
            shutil.rmtree(
                live.parent / BUILD.format(name=live.name, token=token), ignore_errors=True
            )
            shutil.rmtree(retired, ignore_errors=True)
            lock_path.unlink(missing_ok=True)


def _mkdir(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise IndexError_(f"cannot create {folder}: {err.strerror or err}") from err


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entries (the renames just made in it) to disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def index_files(directory: Path) -> list[str]:
    """The files of the committed tantivy index in ``directory``: ``meta.json`` and the files
    of every segment it names (older files tantivy has not collected yet are left out)."""
    meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
    names = ["meta.json"]
    present = {p.name for p in directory.iterdir()}
    for segment in meta.get("segments", []):
        stem = str(segment["segment_id"]).replace("-", "")
        names += [n for n in present if n.startswith(stem + ".") and n.count(".") == 1]
        deletes = segment.get("deletes")
        if deletes:
            names.append(f"{stem}.{deletes['opstamp']}.del")
    return names


def _tantivy_error(what: str, err: ValueError) -> LGentError:
    """tantivy reports I/O failures as ``ValueError`` text; a full disk becomes DiskFullError."""
    text = str(err)
    if "os error 28" in text or "No space left" in text or "os error 27" in text:
        return DiskFullError(f"{what}: the disk is full ({text}); the index was not changed")
    return IndexError_(f"{what}: {text}")
