"""Who may change an artifact: the rule that keeps one source from taking over another's.

Every artifact version records the source that wrote it (``records.Owner``). Sources fall in
two classes:

* **Imports** (``import``: an MCP tools/list, OpenAPI spec, A2A card or OpenAI tool file read
  by ``lgent load`` or ``lgent import``; ``server``: a live MCP server harvested by ``lgent
  import mcp``) are synced, so each owns what it wrote outright: only the same source (the same
  file path or URL, the same configured command or URL) may add a version to it or retire it.
* **Authors** (``file``: L-gent's own catalog files; ``writer``: registrations through the
  library, the HTTP API or MCP) are the catalog's own editors. They may add versions to each
  other's artifacts, as they always could (a catalog file moved to another folder is the same
  author at work), but never to an import's.

A claim that breaks the rule is refused with an ``OwnershipError`` naming the artifact, its
owner and the claimant; it is never merged. An artifact written before owners were recorded
(``unknown``) counts as an author's: an import may not take it over either (remove it first if
it should now come from that import).

A load leaves out a whole ecosystem source whose records make such a claim (named in the
report's ``rejected``, the rest committed), and fails for a native catalog file that makes one
(a native file is loaded whole); a live harvest raises the error. The stores check the rule
again inside the write transaction (``register_batch``), so two processes that race to claim
one id cannot both win.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from lgent.catalog.records import Owner
from lgent.errors import OwnershipError

HARVEST_PREFIXES = {"mcp+stdio:": "stdio:", "mcp+http:": "", "mcp+name:": "name:"}
"""How a live harvest names its source (``lgent.catalog.harvest``) -> the owner's name prefix."""


def owner_of_source(source: str, *, imported: bool) -> Owner:
    """The owner of the records read from ``source``: a harvested server (by the name it was
    given, else its configured command or URL), a URL, or a file by its absolute path; ``imported``: read by an ecosystem
    reader (synced) rather than one of L-gent's own formats."""
    for prefix, kept in HARVEST_PREFIXES.items():
        if source.startswith(prefix):
            return Owner("server", kept + source.removeprefix(prefix))
    name = source if source.startswith(("http://", "https://")) else os.path.realpath(source)
    return Owner("import", name) if imported else Owner("file", name)


def may_write(held: Owner | None, claimant: Owner) -> bool:
    """Whether ``claimant`` may write an artifact whose latest version ``held`` wrote (None: a
    new artifact)."""
    if held is None or held == claimant:
        return True
    return not (held.imported or claimant.imported)


def refusal(artifact_id: str, held: Owner | None, claimant: Owner) -> OwnershipError | None:
    """The error for ``claimant`` writing ``artifact_id`` (owned by ``held``), or None."""
    if may_write(held, claimant):
        return None
    assert held is not None
    return OwnershipError(artifact_id, held, claimant)


def refusals(
    held: Mapping[str, Owner], claims: Iterable[tuple[str, Owner]]
) -> list[OwnershipError]:
    """Each claim ``(artifact id, claimant)`` that ``held`` (id -> owner of its latest version)
    refuses, in the order given."""
    found = []
    for artifact_id, claimant in claims:
        err = refusal(artifact_id, held.get(artifact_id), claimant)
        if err is not None:
            found.append(err)
    return found
