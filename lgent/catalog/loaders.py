"""Read catalog files into validated entries and type declarations, without touching the store.

Formats: JSONL (one entry or type declaration per line), ``*.json`` and ``*.yaml``/``*.yml``
manifests (one object, a list, or ``{"entries": [...], "types": [...]}``), and Markdown tool
cards whose YAML front matter holds the entry. A record with an ``id`` is an entry; one with a
``type`` and no ``id`` is a type declaration.

A folder is read recursively in sorted order. Hidden files and folders, files of other
extensions, and paths matched by a ``.lgentignore`` (gitignore-style globs) at the folder's top
are skipped; Markdown without front matter is skipped too. Every skip is listed in the result.
Every problem found is collected (file:line:field) and raised together as one ``LoadError``.
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lgent import limits
from lgent.errors import LGentError, LoadError, ValidationError
from lgent.models import CatalogEntry, TypeDecl

DATA_SUFFIXES = {".jsonl", ".json", ".yaml", ".yml", ".md", ".markdown"}
MAX_PROBLEMS = 50

Progress = Callable[[int, int, str], None]
"""Called as ``progress(bytes_done, bytes_total, current_file)`` while reading."""


@dataclass(slots=True)
class Located:
    """A parsed record and where it came from."""

    record: CatalogEntry | TypeDecl
    source: str
    line: int


@dataclass(slots=True)
class LoadedBatch:
    """Everything read from a path: records in order, files read, files skipped (with why)."""

    records: list[Located] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

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


def read_path(path: str | Path, progress: Progress | None = None) -> LoadedBatch:
    """Parse a file or a folder. Raises LoadError listing every problem found."""
    root = Path(path)
    if not root.exists():
        raise LoadError(f"no such file or folder: {root}")
    batch = LoadedBatch()
    problems = _Problems()
    if root.is_dir():
        files = list(_walk(root, batch))
    else:
        if root.suffix.lower() not in DATA_SUFFIXES:
            raise LoadError(
                f"{root}: unsupported file type {root.suffix or '(none)'!r} "
                f"(expected one of {', '.join(sorted(DATA_SUFFIXES))})"
            )
        files = [root]
    total = sum(f.stat().st_size for f in files)
    done = 0
    for file in files:

        def partial(n: int, f: Path = file, before: int = done) -> None:
            if progress is not None:
                progress(before + n, total, str(f))

        _read_file(file, batch, problems, partial)
        done += file.stat().st_size
        if progress:
            progress(done, total, str(file))
    _check_duplicates(batch, problems)
    problems.raise_if_any()
    return batch


def _walk(root: Path, batch: LoadedBatch) -> Iterator[Path]:
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
        if path.suffix.lower() not in DATA_SUFFIXES:
            batch.skipped.append(
                (str(path), f"not a catalog file ({path.suffix or 'no extension'})")
            )
            continue
        yield path


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


def _read_file(
    path: Path, batch: LoadedBatch, problems: _Problems, progress: Callable[[int], Any]
) -> None:
    source = str(path)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        problems.add(LoadError(f"invalid UTF-8 at byte {err.start}", source=source, line=line))
        return
    suffix = path.suffix.lower()
    before = len(batch.records)
    if suffix == ".jsonl":
        _read_jsonl(text, source, batch, problems, progress)
    elif suffix == ".json":
        _read_json(text, source, batch, problems)
    elif suffix in (".yaml", ".yml"):
        _read_yaml(text, source, batch, problems, first_line=1)
    else:
        front = _front_matter(text)
        if front is None:
            batch.skipped.append((source, "Markdown without YAML front matter"))
            return
        body, first_line = front
        _read_yaml(body, source, batch, problems, first_line=first_line, single=True)
    if len(batch.records) > before or suffix == ".jsonl":
        batch.files.append(source)


def _read_jsonl(
    text: str, source: str, batch: LoadedBatch, problems: _Problems, progress: Callable[[int], Any]
) -> None:
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        offset += len(line.encode("utf-8"))
        if number % 2000 == 0:
            progress(offset)
        stripped = line.strip()
        if not stripped:
            continue
        if len(line) > limits.MAX_LINE_BYTES:
            problems.add(
                LoadError(
                    f"line longer than {limits.MAX_LINE_BYTES} characters",
                    source=source,
                    line=number,
                )
            )
            continue
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError as err:
            problems.add(
                LoadError(
                    f"invalid JSON: {err.msg} (column {err.colno})", source=source, line=number
                )
            )
            continue
        _add_record(obj, source, number, batch, problems)


def _read_json(text: str, source: str, batch: LoadedBatch, problems: _Problems) -> None:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        problems.add(
            LoadError(
                f"invalid JSON: {err.msg} (column {err.colno})", source=source, line=err.lineno
            )
        )
        return
    for item in _records_of(obj, source, 1, problems):
        _add_record(item, source, 1, batch, problems)


def _read_yaml(
    text: str,
    source: str,
    batch: LoadedBatch,
    problems: _Problems,
    *,
    first_line: int,
    single: bool = False,
) -> None:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        obj = yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = first_line + mark.line if mark is not None else first_line
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        problems.add(LoadError(f"invalid YAML: {problem}", source=source, line=line))
        return
    if obj is None:
        problems.add(LoadError("empty manifest", source=source, line=first_line))
        return
    if single and not isinstance(obj, dict):
        problems.add(
            LoadError(
                "front matter must be a mapping of entry fields", source=source, line=first_line
            )
        )
        return
    items = _records_of(obj, source, first_line, problems)
    nodes = _item_nodes(node, obj)
    for index, item in enumerate(items):
        item_node = nodes[index] if index < len(nodes) else None
        line = first_line + (item_node.start_mark.line if item_node is not None else 0)
        _add_record(item, source, line, batch, problems, item_node, first_line)


def _item_nodes(node: yaml.Node | None, obj: Any) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if (
        isinstance(node, yaml.MappingNode)
        and isinstance(obj, dict)
        and ("entries" in obj or "types" in obj)
    ):
        found: list[yaml.Node] = []
        for key in ("types", "entries"):
            for k, v in node.value:
                if k.value == key and isinstance(v, yaml.SequenceNode):
                    found.extend(v.value)
        return found
    return [node] if node is not None else []


def _records_of(obj: Any, source: str, line: int, problems: _Problems) -> list[Any]:
    if isinstance(obj, list):
        return obj
    if isinstance(obj, dict) and ("entries" in obj or "types" in obj) and "id" not in obj:
        extra = set(obj) - {"entries", "types"}
        if extra:
            problems.add(
                LoadError(
                    f"unknown top-level key(s): {', '.join(sorted(extra))}",
                    source=source,
                    line=line,
                )
            )
        types, entries = obj.get("types") or [], obj.get("entries") or []
        if not isinstance(types, list) or not isinstance(entries, list):
            problems.add(LoadError("'entries' and 'types' must be lists", source=source, line=line))
            return []
        return [*types, *entries]
    return [obj]


def _add_record(
    obj: Any,
    source: str,
    line: int,
    batch: LoadedBatch,
    problems: _Problems,
    node: yaml.Node | None = None,
    first_line: int = 1,
) -> None:
    if not isinstance(obj, dict):
        problems.add(
            LoadError(f"expected an object, got {type(obj).__name__}", source=source, line=line)
        )
        return
    try:
        record: CatalogEntry | TypeDecl
        if "id" in obj:
            record = CatalogEntry.parse(obj, source=source, line=line)
        elif "type" in obj:
            record = TypeDecl.parse(obj, source=source, line=line)
        else:
            problems.add(
                LoadError(
                    "record is neither an entry (needs 'id') nor a type declaration (needs 'type')",
                    source=source,
                    line=line,
                )
            )
            return
    except ValidationError as err:
        if node is not None and err.problems:
            key_line = _key_line(node, err.problems[0].field.split(".")[0])
            if key_line is not None:
                err = err.located(line=first_line + key_line)
        problems.add(err)
        return
    batch.records.append(Located(record, source, line))


def _key_line(node: yaml.Node, key: str) -> int | None:
    if isinstance(node, yaml.MappingNode):
        for k, _ in node.value:
            if getattr(k, "value", None) == key:
                return int(k.start_mark.line)
    return None


def _front_matter(text: str) -> tuple[str, int] | None:
    """The YAML between a leading ``---`` line and the next ``---`` (or ``...``) line."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].strip() in ("---", "..."):
            return "\n".join(lines[1:index]), 2
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
