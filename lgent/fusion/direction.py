"""Direction: a request from one thing to another prefers the artifacts that go that way.

Translators, converters and the like come in pairs that differ only in direction
(``opus-mt-en-it`` and ``opus-mt-it-en``, ``docx2pdf`` and ``pdf2docx``); their descriptions are
nearly the same, so words and meaning rank them alike and "translate from English to Italian"
could put the Italian-to-English model first. Fusion's ``PAIR_DIRECTION`` rule reads the
direction of a plain-language request (``from A to B``, ``A to B``, ``A into B``) and of each
result's name, id and keywords (``A2B``, ``A_to_B``, ``AToB``, ``a-b`` for two language codes);
an end matches by its stem, or as the same language by name or ISO 639-1 code. A result that goes
the other way (``B`` to ``A``) and ranks above one that goes the asked way is moved to just below
the last such one among the first ``LOOKED_AT``; nothing else moves, and the interpretation says
so.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from lgent.analysis.identifiers import split_identifier
from lgent.analysis.stemming import stem
from lgent.analysis.tokens import words
from lgent.fusion.rrf import Fused

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

LOOKED_AT = 50
"""Only the best this many fused results are read for a direction."""

LANGUAGES = {
    "ar": "arabic",
    "bg": "bulgarian",
    "cs": "czech",
    "da": "danish",
    "de": "german",
    "el": "greek",
    "en": "english",
    "es": "spanish",
    "et": "estonian",
    "fa": "persian",
    "fi": "finnish",
    "fr": "french",
    "he": "hebrew",
    "hi": "hindi",
    "hu": "hungarian",
    "id": "indonesian",
    "it": "italian",
    "ja": "japanese",
    "ko": "korean",
    "lt": "lithuanian",
    "lv": "latvian",
    "nl": "dutch",
    "no": "norwegian",
    "pl": "polish",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sk": "slovak",
    "sl": "slovenian",
    "sv": "swedish",
    "th": "thai",
    "tr": "turkish",
    "uk": "ukrainian",
    "vi": "vietnamese",
    "zh": "chinese",
}
"""ISO 639-1 codes and the English names of the languages they stand for."""
_BY_NAME = {name: code for code, name in LANGUAGES.items()}

_QUERY_PAIR = re.compile(r"(?:\bfrom\s+)?\b([\w.+#-]+)\s+(?:to|into|->|→)\s+([\w.+#-]+)", re.I)
_JOINERS = frozenset({"to", "2", "into"})


def end_key(word: str) -> str:
    """What two ends of a pair are compared by: a language's code, else the word's stem."""
    lowered = word.lower()
    if lowered in LANGUAGES:
        return lowered
    return _BY_NAME.get(lowered, stem(lowered))


def query_pairs(text: str) -> list[tuple[str, str]]:
    """The ``(from, to)`` pairs a request asks for, as ``end_key``s."""
    return [
        (end_key(a), end_key(b)) for a, b in _QUERY_PAIR.findall(text) if end_key(a) != end_key(b)
    ]


@lru_cache(maxsize=8192)
def artifact_pairs(texts: tuple[str, ...]) -> frozenset[tuple[str, str]]:
    """The ``(from, to)`` pairs an artifact's names carry: ``A2B``, ``A_to_B``, ``AToB``, and
    two neighbouring languages, by code or name (``opus-mt-en-it``, ``english-italian``)."""
    found: set[tuple[str, str]] = set()
    for text in texts:
        for word in words(text):
            parts = [p.lower() for p in split_identifier(word)]
            for i in range(len(parts) - 2):
                if parts[i + 1] in _JOINERS and parts[i] not in _JOINERS:
                    found.add((end_key(parts[i]), end_key(parts[i + 2])))
            for a, b in itertools.pairwise(end_key(p) for p in parts):
                if a in LANGUAGES and b in LANGUAGES and a != b:
                    found.add((a, b))
    return frozenset(found)


def direction(asked: Iterable[tuple[str, str]], carried: frozenset[tuple[str, str]]) -> int:
    """1 when an artifact carries an asked pair, -1 when it carries one only reversed, else 0."""
    asked = list(asked)
    if any(pair in carried for pair in asked):
        return 1
    if any((b, a) in carried for a, b in asked):
        return -1
    return 0


def put_reversed_below(fused: Sequence[Fused], ways: dict[str, int]) -> list[Fused]:
    """``fused`` with each result going the other way (``ways[id] == -1``) that ranks above the
    last one going the asked way moved to just below it, in their order."""
    last = max((n for n, f in enumerate(fused) if ways.get(f.id) == 1), default=-1)
    back = [f for f in fused[:last] if ways.get(f.id) == -1]
    if last < 0 or not back:
        return list(fused)
    kept = [f for f in fused[: last + 1] if ways.get(f.id) != -1]
    floor = kept[-1].score
    moved = [Fused(f.id, floor - 1e-9 * (n + 1), f.contributions) for n, f in enumerate(back)]
    return [*kept, *moved, *fused[last + 1 :]]


async def pair_direction(state: QueryState, context: FusionContext) -> None:
    """``PAIR_DIRECTION``: results going the other way move below those going the asked way."""
    if not state.plain or not state.fused:
        return
    asked = query_pairs(state.text)
    if not asked:
        return
    snap = state.catalog
    ways: dict[str, int] = {}
    for f in state.fused[:LOOKED_AT]:
        if f.id in snap:
            text = snap.text(f.id)
            ways[f.id] = direction(asked, artifact_pairs((f.id, text.name, *text.keywords)))
    reordered = put_reversed_below(state.fused, ways)
    if [f.id for f in reordered] != [f.id for f in state.fused]:
        moved = [i for i, way in ways.items() if way == -1]
        state.fused = reordered
        state.remarks.append(
            f"{', '.join(moved[:3])} go{'es' * (len(moved) == 1)} the other way "
            "and moved below the results going the asked way"
        )
