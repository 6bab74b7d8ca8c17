"""Who sees and changes what: the one rule every surface applies.

A **scope** is what one caller may read and write. Reading is decided artifact by artifact on
its ``ArtifactFacts`` (``Scope.reads``), and nowhere else: the facade turns a scope into the set
of artifacts it reads at a change number (``lgent.facets.FactTable.visible``), and every verb
answers within that set: ``get``, ``list_entries`` and ``count_entries``, facets and totals,
fused queries and one-brain searches (the brains search only inside it), graph questions,
the resolver, hole filling and suggestions (``lgent.graph.scoped.ScopedGraph``: an artifact out
of scope is never a step of a path). An artifact out of scope is invisible: never counted,
never suggested, never named, as if the catalog did not hold it.

A scope reads an artifact when every dimension it restricts admits it:

- ``sources``: glob patterns over the artifact's source (``Owner.key``: ``import:<path or
  URL>``, ``file:<path>``, ``server:<name>``, ``writer:<token>``); empty: any source.
- ``namespaces``: glob patterns over its namespace (what its id holds before the first ``/``;
  an id without one is its own); empty: any namespace.
- ``tags``: it carries at least one of these keywords; empty: any.
- ``statuses``: its status is one of these. A draft (``Status.DRAFT``) is read only by a scope
  that names ``draft`` here, or that may write the draft's namespace (its writers).

Writing is decided by the artifact's id: a scope may write (register, promote, remove) an
artifact whose namespace matches one of its ``write`` patterns; ``write = []`` is read-only
(``AccessDeniedError``, an HTTP 403). Every change records the scope's ``name`` (the token)
in the change log.

Named tokens live in ``lgent.toml`` under ``[access.tokens.<name>]``, each with the SHA-256 of
its secret (``secret_sha256``, lowercase hex; the secret itself is never stored: make one with
``lgent token new``). A token is random, so a fast hash suffices: there is no password to guess
from it. ``[access] anonymous`` says what a request without a token gets.
"""

from __future__ import annotations

import fnmatch
import hashlib
import hmac
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lgent.catalog.records import ArtifactFacts
from lgent.errors import AccessDeniedError, SettingsError
from lgent.ids import namespace_of
from lgent.models import Status

EVERY_STATUS = frozenset(s.value for s in Status)
PUBLISHED = EVERY_STATUS - {Status.DRAFT.value}
"""What a scope reads unless it names its statuses: everything but drafts."""
_HEX = re.compile(r"[0-9a-f]{64}")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
TOKEN_KEYS = ("secret_sha256", "sources", "namespaces", "tags", "statuses", "write")


def _matches(value: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(value, p) for p in patterns)


@dataclass(frozen=True, slots=True, kw_only=True)
class Scope:
    """What one caller reads and writes (the module docstring states the rule)."""

    name: str = ""
    """The token's name, recorded as the writer of every change ("": the home's own user)."""
    sources: tuple[str, ...] = ()
    namespaces: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    statuses: frozenset[str] = PUBLISHED
    write: tuple[str, ...] = ()

    @property
    def everything(self) -> bool:
        """Whether it reads every artifact, drafts included (no set to compute)."""
        unrestricted = not (self.sources or self.namespaces or self.tags)
        return unrestricted and self.statuses >= EVERY_STATUS

    @property
    def writer(self) -> str | None:
        """The name the change log records for its writes (None: the home's own user)."""
        return self.name or None

    def reads(self, facts: ArtifactFacts) -> bool:
        """The rule: whether this scope sees the artifact ``facts`` describe."""
        if self.sources and not _matches(facts.source, self.sources):
            return False
        if self.namespaces and not _matches(facts.namespace, self.namespaces):
            return False
        if self.tags and not any(t in self.tags for t in facts.tags):
            return False
        if facts.status in self.statuses:
            return True
        return facts.status == Status.DRAFT.value and self.writes(facts.id)

    def writes(self, artifact_id: str) -> bool:
        """Whether this scope may write the artifact ``artifact_id``."""
        return _matches(namespace_of(artifact_id), self.write)

    def check_write(self, artifact_id: str) -> None:
        """``AccessDeniedError`` unless this scope may write ``artifact_id``."""
        if self.writes(artifact_id):
            return
        who = f"token {self.name!r}" if self.name else "this caller"
        if not self.write:
            raise AccessDeniedError(self.name, f"{who} may only read: nothing was written")
        raise AccessDeniedError(
            self.name,
            f"{who} may not write {artifact_id!r}: it writes the namespaces "
            f"{', '.join(self.write)} only (nothing was written)",
        )

    def describe(self) -> dict[str, Any]:
        """The scope as plain data (what ``GET /whoami`` answers)."""
        return {
            "name": self.name,
            "sources": list(self.sources),
            "namespaces": list(self.namespaces),
            "tags": list(self.tags),
            "statuses": sorted(self.statuses),
            "write": list(self.write),
        }


