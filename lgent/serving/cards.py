"""What every surface says the same way: a result's card (signature, owner, health flags, one
line of description, why it matched), the reading of a query, the parts of a resolver score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lgent.health import Health
from lgent.models import (
    CatalogEntry,
    QueryResponse,
    QueryResult,
    QueryType,
    ScoreBreakdown,
    SerendipityItem,
)
from lgent.serving.answers import Card

DESCRIPTION_CHARS = 160
"""A description shown on one line is cut after this many characters."""


def owner(entry: CatalogEntry) -> str | None:
    """Who provides the artifact (its author: a team, a server, an API)."""
    return entry.author


def signature(entry: CatalogEntry) -> str:
    return f"{entry.input_type or '-'} -> {entry.output_type or '-'}"


def one_line(text: str, limit: int = DESCRIPTION_CHARS) -> str:
    """``text`` on one line: whitespace collapsed, cut at a word before ``limit`` characters."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:.")
    return cut + "…"


READINGS: Mapping[QueryType, str] = {
    QueryType.EXACT_NAME: "a name",
    QueryType.KEYWORD_SYNTAX: "a keyword query",
    QueryType.TYPE_QUERY: "a type question",
    QueryType.RELATIONSHIP: "a relationship question",
    QueryType.SEMANTIC_INTENT: "a description in plain words",
}
"""How each kind of query is named to a reader."""


def why(result: QueryResult) -> str:
    """Why a fused result matched, in a few words: each brain's own ``why`` (or ``reason``) in
    its explanation (the fields its words were found in, the meaning it shares, the type or
    relation that put it there), then its lineage notes."""
    parts: list[str] = [result.companion.reason] if result.companion else []
    children = result.explanation.get("children", [])
    by_brain = {c.get("brain"): c for c in children if isinstance(c, dict)}
    for source in result.sources:
        child = by_brain.get(source.brain, {})
        said = child.get("why") or child.get("reason")
        parts.append(said if isinstance(said, str) and said else f"found by {source.brain}")
    parts.extend(note for note in result.notes if not note.startswith("superseded by"))
    return "; ".join(dict.fromkeys(parts))


def card(
    entry: CatalogEntry,
    *,
    successors: Sequence[str] = (),
    why_text: str = "",
    score: float | None = None,
    highlights: Mapping[str, str] | None = None,
) -> Card:
    return Card(
        id=entry.id,
        name=entry.name,
        kind=entry.entity_type.value,
        signature=signature(entry),
        owner=owner(entry),
        status=entry.status.value,
        flags=Health.of(entry).flags(successors),
        description=one_line(entry.description),
        why=why_text,
        score=score,
        highlights=dict(highlights or {}),
    )


def result_card(result: QueryResult) -> Card:
    successors = (result.superseded_by,) if result.superseded_by else ()
    return card(
        result.entry,
        successors=successors,
        why_text=why(result),
        score=result.score,
        highlights=result.highlights,
    )


def suggestion(item: SerendipityItem) -> str:
    return item.reason


def unmeasured(entry: CatalogEntry) -> dict[str, str]:
    """The parts of the resolver's score that counted 0 because the entry does not say them:
    part -> why (``success``: no success rate; ``recency``: never used)."""
    missing = {}
    if entry.success_rate is None:
        missing["success"] = "not measured"
    if entry.last_used is None:
        missing["recency"] = "never used"
    return missing


def weighed_parts(score: ScoreBreakdown) -> tuple[str, ...]:
    """The parts of a resolver score a reader is shown: success, recency, usage, then the
    version, or the fit where the version is not weighed (success unmeasured)."""
    last = "fit" if score.weights.get("fit") else "version"
    return ("success", "recency", "usage", last)


def score_part(score: ScoreBreakdown, part: str, missing: Mapping[str, str]) -> str:
    """One part of a resolver score as shown: ``0.87``, or ``0.00 (not measured)`` when the
    entry does not say it (``missing``: ``unmeasured(entry)``)."""
    shown = f"{getattr(score, part):.2f}"
    return f"{shown} ({missing[part]})" if part in missing else shown


def reading(response: QueryResponse) -> str:
    """One sentence on how the query was read: its kind, and the constraints applied."""
    text = f"read as {READINGS[response.query_type]}"
    if response.constraints:
        text += "; constraints: " + ", ".join(response.constraints)
    return text
