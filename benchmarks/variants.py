"""Settings variants named in one line: ``NAME=VALUE`` atoms joined by ``+``.

``fusion=rrf+kw=0.5+sem=0.5+entry=basic`` is the default settings with those
changes, and the tools loaded with the ``basic`` entry text. Used by ``external_quality --also``
and ``external_diagnosis --variants``.
"""

from __future__ import annotations

from typing import Any

from benchmarks import devsets
from lgent.brains.keyword.settings import KeywordSettings
from lgent.brains.semantic.settings import SemanticSettings
from lgent.config import FusionSettings, Settings

ATOMS = {
    "entry": "entry text: plain, basic or rich (benchmarks/devsets.py)",
    "msm": "fusion.free_text_min_match",
    "depth": "fusion.min_brain_hits",
    "overfetch": "fusion.overfetch",
    "k": "fusion.rrf_k",
    "fusion": "fusion.method: rrf or score",
    "kw": "keyword weight of semantic_intent",
    "sem": "semantic weight of semantic_intent",
    "keyword": "keyword.field_mode: fields or combined",
    "semantic": "semantic.text_mode: plain or weighted",
    "threshold": "semantic.threshold",
    "tokens": "semantic.entry_tokens: the text budget, word pieces of an entry text embedded",
    "cover": "fusion.coverage_saturation (WORD_COVERAGE)",
    "floor": "fusion.coverage_floor (WORD_COVERAGE)",
    "clauses": "semantic.clauses: 1 searches a request clause by clause too",
    "pooling": "semantic.pooling: mean or content (CONTENT_POOLING)",
    "cshare": "semantic.clause_share (CONTENT_POOLING's clause vectors; 0: off)",
    "scope": "fusion.coverage_scope: artifact or query (WORD_COVERAGE)",
    "ftexact": "keyword.free_text_boosts name_exact and keywords_exact",
    "long": "fusion.long_requests: 0 turns LONG_REQUESTS off",
    "share": "fusion.long_request_share (LONG_REQUESTS)",
    "words": "fusion.short_request_words-long_request_words, e.g. 8-20 (LONG_REQUESTS)",
    "feedback": "fusion.feedback_weight (WORD_FEEDBACK; 0: off)",
    "fbshare": "fusion.feedback_share (WORD_FEEDBACK)",
    "fbwords": "fusion.feedback_min_words (WORD_FEEDBACK)",
    "fbdepth": "fusion.feedback_depth (WORD_FEEDBACK)",
    "parts": "fusion.parts_first: 0 turns PARTS_FIRST off",
    "names": "fusion.name_matches (NAME_MATCHES; 0: off)",
    "companions": "fusion.companions: 0 turns COMPANIONS off",
    "runnable": "fusion.runnable (RUNNABLE; 0: off)",
}
"""What a variant may change: ``name=value`` atoms joined by ``+`` (``msm=0+kw=0.5``)."""

ENTRY_TEXTS: dict[str, devsets.EntryText] = {"plain": "plain", "basic": "basic", "rich": "rich"}


def variant(spec: str, entry: devsets.EntryText = "rich") -> tuple[Settings, devsets.EntryText]:
    """The settings and entry text a variant names (``default`` changes nothing); ``entry``:
    the entry text of the run it is compared with, kept unless the variant names another
    (``entry=basic``)."""
    fusion: dict[str, Any] = {}
    keyword: dict[str, Any] = {}
    semantic: dict[str, Any] = {}
    weights: dict[str, float] = {}
    for atom in filter(None, spec.split("+")):
        if atom == "default":
            continue
        name, _, value = atom.partition("=")
        if name not in ATOMS or not value:
            raise SystemExit(
                f"variant atom {atom!r}: expected NAME=VALUE, NAME one of {list(ATOMS)}"
            )
        if name == "entry":
            if value not in ENTRY_TEXTS:
                raise SystemExit(f"entry={value}: expected plain, basic or rich")
            entry = ENTRY_TEXTS[value]
        elif name == "long":
            fusion["long_requests"] = value == "1"
        elif name == "parts":
            fusion["parts_first"] = value == "1"
        elif name == "companions":
            fusion["companions"] = value == "1"
        elif name == "runnable":
            fusion["runnable"] = int(value)
        elif name == "share":
            fusion["long_request_share"] = float(value)
        elif name == "words":
            short, _, long = value.partition("-")
            fusion["short_request_words"], fusion["long_request_words"] = int(short), int(long)
        elif name in ("feedback", "fbshare"):
            fusion["feedback_weight" if name == "feedback" else "feedback_share"] = float(value)
        elif name in ("fbwords", "fbdepth"):
            fusion["feedback_min_words" if name == "fbwords" else "feedback_depth"] = int(value)
        elif name == "names":
            fusion["name_matches"] = int(value)
        elif name == "clauses":
            semantic["clauses"] = value == "1"
        elif name == "pooling":
            semantic["pooling"] = value
        elif name == "cshare":
            semantic["clause_share"] = float(value)
        elif name == "scope":
            fusion["coverage_scope"] = value
        elif name in ("cover", "floor"):
            fusion["coverage_saturation" if name == "cover" else "coverage_floor"] = float(value)
        elif name in ("msm", "threshold"):
            target = fusion if name == "msm" else semantic
            target["free_text_min_match" if name == "msm" else "threshold"] = float(value)
        elif name in ("depth", "overfetch", "k"):
            key = {
                "depth": "min_brain_hits",
                "overfetch": "overfetch",
                "k": "rrf_k",
            }[name]
            fusion[key] = int(value)
        elif name == "fusion":
            fusion["method"] = value
        elif name in ("kw", "sem"):
            weights["keyword" if name == "kw" else "semantic"] = float(value)
        elif name == "keyword":
            keyword["field_mode"] = value
        elif name == "ftexact":
            keyword["free_text_boosts"] = {
                "name_exact": float(value),
                "keywords_exact": float(value),
            }
        elif name == "semantic":
            semantic["text_mode"] = value
        elif name == "tokens":
            semantic["entry_tokens"] = int(value)
    if weights:
        fusion["weights"] = {"semantic_intent": weights}
    settings = Settings(
        fusion=FusionSettings(**fusion),
        brains={"keyword": KeywordSettings(**keyword), "semantic": SemanticSettings(**semantic)},
    )
    return settings, entry
