"""The evidence rules applied to one value, and evidence combined into ranked kinds.

Each rule that fires gives a piece of :class:`Evidence` with the rule's confidence
(:data:`CONFIDENCE`). A kind's confidence combines its evidence as independent signals
(noisy-or) over *distinct* rules, each rule counting once at its strongest; evidence of the
kind's ancestors (a ``FilePath`` name under a ``PdfFilePath`` phrase) adds at half weight. When
a kind and one of its ancestors both fire, only the more specific one is reported, carrying the
ancestor's evidence. Kinds under :data:`MIN_CONFIDENCE` are left out.

Three things rule a kind *out*: a value whose JSON type is not the kind's ``json_type``; a
boolean (a flag, for every kind but a boolean one); and a string enum that is not one of the
kind's ``enums`` while its values do not all match the kind's ``values`` (an enum names its
values: ``domain: [article, trial]`` is no domain name).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from lgent.kinds.clauses import NOT_HEAD_PENALTY, head_ends, leading_noun_phrase
from lgent.kinds.literals import lacks_all
from lgent.kinds.records import ANY, FieldShape, RecordShape, record_fit
from lgent.kinds.results import Evidence, InferredKind
from lgent.kinds.schemas import Value
from lgent.kinds.vocabulary import Kind, Rules, Vocabulary

CONFIDENCE = {
    "formats": 0.95,
    "patterns": 0.9,
    "enums": 0.9,
    "fields": 0.85,
    "names": 0.75,
    "values": 0.7,
    "units": 0.7,
    "phrases": 0.65,
    "refine": 0.55,
    "writes": 0.6,
    "changes": 0.55,
}
"""What one rule firing is worth. A format is near-certain; a phrase in a description is a hint."""
ENUM_SHARE = 0.8
"""Share of an enum's values a kind's ``enums`` must list."""
MIN_CONFIDENCE = 0.5
"""Kinds found with less are left out."""
ANCESTOR_WEIGHT = 0.5
"""Weight of an ancestor's evidence in a kind's confidence."""
TAIL_CONFIDENCE = 0.45
"""A phrase found in a value's description past its leading noun phrase."""


def type_allows(rules: Rules, value: Value) -> bool:
    """False when the value's JSON type rules the kind out."""
    wanted = rules.json_type
    if wanted is None:
        return True
    if wanted == "array":
        return value.many
    if not value.types:
        return True
    if wanted == "number":
        return bool(value.types & {"number", "integer"})
    return wanted in value.types


def _enum_share(rules: Rules, enum: Sequence[str]) -> float:
    return sum(1 for v in enum if v in rules.enums) / len(enum)


def _all_values(rules: Rules, values: Iterable[str]) -> bool:
    return all(any(p.fullmatch(v) for p in rules.values) for v in values)


def _evidence(kind: Kind, rule: str, rule_text: str, quote: str, where: str) -> Evidence:
    return Evidence(rule, kind.name, rule_text, quote[:200], where, CONFIDENCE[rule])


def phrase_evidence(
    kind: Kind,
    text: str,
    where: str,
    confidence: float,
    *,
    heads: frozenset[int] | None = None,
) -> list[Evidence]:
    """The best of ``kind``'s phrases found in ``text`` (the longest, among the strongest);
    with ``heads`` (where head nouns end), a match ending elsewhere counts
    ``NOT_HEAD_PENALTY`` less."""
    rules = kind.rules
    if (
        rules.any_phrase is None
        or lacks_all(rules.phrase_literals, text)
        or rules.any_phrase.search(text) is None
    ):
        return []
    best: Evidence | None = None
    for phrase in kind.rules.phrases:
        for found in phrase.finditer(text):
            score = confidence
            if heads is not None and found.end() not in heads:
                score -= NOT_HEAD_PENALTY
            if best is None or (score, len(found.group())) > (best.confidence, len(best.quote)):
                best = Evidence("phrases", kind.name, phrase.pattern, found.group(), where, score)
            if heads is None:
                break
    return [] if best is None else [best]


def description_head(description: str) -> tuple[str, frozenset[int]]:
    """The noun phrase a description starts with, and where its head nouns end."""
    phrase = leading_noun_phrase(description)
    return phrase, head_ends(phrase)


def description_evidence(
    kind: Kind, description: str, where: str, head: tuple[str, frozenset[int]] | None = None
) -> list[Evidence]:
    """``kind``'s phrases in a value's own description: ending a head noun of the noun phrase it
    starts with ("Path" in "Path to the input PDF file", not "Color" in "Color scheme to use")
    a phrase counts in full; anywhere else it counts :data:`TAIL_CONFIDENCE`, not enough on its
    own."""
    phrase, ends = head if head is not None else description_head(description)
    if phrase:
        found = phrase_evidence(kind, phrase, where, CONFIDENCE["phrases"], heads=ends)
        if found and found[0].confidence >= CONFIDENCE["phrases"]:
            return found
    return phrase_evidence(kind, description, where, TAIL_CONFIDENCE)


