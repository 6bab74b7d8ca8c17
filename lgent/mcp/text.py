"""The MCP server's answers as compact plain text: what a model reads, in as few tokens as
possible, with nothing it must strip (no markup, no nulls, no repeated fields).

A result is two or three lines: ``n. id: kind, input -> output, owner`` (the name too when it
differs from the id), its health flags, one line of description and why it matched.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from lgent.facets import Facet
from lgent.models import BrainHit, CatalogEntry, FilledPipeline, QueryResponse, Resolution
from lgent.serving import (
    ArtifactAnswer,
    Card,
    CompatibleAnswer,
    LineageAnswer,
    ListPage,
    PathsAnswer,
    SearchPage,
    TypesAnswer,
    kinds_line,
    one_line,
    owner,
    score_part,
    signature,
    unmeasured,
    weighed_parts,
)

MAX_REJECTED = 5
"""Rejected candidates a ``resolve`` answer names (the count of the others is given)."""


def card_lines(n: int | None, card: Card) -> list[str]:
    head = card.id if card.name == card.id else f"{card.id} ({card.name})"
    facts = [card.kind, card.signature]
    if card.owner:
        facts.append(f"by {card.owner}")
    lines = [f"{'' if n is None else f'{n}. '}{head}: {', '.join(facts)}"]
    if card.flags:
        lines.append("   warning: " + "; ".join(card.flags))
    if card.description:
        lines.append("   " + card.description)
    if card.why:
        lines.append("   why: " + card.why)
    return lines


def more(next_offset: int | None) -> str:
    return "" if next_offset is None else f' More: cursor="{next_offset}".'


def search_text(page: SearchPage) -> str:
    first, last = page.offset + 1, page.offset + len(page.results)
    shown = f"showing {first}-{last}" if page.results else "none shown"
    lines = [f"{page.total} matches, {shown} ({page.reading}).{more(page.next_offset)}"]
    lines += [f"note: {w}" for w in page.warnings]
    for n, result in enumerate(page.results, start=page.offset + 1):
        lines += card_lines(n, result)
    if page.suggestions:
        lines.append("Also consider: " + " | ".join(page.suggestions[:2]))
    return "\n".join(lines)


def full_json(data: Any) -> str:
    """Compact JSON (no spaces, no nulls): ``detail="full"`` answers."""
    return json.dumps(_without_nulls(data), ensure_ascii=False, separators=(",", ":"))


def compact_json(data: Any) -> str:
    """Compact JSON, every value kept (a schema's empty ``properties`` means something)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


_AS_WRITTEN = frozenset({"origin"})
"""Keys whose values are kept whole in full answers: what a source wrote (schemas) is data."""


def _without_nulls(data: Any) -> Any:
    if isinstance(data, dict):
        return {
            k: v if k in _AS_WRITTEN else _without_nulls(v)
            for k, v in data.items()
            if v not in (None, [], {}, "")
        }
    if isinstance(data, list):
        return [_without_nulls(v) for v in data]
    return data


def search_full(response: QueryResponse) -> str:
    """The fused response with full entries and explanations (highlights left out: they repeat
    the entries' text with markup)."""
    data = response.model_dump(mode="json", exclude={"results": {"__all__": {"highlights"}}})
    return full_json(data)


def entry_lines(entry: CatalogEntry) -> list[str]:
    """Every field of an entry, one per line, empty ones left out."""
    lines = [f"{entry.id}: {entry.entity_type.value} {entry.name!r}, version {entry.version}"]
    lines.append(f"signature: {signature(entry)}")
    who = owner(entry)
    if who:
        lines.append(f"owner: {who}")
    lines.append(f"status: {entry.status.value}")
    if entry.description:
        lines.append(f"description: {' '.join(entry.description.split())}")
    for label, values in (("keywords", entry.keywords), ("contracts", entry.contracts)):
        if values:
            lines.append(f"{label}: {', '.join(values)}")
    figures = []
    if entry.success_rate is not None:
        figures.append(f"success rate {entry.success_rate:g}")
    if entry.usage_count:
        figures.append(f"used {entry.usage_count} times")
    if entry.last_used is not None:
        figures.append(f"last used {entry.last_used.date().isoformat()}")
    if entry.latency_ms is not None:
        figures.append(f"latency {entry.latency_ms:g} ms")
    if entry.execution is not None:
        figures.append(f"runs {entry.execution.value}")
    if figures:
        lines.append("facts: " + ", ".join(figures))
    if entry.relations:
        lines.append(
            "relations: " + "; ".join(f"{r.type.value} {r.target}" for r in entry.relations)
        )
    return lines


def artifact_text(answer: ArtifactAnswer) -> str:
    lines = entry_lines(answer.entry)
    lines.append("versions: " + ", ".join(answer.versions))
    lines.append("health: " + answer.health)
    if answer.kinds:
        lines.append("inferred kinds: " + kinds_line(answer.kinds))
    if answer.callable is not None:
        lines.append("callable: " + compact_json(answer.callable))
    return "\n".join(lines)


def resolve_text(resolution: Resolution) -> str:
    best, score = resolution.best, resolution.score
    weights = score.weights
    missing = unmeasured(best)
    parts = ", ".join(
        f"{name} {score_part(score, name, missing)}x{weights[name]:g}"
        for name in weighed_parts(score)
    )
    req = resolution.requirement
    lines = [
        f"Best for {req.input_type} -> {req.output_type}: {best.id} "
        f"({best.entity_type.value}, {signature(best)}, version {best.version}), "
        f"score {score.total:.3f} = {parts}.",
        "   " + one_line(best.description),
    ]
    if resolution.runners_up:
        lines.append(
            "Runners-up: "
            + ", ".join(f"{c.entry.id} {c.score.total:.3f}" for c in resolution.runners_up)
        )
    if resolution.rejected:
        shown = resolution.rejected[:MAX_REJECTED]
        lines.append(f"Rejected {len(resolution.rejected)} of {resolution.considered} considered:")
        lines += [f"   {r.id}: {'; '.join(r.reasons)}" for r in shown]
        if len(resolution.rejected) > len(shown):
            lines.append(f"   ... and {len(resolution.rejected) - len(shown)} more")
    return "\n".join(lines)


def filled_text(filled: FilledPipeline) -> str:
    shown = [
        step.given if step.given else "[" + " >> ".join(step.filled_with) + "]"
        for step in filled.steps
    ]
    lines = [" -> ".join(shown)]
    holes = [s for s in filled.steps if not s.given]
    for n, step in enumerate(holes, start=1):
        lines.append(f"hole {n}: {' >> '.join(step.filled_with)} ({' -> '.join(step.types)})")
        if step.reason:
            lines.append(f"   {step.reason}")
    return "\n".join(lines)


def paths_text(answer: PathsAnswer) -> str:
    if not answer.paths:
        return f"No path from {answer.source_type} to {answer.target_type}."
    lines = []
    for n, path in enumerate(answer.paths, start=1):
        steps = "".join(f"{t} -[{a}]-> " for t, a in zip(path.types, path.ids, strict=False))
        lines.append(f"{n}. {steps}{path.types[-1]} (weakest health {path.health:.2f})")
    return "\n".join(lines)


def similar_text(artifact_id: str, found: Sequence[tuple[Card, BrainHit]]) -> str:
    if not found:
        return f"Nothing close in meaning to {artifact_id}."
    lines = [f"The {len(found)} closest in meaning to {artifact_id}:"]
    for n, (card, hit) in enumerate(found, start=1):
        reason = hit.explanation.get("reason")
        why = f"similarity {hit.score:.2f}" + (f", {reason}" if isinstance(reason, str) else "")
        lines += card_lines(n, card.model_copy(update={"why": why}))
    return "\n".join(lines)


GROUP_WORDS: Mapping[str, str] = {
    "ancestors": "succeeds (older generations)",
    "descendants": "succeeded by (newer generations)",
    "dependencies": "depends on",
    "dependents": "depended on by",
    "forged_by": "forged by",
    "forged": "forged",
    "implements": "implements",
    "implementers": "implemented by",
    "similar": "similar to",
}


def lineage_text(answer: LineageAnswer) -> str:
    lines = []
    for group, links in answer.groups.items():
        if links:
            ids = ", ".join(
                link.id + (f" (depth {link.depth})" if link.depth > 1 else "") for link in links
            )
            lines.append(f"{GROUP_WORDS.get(group, group)}: {ids}")
    if not lines:
        return f"{answer.artifact_id} has no recorded relations."
    return f"{answer.artifact_id}\n" + "\n".join(lines)


def compatible_text(answer: CompatibleAnswer) -> str:
    verb = "can feed" if answer.direction == "upstream" else "can take the output of"
    if not answer.artifacts:
        why = f" ({answer.note})" if answer.note else ""
        return f"No artifact {verb} {answer.artifact_id}{why}."
    shown = len(answer.artifacts)
    part = f", showing 1-{shown} (a larger limit shows more)" if answer.total > shown else ""
    lines = [f"{answer.total} artifacts {verb} {answer.artifact_id}{part}:"]
    for n, c in enumerate(answer.artifacts, start=1):
        lines += card_lines(n, c)
    return "\n".join(lines)


def list_text(page: ListPage) -> str:
    counts = facets_lines(page.facets)
    if not page.results:
        return "\n".join([f"{page.total} artifacts match; none at this cursor.", *counts])
    first, last = page.offset + 1, page.offset + len(page.results)
    lines = [f"{page.total} artifacts match, showing {first}-{last}.{more(page.next_offset)}"]
    lines += counts
    for n, c in enumerate(page.results, start=page.offset + 1):
        lines += card_lines(n, c)
    return "\n".join(lines)


def facets_lines(facets: Mapping[str, Facet]) -> list[str]:
    """One line per facet: ``tag: pdf 12, ocr 3, (2 more values)``, each count what the list
    would hold with that value as a filter too."""
    if not facets:
        return []
    lines = ["Counts (each: how many of them have the value; filter by it to list those):"]
    for name, facet in facets.items():
        shown = ", ".join(f"{v.value} {v.count}" for v in facet.values) or "none"
        if facet.others:
            shown += f", ({facet.others} more values)"
        if facet.missing:
            shown += f"; {facet.missing} without one"
        lines.append(f"  {name}: {shown}")
    return lines


def types_text(answer: TypesAnswer) -> str:
    """One line per type: ``URL < Text: 26 produce, 88 consume; kind found by formats, names;
    from vocabulary``."""
    if not answer.types:
        return f"{answer.total} types match; none here."
    shown = len(answer.types)
    lines = [f"{answer.total} types match, the {shown} most used first."]
    for row in answer.types:
        parents = f" < {', '.join(row.parents)}" if row.parents else ""
        kind = f"; kind found by {', '.join(row.rules) or 'its parents'}" if row.kind else ""
        lines.append(
            f"{row.name}{parents}: {row.producers} produce, {row.consumers} consume{kind}; "
            f"from {row.source}"
        )
    return "\n".join(lines)


def stats_text(stats: Mapping[str, Any]) -> str:
    lines = []
    for key, value in stats.items():
        if isinstance(value, Mapping):
            value = ", ".join(f"{k} {v}" for k, v in value.items()) or "none"
        lines.append(f"{key.replace('_', ' ')}: {value}")
    return "\n".join(lines)
