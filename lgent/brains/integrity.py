"""Checksums of a persisted index's files, written into its manifest and verified on open.

Every file a manifest names gets ``crc32:<8 hex digits>:<size>`` (zlib's CRC-32 reads about
740 MB/s on the 2-core reference machine, twice SHA-256's; it guards against damaged media
and stray writes, not against an attacker who can write the home anyway). The manifest also
carries a checksum of its own other fields, so a flipped digit in a change number is caught
too. A mismatch means the file is not served: the brain is rebuilt from the catalog and the
mismatch reported. ``lgent doctor`` runs the same check and names the file.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from lgent.errors import IndexError_, write_error

CHECKSUMS = "checksums"
"""The manifest key holding ``{file name: checksum}``."""
SELF = "manifest_checksum"
"""The manifest key holding the checksum of the manifest's other fields."""
_BLOCK = 1 << 22


def file_checksum(path: Path) -> str:
    """``crc32:<hex>:<size>`` of the file at ``path`` (OSError when it cannot be read)."""
    crc = 0
    size = 0
    buffer = bytearray(_BLOCK)  # one buffer read into: no new block allocated per read
    view = memoryview(buffer)
    with path.open("rb", buffering=0) as handle:
        while read := handle.readinto(buffer):
            crc = zlib.crc32(view[:read], crc)
            size += read
    return f"crc32:{crc:08x}:{size}"


def checksums(directory: Path, names: Iterable[str]) -> dict[str, str]:
    """The checksum of each named file in ``directory``."""
    return {name: file_checksum(directory / name) for name in sorted(set(names))}


def _content_checksum(manifest: Mapping[str, Any]) -> str:
    body = {k: v for k, v in manifest.items() if k != SELF}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return f"crc32:{zlib.crc32(text.encode()):08x}"


def sealed(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """``manifest`` with the checksum of its own fields added (write this one)."""
    body = {k: v for k, v in manifest.items() if k != SELF}
    return {**body, SELF: _content_checksum(body)}


def manifest_problem(manifest: Mapping[str, Any]) -> str | None:
    """Why ``manifest`` cannot be trusted (its own checksum is missing or wrong), or None."""
    recorded = manifest.get(SELF)
    if not isinstance(recorded, str):
        return "the manifest carries no checksum of its own"
    if recorded != _content_checksum(manifest):
        return "the manifest does not match its own checksum"
    return None


def file_problems(directory: Path, manifest: Mapping[str, Any]) -> list[str]:
    """Each file the manifest's checksums name that is missing or differs, with what was found
    (an empty list: every file is as written)."""
    recorded = manifest.get(CHECKSUMS)
    if not isinstance(recorded, Mapping):
        return ["the manifest names no file checksums"]
    problems = []
    for name, expected in sorted(recorded.items()):
        path = directory / str(name)
        try:
            found = file_checksum(path)
        except FileNotFoundError:
            problems.append(f"{path}: missing")
            continue
        except OSError as err:
            problems.append(f"{path}: unreadable ({err.strerror or err})")
            continue
        if found != expected:
            problems.append(f"{path}: checksum {found}, the manifest recorded {expected}")
    return problems


def verify(directory: Path, manifest: Mapping[str, Any]) -> list[str]:
    """Every integrity problem of a persisted index: its manifest's own checksum, then its files."""
    problem = manifest_problem(manifest)
    return (
        [f"{directory / 'manifest.json'}: {problem}"]
        if problem
        else file_problems(directory, manifest)
    )


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, flush it to disk and rename it into
    place; a full disk is a ``DiskFullError``."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """``atomic_write_text`` for bytes."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise write_error(f"cannot write {path}", err, IndexError_) from err


def checksummed_files(manifest: Mapping[str, Any]) -> list[str]:
    """The files a manifest records checksums for (every file its index reads): the
    ``BrainSpec.index_files`` of a brain whose index is checksummed."""
    recorded = manifest.get(CHECKSUMS)
    return sorted(str(name) for name in recorded) if isinstance(recorded, Mapping) else []
