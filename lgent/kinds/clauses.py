"""What a tool says it returns: the *result clauses* of its description and name.

A kind's phrases are searched only in these clauses when inferring an output, so that the words
describing a tool's inputs ("for a city", "from a URL") do not become its output. A clause is

* what follows "returns" / "outputs" / "produces" / "responds with" (also a docstring's
  ``Returns:`` section, and 返回): confidence 0.7;
* the format a value is given in: "as Markdown", "in JSON format", 以 X 格式: 0.7;
* the object of a sentence's leading verb ("Get historical stock prices for a symbol",
  "Generate a pie chart", 获取...); after "convert ... to/into", what follows "to": 0.6;
* the words of the tool's name after its verb (``get_transcript``): 0.5 (0.45 for a name with no
  verb, which may as well name what the tool takes).

English clauses are cut where a preposition or a subordinate clause starts (the object is what
comes before "for", "of", "from", "with", "that"...), after a leading "a list of", "all the"...
are taken off. A phrase that does not end where a head noun ends (the end of the clause, or of
one of its conjuncts: "stories and comments") counts ``NOT_HEAD_PENALTY`` less. The object of a fetching verb ("fetch a URL", "read a file") is where the result comes
from, not the result: locator kinds found there are left out (``Clause.locator_source``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from lgent.kinds.words import MAX_TEXT, normal_name

RETURNS_CONFIDENCE = 0.7
FORMAT_CONFIDENCE = 0.7
VERB_CONFIDENCE = 0.6
NAME_CONFIDENCE = 0.5
BARE_NAME_CONFIDENCE = 0.45
"""A name without a verb ("insert_svg" may say what the tool takes, not what it returns)."""
NOT_HEAD_PENALTY = 0.15
"""Taken off a phrase found in a clause but not at the end of a head noun."""
MAX_CLAUSE = 120
"""Characters of a clause kept after its marker (before cutting)."""

_SENTENCES = re.compile(r"(?<=[.!?])\s+|[。！？\n]+")
_RETURNS = re.compile(
    r"\b(?:returns?|returning|outputs?|produces?|yields?|responds? with|gives back)\b[:\s]+",
    re.IGNORECASE,
)
_FORMAT = re.compile(
    r"(?<!such )(?<!as well )\bas\s+(?:an?\s+|the\s+)?((?:[\w\-./+]+\s+){0,2}[\w\-./+]+)"
    r"|\b(?:in|to|into)\s+(?:an?\s+|the\s+)?((?:[\w\-./+]+\s+){0,1}[\w\-./+]+)\s+(?:format|form|encoding)\b",
    re.IGNORECASE,
)
_ASIDE = re.compile(r"\s*(\([^()]{1,40}\))")
"""A short aside right after a format ("as a PNG image (base64 encoded)"): part of it."""
VERBS = (
    "get|gets|fetch|fetches|retrieve|retrieves|read|reads|list|lists|search|searches|find|finds|"
    "look up|looks up|lookup|download|downloads|extract|extracts|generate|generates|create|"
    "creates|render|renders|take|takes|convert|converts|export|exports|compute|computes|"
    "calculate|calculates|show|shows|produce|produces|draw|draws|build|builds|"
    "query|queries|load|loads|save|saves|scrape|scrapes|transcribe|transcribes|summarize|"
    "summarizes|summarise|summarises|translate|translates|estimate|estimates|analyze|analyzes|"
    "analyse|analyses|discover|discovers|locate|locates|identify|identifies|view|views|open|opens"
)
_LEADING = re.compile(rf"^\s*(?:please\s+)?({VERBS})\b(?:\s+for\b)?\s*", re.IGNORECASE)
_FETCHING = re.compile(
    r"^(?:fetch|fetches|read|reads|download|downloads|load|loads|scrape|scrapes|open|opens|"
    r"view|views|extract|extracts|analy[sz]e|analy[sz]es)$",
    re.IGNORECASE,
)
_CONVERTING = re.compile(r"^(?:convert|converts|translate|translates|export|exports)$", re.I)
_TO = re.compile(r"\s(?:to|into)\s+(.+)$", re.IGNORECASE)
_CUT = re.compile(
    rf"\s(?:and|or|then)\s+(?:(?:optionally|also|then)\s+)?(?=(?:return|returns|{VERBS})\b)|"
    r"\s(?:for|of|from|by|in|on|at|as|with|using|based|given|between|near|within|via|without|if|"
    r"when|which|that|where|whose|while|so|to|into|about|across|under|over|after|before|since|until|"
    r"per|according|including|containing|such)\b|[,;:()\[\]{}，；：（）、。]|\s[-–—]\s",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^(?:(?:a|an|the|all|its|their|back|some|any|one|more|several|multiple|detailed|"
    r"comprehensive|full|complete|basic|specific|structured|formatted|up-to-date)\s+)*"
    r"(?:(?:list|lists|listing|set|array|collection|number|series|page)\s+of\s+)?",
    re.IGNORECASE,
)
_CONJUNCTION = re.compile(r"\s+(?:and|or|&|as well as|plus)\s+|\s*[,/、和及与]\s*")
_FORM_WORD = re.compile(
    r"\s+(?:format|formatted|string|text|content|contents|code|document|file|files|"
    r"representation|form)$",
    re.IGNORECASE,
)
_CJK_RETURNS = re.compile(r"返回(?:的)?(.{1,40}?)(?:[，。；;,\n]|$)")
_CJK_FORMAT = re.compile(r"以\s*(\S{1,20}?)\s*格式")
_CJK_VERB = re.compile(
    r"^\s*(?:获取|查询|生成|搜索|列出|下载|读取|提取)(.{1,40}?)(?:[，。；;,\n]|$)"
)
_CJK_CONVERT = re.compile(r"(?:转换为|转为|转成|保存为|另存为)(.{1,30}?)(?:[，。；;,\n]|$)")


@dataclass(frozen=True)
class Clause:
    """Text that says what a tool returns, where it came from, and what a phrase found in it
    is worth. ``locator_source``: the object of a fetching verb (a URL or path found there is
    where the result is read from)."""

    text: str
    where: str
    confidence: float
    locator_source: bool = False


def _object(text: str) -> str:
    """The noun phrase at the start of ``text``: leading articles and "a list of" taken off,
    cut where a preposition or another clause begins ("" when one begins at once: "in title"
    has no object). In Chinese, what follows the last 的 is the head ("文件的基本信息": 基本信息)."""
    text = text.strip()
    for _ in range(2):
        text = _LEAD.sub("", text, count=1)
    cut = _CUT.search(" " + text)
    if cut is not None and cut.start() == 0:
        return ""
    found = (text[: cut.start() - 1] if cut else text).strip(" .!?\"'`")
    return found.rsplit("的", 1)[-1] if "的" in found else found


def head_ends(text: str) -> frozenset[int]:
    """Where the heads of a noun phrase end: the end of each conjunct ("stories" and
    "comments" in "stories and comments"), also before a trailing word that only names a
    form ("Markdown" in "Markdown format", "JSON" in "JSON string")."""
    ends: set[int] = set()
    stops = [m.start() for m in _CONJUNCTION.finditer(text)]
    starts = [0, *(m.end() for m in _CONJUNCTION.finditer(text))]
    for start, stop in zip(starts, [*stops, len(text)], strict=True):
        part = text[start:stop].rstrip()
        ends.add(start + len(part))
        form = _FORM_WORD.search(part)
        if form is not None:
            ends.add(start + len(part[: form.start()].rstrip()))
    return frozenset(ends)


def leading_noun_phrase(text: str) -> str:
    """The noun phrase a description starts with ("Path" of "Path to the input PDF file",
    "Cryptocurrency symbol" of "Cryptocurrency symbol (e.g., BTC, ETH)")."""
    return _object(first_sentence(text))


def first_sentence(text: str) -> str:
    """The first sentence of ``text``."""
    return next(_sentences(text), "")


def before_result(sentence: str) -> str:
    """``sentence`` up to where it starts saying what is returned ("... and returns a JSON
    string": what it does, not what it gives back)."""
    marker = _RETURNS.search(sentence)
    return sentence[: marker.start()] if marker else sentence


def _sentences(description: str) -> Iterator[str]:
    """The sentences of ``description``, found one at a time (the first costs no more than
    finding its end)."""
    text = description[:MAX_TEXT]
    start = 0
    for boundary in _SENTENCES.finditer(text):
        sentence = text[start : boundary.start()].strip(" -*•\t")
        start = boundary.end()
        if sentence:
            yield sentence
    sentence = text[start:].strip(" -*•\t")
    if sentence:
        yield sentence


def description_clauses(description: str, where: str = "description") -> list[Clause]:
    """The result clauses of a tool's description."""
    found: list[Clause] = []
    for sentence in _sentences(description):
        for marker in _RETURNS.finditer(sentence):
            rest = _object(sentence[marker.end() : marker.end() + MAX_CLAUSE])
            if rest:
                found.append(Clause(rest, f"{where} (returns)", RETURNS_CONFIDENCE))
        for fmt in _FORMAT.finditer(sentence):
            said = (fmt.group(1) or fmt.group(2) or "").strip()
            if said:
                aside = _ASIDE.match(sentence, fmt.end())
                said = _object(said) or said
                said += f" {aside.group(1)}" if aside else ""
                found.append(Clause(said, f"{where} (format)", FORMAT_CONFIDENCE))
        lead = _LEADING.match(sentence)
        if lead:
            verb = lead.group(1)
            rest = sentence[lead.end() : lead.end() + MAX_CLAUSE]
            if _CONVERTING.match(verb):
                target = _TO.search(rest)
                if target:
                    found.append(
                        Clause(_object(target.group(1)), f"{where} (converts to)", VERB_CONFIDENCE)
                    )
                continue
            thing = _object(rest)
            if thing:
                found.append(
                    Clause(
                        thing,
                        f"{where} ({verb.lower()})",
                        VERB_CONFIDENCE,
                        locator_source=_FETCHING.match(verb) is not None,
                    )
                )
        for pattern, label, score in (
            (_CJK_RETURNS, "returns", RETURNS_CONFIDENCE),
            (_CJK_FORMAT, "format", FORMAT_CONFIDENCE),
            (_CJK_VERB, "verb", VERB_CONFIDENCE),
            (_CJK_CONVERT, "converts to", VERB_CONFIDENCE),
        ):
            for hit in pattern.finditer(sentence):
                if hit.group(1).strip():
                    found.append(Clause(hit.group(1).strip(), f"{where} ({label})", score))
    return found


def name_clause(name: str) -> Clause | None:
    """The words of a tool's name after its verb (``get_stock_price`` -> "stock price"), or
    the whole name read as words."""
    words = normal_name(name).replace("_", " ").strip()
    if not words:
        return None
    lead = _LEADING.match(words)
    if lead:
        verb = lead.group(1)
        rest = words[lead.end() :].strip()
        if _CONVERTING.match(verb):
            target = _TO.search(" " + rest)
            rest = target.group(1) if target else ""
        rest = _object(rest)
        if not rest:
            return None
        return Clause(rest, "name", NAME_CONFIDENCE, _FETCHING.match(verb) is not None)
    if " to " in f" {words} ":  # docx_to_pdf, html_to_markdown: what it makes is after "to"
        words = f" {words} ".rsplit(" to ", 1)[1].strip()
    words = _object(words)
    return Clause(words, "name", BARE_NAME_CONFIDENCE) if words else None


__all__ = [
    "BARE_NAME_CONFIDENCE",
    "FORMAT_CONFIDENCE",
    "MAX_CLAUSE",
    "NAME_CONFIDENCE",
    "NOT_HEAD_PENALTY",
    "RETURNS_CONFIDENCE",
    "VERBS",
    "VERB_CONFIDENCE",
    "Clause",
    "before_result",
    "description_clauses",
    "first_sentence",
    "head_ends",
    "leading_noun_phrase",
    "name_clause",
]
