"""The L-gent exception tree. Every error a public call raises is one of these.

    LGentError
    ├── ValidationError           a value broke a model rule (names field, and file:line when loading)
    ├── CatalogError              the catalog store refused or failed an operation
    │   ├── NotFoundError         no entry with that id (or id@version)
    │   ├── CatalogCorruptError   the database file is unreadable, empty or not an L-gent catalog
    │   ├── CatalogUnreachableError  a shared (PostgreSQL) catalog cannot be reached
    │   ├── OwnershipError        a source claims an artifact another source owns
    │   └── ReadOnlyHomeError     a write was asked of a home that cannot be written
    ├── LoadError                 a catalog file or folder could not be read or parsed
    │   └── LoadStoppedError      a load was asked to stop while reading: nothing committed
    ├── QueryError                a query could not be understood
    │   ├── QuerySyntaxError      the keyword grammar failed at a position
    │   └── ConstraintError       a constraint string could not be parsed
    ├── TypeLatticeError          an unknown type, a bad parametric type, or a subtype cycle
    ├── IndexError_               a derived index is missing, stale or unreadable
    │   ├── IndexNotReadyError    a brain's index is still being built (how far along)
    │   ├── BuildStoppedError     a long build was asked to stop (the home closes); work kept
    │   └── IndexCorruptError     a derived index is damaged (a checksum, a score out of range)
    ├── DiskFullError             the disk is full: nothing was written, nothing committed lost
    ├── ModelUnavailableError     the embedding model or its dependencies cannot be loaded
    ├── DependencyError           no artifact satisfies a type requirement
    ├── AccessDeniedError         the caller's scope does not allow this write (``lgent.scopes``)
    └── SettingsError             a bad key or value in settings / lgent.toml

Backend errors (sqlite3, tantivy, faiss, pydantic) are converted at the boundary with
``raise ... from``, so callers only ever need ``except LGentError``.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


class LGentError(Exception):
    """Base class of every error L-gent raises on purpose."""


@dataclass(frozen=True)
class FieldProblem:
    """One validation problem: which field, what is wrong, and the offending value."""

    field: str
    message: str
    value: Any = None

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class ValidationError(LGentError):
    """A value broke a model rule. Carries each problem and, when loading, the file and line."""

    def __init__(
        self,
        problems: list[FieldProblem],
        *,
        source: str | None = None,
        line: int | None = None,
        record_id: str | None = None,
    ) -> None:
        self.problems = problems
        self.source = source
        self.line = line
        self.record_id = record_id
        super().__init__(self._render())

    @property
    def fields(self) -> list[str]:
        return [p.field for p in self.problems]

    def located(self, *, source: str | None = None, line: int | None = None) -> ValidationError:
        """A copy of this error that also names where the bad record came from."""
        return ValidationError(
            self.problems,
            source=source or self.source,
            line=line if line is not None else self.line,
            record_id=self.record_id,
        )

    def _render(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source + (f":{self.line}" if self.line is not None else "") + ": "
        what = f"entry {self.record_id!r}: " if self.record_id else ""
        details = "; ".join(str(p) for p in self.problems)
        return f"{where}{what}invalid {details}"


class CatalogError(LGentError):
    """The catalog store refused or failed an operation."""


class NotFoundError(CatalogError):
    """No entry with that id (or that id at that version); ``close_ids`` are the known ids
    closest to it, when the caller looked them up."""

    def __init__(
        self, artifact_id: str, version: str | None = None, close_ids: Sequence[str] = ()
    ) -> None:
        self.artifact_id = artifact_id
        self.version = version
        self.close_ids = tuple(close_ids)
        at = f" at version {version}" if version else ""
        hint = f"; did you mean {', '.join(self.close_ids)}?" if self.close_ids else ""
        super().__init__(f"no artifact with id {artifact_id!r}{at}{hint}")


class CatalogCorruptError(CatalogError):
    """The database file is unreadable, or was written by an unknown format version."""


class CatalogUnreachableError(CatalogError):
    """A shared catalog's database cannot be reached (down, or the connection was lost)."""


class OwnershipError(CatalogError):
    """A source claims an artifact that another source owns (``lgent.catalog.ownership``):
    nothing of it is written. ``owner`` and ``claimant`` are the two sources (``Owner``s)."""

    def __init__(self, artifact_id: str, owner: object, claimant: object) -> None:
        self.artifact_id = artifact_id
        self.owner = owner
        self.claimant = claimant
        imported = getattr(claimant, "imported", False)
        hint = (
            "an import changes only what its own source wrote: give the server, API or agent "
            "another name in that source, or remove the artifact first if it should now come "
            "from this one"
            if imported
            else "an import's artifacts change only through that import: import its source "
            "again, or remove the artifact first"
        )
        super().__init__(
            f"artifact {artifact_id!r} belongs to {owner}; {claimant} may not change it, so "
            f"nothing of it was written ({hint})"
        )


class ReadOnlyHomeError(CatalogError):
    """A write (load, register, remove) was asked of a home that cannot be written: a read-only
    mount, a snapshot, a folder without write permission. Reads still work."""


class DiskFullError(LGentError):
    """The disk (or the quota, or the file size limit) is full: the write was not made, and
    nothing committed before it was lost."""


