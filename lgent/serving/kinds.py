"""An artifact's inferred value kinds as every surface shows them: each slot (what it takes, what
it gives), its kind, the confidence, and the evidence each rule found (``lgent.kinds``), in one
shape for JSON (:class:`ShownKind`) and in words (:func:`evidence_text`, :func:`kinds_line`).

What it takes lists the records several parameters make together (``latitude`` and
``longitude``: a ``GeoPoint``), then the best kind of each other parameter; what it gives lists
the output's kinds, best first. Parameters without a kind are left out.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from lgent.models import CatalogEntry


class ShownEvidence(BaseModel):
    """One rule that fired: the rule, the kind it belongs to (the kind's own, or an ancestor's),
    the rule's text, the schema text it matched, where that text is, and its confidence."""

    model_config = ConfigDict(frozen=True)

    rule: str
    kind: str
    rule_text: str
    quote: str
    where: str
    confidence: float


class ShownKind(BaseModel):
    """One inferred kind of one slot of an artifact."""

    model_config = ConfigDict(frozen=True)

    slot: Literal["input", "output"]
    parameters: tuple[str, ...]
    """The parameters it is made of (an input); empty for an output."""
    required: bool
    """An input the artifact needs to run (every parameter required); an output: True."""
    kind: str
    """The kind as a type expression (``List[URL]`` for a list of them)."""
    confidence: float
    evidence: tuple[ShownEvidence, ...]


def _shown(
    slot: Literal["input", "output"], found: Any, names: tuple[str, ...], required: bool
) -> ShownKind:
    return ShownKind(
        slot=slot,
        parameters=names,
        required=required,
        kind=found.type_expr,
        confidence=round(found.confidence, 3),
        evidence=tuple(
            ShownEvidence(
                rule=e.rule,
                kind=e.kind,
                rule_text=e.rule_text,
                quote=e.quote,
                where=e.where,
                confidence=round(e.confidence, 3),
            )
            for e in found.evidence
        ),
    )


def shown_kinds(entry: CatalogEntry) -> tuple[ShownKind, ...]:
    """The artifact's inferred kinds, inputs first (none when none were inferred)."""
    kinds = entry.tool_kinds()
    if kinds is None:
        return ()
    required = {p.name for p in kinds.inputs if p.required}
    grouped = {name for g in kinds.groups for name in g.fields}
    shown = [_shown("input", g, g.fields, set(g.fields) <= required) for g in kinds.groups]
    shown += [
        _shown("input", p.best, (p.name,), p.required)
        for p in kinds.inputs
        if p.best is not None and p.name not in grouped
    ]
    shown += [_shown("output", o, (), True) for o in kinds.outputs]
    return tuple(shown)


def evidence_text(item: ShownEvidence, kind: str) -> str:
    """One piece of evidence in words: ``names "file_path" at inputSchema/properties/file_path
    (0.75)``; an ancestor's evidence names the ancestor."""
    of = "" if item.kind == kind.removeprefix("List[").removesuffix("]") else f" [{item.kind}]"
    quote = item.quote if len(item.quote) <= 60 else item.quote[:57] + "..."
    return f'{item.rule}{of} "{quote}" at {item.where} ({item.confidence:.2f})'


def slot_text(item: ShownKind) -> str:
    """A slot and its kind: ``url: WebPageURL 0.93`` or ``latitude+longitude: GeoPoint 0.85``
    (an optional input says so)."""
    place = "+".join(item.parameters) if item.parameters else "output"
    optional = "" if item.required else " (optional)"
    return f"{place}: {item.kind} {item.confidence:.2f}{optional}"


def kinds_line(shown: tuple[ShownKind, ...]) -> str:
    """The kinds in one compact line, each with the rules that found it: ``takes url: URL 0.93
    [formats, names]; gives output: Markdown 0.70 [phrases]``."""

    def part(item: ShownKind) -> str:
        rules = sorted({e.rule for e in item.evidence})
        return f"{slot_text(item)} [{', '.join(rules)}]"

    inputs = [part(k) for k in shown if k.slot == "input"]
    outputs = [part(k) for k in shown if k.slot == "output"]
    said = []
    if inputs:
        said.append("takes " + "; ".join(inputs))
    if outputs:
        said.append("gives " + "; ".join(outputs))
    return " | ".join(said)


__all__ = ["ShownEvidence", "ShownKind", "evidence_text", "kinds_line", "shown_kinds", "slot_text"]
