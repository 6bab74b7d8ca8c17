"""The real PyPI corpus (~780k package names and one-line summaries) as catalog entry dicts.

The corpus lives outside the repository, at ``../shared/corpora/pypi_catalog.jsonl.gz`` beside the
checkout (or wherever ``$LGENT_PYPI_CORPUS`` points); it is read in place and never copied into
the repo. Each line is ``{"id", "name", "version", "description"}`` (``keywords`` is used when a
line has it). A benchmark that needs it catches :class:`CorpusMissingError` and skips with its
message.

``load_pypi(limit=k)`` returns a deterministic pseudo-random sample of ``k`` packages (ranked by a
keyed hash of each line, not by the alphabetical file order), and samples are nested: the first
``k`` records of ``load_pypi(limit=m)`` are ``load_pypi(limit=k)`` for any ``k <= m``.
"""

from __future__ import annotations

import gzip
import hashlib
import heapq
import json
import os
import re
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PATH = REPO_ROOT.parent / "shared" / "corpora" / "pypi_catalog.jsonl.gz"
ENV_VAR = "LGENT_PYPI_CORPUS"

MAX_ID = 200
MAX_NAME = 300
MAX_DESCRIPTION = 20_000
_ID_BAD = re.compile(r"[^A-Za-z0-9_.:/+\-]+")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_LINE_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_VERSION = re.compile(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")


class CorpusMissingError(FileNotFoundError):
    """The PyPI corpus file is not there; benchmarks that need it skip with this message."""


def default_path() -> Path:
    """``$LGENT_PYPI_CORPUS`` if set, else ``../shared/corpora/pypi_catalog.jsonl.gz``."""
    override = os.environ.get(ENV_VAR)
    return Path(override) if override else DEFAULT_PATH


def sanitize_id(raw: str) -> str:
    """``raw`` made valid for the id rule ``^[A-Za-z0-9][A-Za-z0-9_.:/+\\-]*$`` (<= 200 chars)."""
    text = _ID_BAD.sub("-", raw.strip()).lstrip("_.:/+-")
    return (text or "package")[:MAX_ID]


def semver_of(raw: str) -> str:
    """``MAJOR.MINOR.PATCH`` of a PEP 440 version: ``1.1.0a8`` -> ``1.1.0``, junk -> ``0.0.0``."""
    match = _VERSION.match(raw.strip())
    if match is None:
        return "0.0.0"
    return ".".join(str(int(part or 0)) for part in match.groups())


def to_entry(record: dict[str, Any]) -> dict[str, Any]:
    """One corpus line as a catalog entry dict (``CatalogEntry.parse`` accepts it)."""
    name = str(record.get("name") or record.get("id") or "package")
    entry: dict[str, Any] = {
        "id": sanitize_id(str(record.get("id") or name)),
        "name": _LINE_CONTROL.sub(" ", name).strip()[:MAX_NAME] or "package",
        "entity_type": "tool",
        "version": semver_of(str(record.get("version") or "")),
        "description": _CONTROL.sub(" ", str(record.get("description") or ""))[:MAX_DESCRIPTION],
    }
    keywords = record.get("keywords")
    if isinstance(keywords, str):
        keywords = re.split(r"[,;]", keywords)
    if isinstance(keywords, list):
        cleaned = [_LINE_CONTROL.sub(" ", str(k)).strip()[:100] for k in keywords]
        entry["keywords"] = list(dict.fromkeys(k for k in cleaned if k))[:200]
    return entry


def _line_key(line: bytes, seed: int) -> bytes:
    return hashlib.blake2b(line, digest_size=8, key=seed.to_bytes(8, "little")).digest()


def load_pypi(
    limit: int | None = None, path: Path | str | None = None, *, seed: int = 0
) -> list[dict[str, Any]]:
    """Catalog entry dicts for the corpus: all of it in file order, or a nested sample of ``limit``.

    Raises :class:`CorpusMissingError` when the file is absent. Ids are unique: a clash after
    sanitizing gets a ``-2``, ``-3`` ... suffix.
    """
    source = Path(path) if path is not None else default_path()
    if not source.is_file():
        raise CorpusMissingError(
            f"PyPI corpus not found at {source} (set ${ENV_VAR} to its path); "
            "benchmarks that need it are skipped"
        )
    with gzip.open(source, "rb") as stream:
        if limit is None:
            lines = [line for line in stream if line.strip()]
        else:
            keyed = ((_line_key(line, seed), line) for line in stream if line.strip())
            lines = [line for _, line in heapq.nsmallest(max(limit, 0), keyed)]
    entries: list[dict[str, Any]] = []
    seen: set[str] = set()
    for line_number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
        except ValueError as err:
            raise ValueError(f"{source}: record {line_number} is not JSON: {err}") from err
        entry = to_entry(record)
        base, count = entry["id"], 1
        while entry["id"] in seen:
            count += 1
            entry["id"] = f"{base[: MAX_ID - 8]}-{count}"
        seen.add(entry["id"])
        entries.append(entry)
    return entries