_SQLITE_FULL, _SQLITE_IOERR = 13, 10


def disk_full(where: str | os.PathLike[str], err: BaseException) -> bool:
    """Whether ``err`` (an OSError or a sqlite3 error) came from a full disk: it says so (ENOSPC,
    EDQUOT, EFBIG; SQLITE_FULL), or it is SQLite's "disk I/O error" (what it says when it cannot
    create a journal) while the disk holding ``where`` has no room left."""
    if isinstance(err, OSError) and err.errno in _FULL:
        return True
    code = getattr(err, "sqlite_errorcode", None)
    if code == _SQLITE_FULL:
        return True
    if not isinstance(code, int) or code & 0xFF != _SQLITE_IOERR:
        return False
    try:
        return os.statvfs(os.path.dirname(os.fspath(where)) or ".").f_bavail == 0
    except OSError:
        return False


def write_error(what: str, err: OSError, otherwise: type[LGentError]) -> LGentError:
    """The typed error for an ``OSError`` while writing ``what``: ``DiskFullError`` when the
    disk, quota or file size limit is full, else ``otherwise``."""
    reason = err.strerror or str(err)
    if err.errno in _FULL:
        return DiskFullError(f"{what}: the disk is full ({reason}); nothing was written")
    return otherwise(f"{what}: {reason}")


class LoadError(LGentError):
    """A catalog file or folder could not be read or parsed.

    When a load finds several problems they are all in ``errors`` (each a LoadError or a
    ValidationError naming file:line:field); the message is the first plus a count.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        errors: list[LGentError] | None = None,
    ):
        self.source = source
        self.line = line
        self.errors: list[LGentError] = errors if errors is not None else [self]
        where = ""
        if source is not None:
            where = source + (f":{line}" if line is not None else "") + ": "
        super().__init__(where + message)


class LoadStoppedError(LoadError):
    """A load was asked to stop (Ctrl-C, the home closing) while it read its sources: nothing
    was committed. Once its commit has begun, a load is no longer stopped: it commits."""


class QueryError(LGentError):
    """A query could not be understood."""


class QuerySyntaxError(QueryError):
    """The keyword grammar failed at a position.

    ``str(err)`` is one line; ``err.pretty()`` adds the query with a caret under the spot.
    """

    def __init__(self, query: str, position: int, expected: str, found: str) -> None:
        self.query = query
        self.position = position
        self.expected = expected
        self.found = found
        super().__init__(f"syntax error at position {position}: expected {expected}, found {found}")

    def pretty(self) -> str:
        shown = self.query.replace("\n", " ").replace("\t", " ")
        return f"{self}\n  {shown}\n  {' ' * self.position}^"


class ConstraintError(QueryError):
    """A constraint string could not be parsed or names an unknown attribute."""

    def __init__(self, constraint: str, message: str) -> None:
        self.constraint = constraint
        super().__init__(f"bad constraint {constraint!r}: {message}")


class TypeLatticeError(LGentError):
    """An unknown type, a malformed parametric type, or a subtype cycle."""


class TypeCycleError(TypeLatticeError):
    """Subtype declarations form a cycle; ``cycle`` lists it in order."""

    def __init__(self, cycle: list[str]) -> None:
        self.cycle = cycle
        super().__init__("subtype cycle: " + " -> ".join([*cycle, cycle[0]]))


class IndexError_(LGentError):
    """A derived index is missing, stale or unreadable."""


class IndexNotReadyError(IndexError_):
    """A brain's index is still being built or caught up; the message says how far along."""


class BuildStoppedError(IndexError_):
    """A long index build was asked to stop (the home is closing, Ctrl-C): the batches it had
    already written (embedded vectors) are kept, and the next build starts from them."""


class IndexCorruptError(IndexError_):
    """A derived index is damaged: a file failed its checksum, or an answer fell outside what
    the brain can give (a cosine similarity above 1). It is not served, and is rebuilt."""


class ModelUnavailableError(LGentError):
    """The embedding model, or a package it needs, cannot be loaded."""


class DependencyError(LGentError):
    """No artifact satisfies a type requirement. ``candidates`` lists the closest and why each failed."""

    def __init__(self, message: str, candidates: list[Any] | None = None) -> None:
        self.candidates = candidates or []
        super().__init__(message)


class AccessDeniedError(LGentError):
    """The caller's scope (``lgent.scopes``: the token it called with) does not allow this write;
    nothing was written. ``scope`` names the token."""

    def __init__(self, scope: str, message: str) -> None:
        self.scope = scope
        super().__init__(message)


class SettingsError(LGentError):
    """A bad key or value in a settings object or in lgent.toml."""


__all__ = [
    "BuildStoppedError",
    "CatalogCorruptError",
    "CatalogError",
    "CatalogUnreachableError",
    "ConstraintError",
    "DependencyError",
    "DiskFullError",
    "FieldProblem",
    "IndexCorruptError",
    "IndexError_",
    "IndexNotReadyError",
    "LGentError",
    "LoadError",
    "LoadStoppedError",
    "ModelUnavailableError",
    "NotFoundError",
    "OwnershipError",
    "QueryError",
    "QuerySyntaxError",
    "ReadOnlyHomeError",
    "SettingsError",
    "TypeCycleError",
    "TypeLatticeError",
    "ValidationError",
]