def value_evidence(
    kind: Kind, value: Value, record: RecordShape | None, lattice: Vocabulary
) -> list[Evidence]:
    """Every rule of ``kind`` that fires on ``value`` (``record``: the value's fields, when it
    is an object), or nothing when the kind is ruled out."""
    rules = kind.rules
    if not type_allows(rules, value) or (
        value.types == {"boolean"} and rules.json_type != "boolean"
    ):
        return []
    found: list[Evidence] = []
    enum_is_kind = False
    if value.enum and len(value.enum) >= 2 and rules.enums:
        share = _enum_share(rules, value.enum)
        if share >= ENUM_SHARE:
            enum_is_kind = True
            shown = ", ".join(value.enum[:5]) + (", ..." if len(value.enum) > 5 else "")
            found.append(
                _evidence(kind, "enums", f"{share:.0%} listed", shown, value.where + "/enum")
            )
    if (
        value.enum
        and len(value.enum) >= 2
        and not enum_is_kind
        and not (rules.values and _all_values(rules, value.enum))
    ):
        return []
    if value.format and value.format in rules.formats:
        found.append(
            _evidence(kind, "formats", value.format, value.format, value.where + "/format")
        )
    if value.name:
        for pattern in rules.names:
            if pattern.fullmatch(value.name):
                found.append(_evidence(kind, "names", pattern.pattern, value.name, value.where))
                break
    if value.pattern:
        for pattern in rules.patterns:
            if pattern.search(value.pattern):
                found.append(
                    _evidence(
                        kind, "patterns", pattern.pattern, value.pattern, value.where + "/pattern"
                    )
                )
                break
    if rules.values:
        samples = list(value.examples)
        if value.enum and not enum_is_kind:
            samples = [*value.enum[:20], *samples]
        for sample in samples:
            match = next((p for p in rules.values if p.fullmatch(sample)), None)
            if match is not None:
                found.append(
                    _evidence(kind, "values", match.pattern, sample, value.where + "/examples")
                )
                break
    if rules.units and value.types and value.types <= {"number", "integer"}:
        spoken = f"{value.name.replace('_', ' ')} \n{value.description}"
        for unit in rules.units:
            hit = unit.search(spoken)
            if hit is not None:
                found.append(_evidence(kind, "units", unit.pattern, hit.group(), value.where))
                break
    if value.description:
        found.extend(
            description_evidence(kind, value.description, value.where + "/description", value.head)
        )
    if rules.fields and record is not None:
        wanted = RecordShape(
            tuple(
                (name, FieldShape(kind=None if of == ANY else of, required=required))
                for name, of, required in rules.fields
            )
        )
        fit = record_fit(record, wanted, lattice)
        if fit is not None:
            quote = ", ".join(produced for _, produced in fit.mapping)
            rule_text = ", ".join(f"{n}: {k}" for n, k, _ in rules.fields)
            found.append(_evidence(kind, "fields", rule_text, quote, value.where + "/properties"))
    return found


def _noisy_or(evidence: Iterable[Evidence], weight: float = 1.0) -> float:
    best: dict[str, float] = {}
    for item in evidence:
        best[item.rule] = max(best.get(item.rule, 0.0), item.confidence)
    miss = 1.0
    for score in best.values():
        miss *= 1.0 - weight * score
    return 1.0 - miss


def combine(
    evidence: Iterable[Evidence],
    vocabulary: Vocabulary,
    *,
    many: bool = False,
    fields: tuple[str, ...] = (),
    minimum: float = MIN_CONFIDENCE,
) -> tuple[InferredKind, ...]:
    """The kinds ``evidence`` supports, most specific ones only, best first (by confidence,
    then specificity, then name). ``many``: the value is a list (not for array kinds)."""
    own: dict[str, list[Evidence]] = defaultdict(list)
    for item in evidence:
        if item.kind in vocabulary:
            own[item.kind].append(item)
    found = set(own)
    specific = [k for k in found if not any(k in vocabulary.ancestors(o) for o in found)]
    results: list[InferredKind] = []
    for name in specific:
        inherited = [e for a in vocabulary.ancestors(name) if a in own for e in own[a]]
        c_own = _noisy_or(own[name])
        c_inherited = _noisy_or(inherited, ANCESTOR_WEIGHT)
        confidence = min(0.99, 1.0 - (1.0 - c_own) * (1.0 - c_inherited))
        if confidence < minimum:
            continue
        ranked = sorted([*own[name], *inherited], key=lambda e: (-e.confidence, e.kind, e.rule))
        is_list = many and vocabulary.kind(name).rules.json_type != "array"
        results.append(InferredKind(name, confidence, tuple(ranked), is_list, fields))
    results.sort(
        key=lambda k: (
            -round(k.confidence, 6),
            -max((len(e.quote) for e in k.evidence if e.kind == k.kind), default=0),
            -vocabulary.depth(k.kind),
            k.kind,
        )
    )
    return tuple(results)


__all__ = [
    "ANCESTOR_WEIGHT",
    "CONFIDENCE",
    "ENUM_SHARE",
    "MIN_CONFIDENCE",
    "TAIL_CONFIDENCE",
    "combine",
    "description_evidence",
    "description_head",
    "phrase_evidence",
    "type_allows",
    "value_evidence",
]