OWNER = Scope(statuses=EVERY_STATUS, write=("*",))
"""The home's own user (the library and the CLI): reads and writes everything."""
ANONYMOUS = Scope(name="anonymous")
"""A caller without a token, by default: every published artifact, no writes."""


def hash_secret(secret: str) -> str:
    """What ``secret_sha256`` holds for ``secret``: SHA-256 of its UTF-8 bytes, lowercase hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Token:
    """A named token: the hash of its secret and the scope it grants."""

    scope: Scope
    secret_sha256: str

    def accepts(self, secret: str) -> bool:
        return hmac.compare_digest(hash_secret(secret), self.secret_sha256)


def _strings(value: object, where: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise SettingsError(f"{where}: must be a list of strings, got {value!r}")
    if not all(isinstance(v, str) and v.strip() for v in value):
        raise SettingsError(f"{where}: must be a list of non-empty strings, got {value!r}")
    return tuple(v.strip() for v in value)


def token_of(name: str, table: Mapping[str, Any]) -> Token:
    """The token ``[access.tokens.<name>]`` describes (``SettingsError`` naming the key)."""
    where = f"access.tokens.{name}"
    if not _NAME.fullmatch(name):
        raise SettingsError(f"{where}: a token name is letters, digits and . _ - (64 at most)")
    if not isinstance(table, Mapping):
        raise SettingsError(f"{where}: must be a table")
    unknown = sorted(set(table) - set(TOKEN_KEYS))
    if unknown:
        raise SettingsError(
            f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(TOKEN_KEYS)})"
        )
    digest = table.get("secret_sha256")
    if not isinstance(digest, str) or not _HEX.fullmatch(digest.lower()):
        raise SettingsError(
            f"{where}.secret_sha256: must be the SHA-256 of the token's secret, 64 hex digits "
            "(lgent token new NAME makes a secret and prints it)"
        )
    statuses = frozenset(_strings(table.get("statuses", sorted(PUBLISHED)), f"{where}.statuses"))
    unknown_status = sorted(statuses - EVERY_STATUS)
    if unknown_status:
        raise SettingsError(
            f"{where}.statuses: unknown status(es) {', '.join(unknown_status)} "
            f"(known: {', '.join(sorted(EVERY_STATUS))})"
        )
    scope = Scope(
        name=name,
        sources=_strings(table.get("sources", []), f"{where}.sources"),
        namespaces=_strings(table.get("namespaces", []), f"{where}.namespaces"),
        tags=_strings(table.get("tags", []), f"{where}.tags"),
        statuses=statuses,
        write=_strings(table.get("write", []), f"{where}.write"),
    )
    return Token(scope, digest.lower())


@dataclass(frozen=True, slots=True)
class Tokens:
    """The named tokens of a home (``[access.tokens]``) and what a caller without one gets."""

    tokens: tuple[Token, ...] = ()
    anonymous: Scope | None = field(default=ANONYMOUS)
    """None: a caller must give a token (a 401 without one)."""

    def find(self, secret: str) -> Scope | None:
        """The scope of the token whose secret is ``secret`` (every token is compared, so the
        time taken does not say which one came close), else None."""
        found = None
        for token in self.tokens:
            if token.accepts(secret):
                found = token.scope
        return found

    def named(self, name: str) -> Scope | None:
        return next((t.scope for t in self.tokens if t.scope.name == name), None)


def tokens_of(tokens: Mapping[str, Any], anonymous: str) -> Tokens:
    """``[access]``: its tokens, and ``anonymous``: ``read`` (every published artifact),
    ``none`` (a token is required) or the name of a token whose scope a caller without one
    gets."""
    if not isinstance(tokens, Mapping):
        raise SettingsError("access.tokens: must be a table of tokens")
    parsed = tuple(token_of(str(name), table) for name, table in tokens.items())
    hashes = [t.secret_sha256 for t in parsed]
    if len(set(hashes)) != len(hashes):
        raise SettingsError("access.tokens: two tokens have the same secret")
    if anonymous == "read":
        return Tokens(parsed, ANONYMOUS)
    if anonymous == "none":
        return Tokens(parsed, None)
    named = next((t.scope for t in parsed if t.scope.name == anonymous), None)
    if named is None:
        raise SettingsError(
            f"access.anonymous: must be 'read', 'none' or a token's name, got {anonymous!r}"
        )
    return Tokens(parsed, named)


__all__ = [
    "ANONYMOUS",
    "EVERY_STATUS",
    "OWNER",
    "PUBLISHED",
    "Scope",
    "Token",
    "Tokens",
    "hash_secret",
    "token_of",
    "tokens_of",
]
