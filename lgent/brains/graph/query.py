"""Read graph questions out of plain text: type queries, compositions and relationships.

``parse_graph_query(text, vocabulary)`` returns one of

* ``TypeQuery(input, output)`` - ``PDF -> SentimentScore``, ``input:PDF output:Summary``,
  "what can take PDF and give SentimentScore", "tools that accept a List[Document]";
* ``Composition(source, target)`` - "a path from RawHTML to Summary", "chain PDF to Text";
* ``Relationship(kind, artifact_id)`` - "what depends on X", "what replaced X",
  "what can receive X's output", "what did ToolForge build", ...;

or ``None`` when the text is not a graph question (or names no known type / artifact).
Names are resolved through a ``Vocabulary`` so the parser knows nothing about storage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, Protocol

RelationKind = Literal[
    "dependents",
    "dependencies",
    "successors",
    "predecessors",
    "descendants",
    "forged",
    "forger",
    "implementers",
    "similar",
    "downstream",
    "upstream",
]


class Vocabulary(Protocol):
    """What the parser needs to know: which words are types, which name artifacts."""

    def type_name(self, text: str) -> str | None:
        """The canonical type for ``text`` (case-insensitive, parametric allowed), or None."""
        ...

    def artifact_id(self, text: str) -> str | None:
        """The id of the artifact ``text`` names (id or name, loosely), or None."""
        ...


@dataclass(frozen=True, slots=True)
class TypeQuery:
    input: str | None
    output: str | None

    def describe(self) -> str:
        return f"artifacts taking {self.input or 'anything'} and giving {self.output or 'anything'}"


@dataclass(frozen=True, slots=True)
class Composition:
    source: str
    target: str
    max_length: int | None = None

    def describe(self) -> str:
        steps = (
            f" in at most {self.max_length} step{'s' * (self.max_length != 1)}"
            if self.max_length
            else ""
        )
        return f"composition paths from {self.source} to {self.target}{steps}"


@dataclass(frozen=True, slots=True)
class Relationship:
    kind: RelationKind
    artifact_id: str
    named: str = field(default="", compare=False)
    """The words of the question that named the artifact ("" when not read from text)."""

    def describe(self) -> str:
        return f"{_RELATION_WORDS[self.kind]} {self.artifact_id}"


GraphQuery = TypeQuery | Composition | Relationship

_RELATION_WORDS: dict[str, str] = {
    "dependents": "artifacts that depend on",
    "dependencies": "what is depended on by",
    "successors": "the successors of",
    "predecessors": "the older generations of",
    "descendants": "what evolved from",
    "forged": "what was forged by",
    "forger": "what forged",
    "implementers": "the implementations of",
    "similar": "alternatives to",
    "downstream": "what can consume the output of",
    "upstream": "what can feed the input of",
}


class _LazyPattern:
    """A regular expression compiled when first used: the fifty below took about 30 ms of
    every cold command that loads the graph brain, most of which never reads a question."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int) -> None:
        self._source, self._flags = source, flags
        self._compiled: re.Pattern[str] | None = None

    def _get(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._source, self._flags)
        return compiled

    def match(self, text: str) -> re.Match[str] | None:
        return self._get().match(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self._get().search(text)


def _pattern(source: str, flags: int = 0) -> _LazyPattern:
    return _LazyPattern(source, flags)


_TYPE = r"(?P<{name}>[A-Za-z_][\w.\-]*(?:\[[\w.\-\[\], ]+\])?)"
_A, _B = _TYPE.format(name="a"), _TYPE.format(name="b")
_ART = r"(?P<x>.+?)"
_LEAD = r"(?:.*?)"  # any lead-in ("what can", "tools that", "a") - the names must still resolve
_END = r"\s*[?.!]*$"
_ARTICLE = r"(?:(?:an?|the|some|any)\s+)?"

_ARROW = _pattern(rf"^\s*{_A}\s*(?:->|→|=>|to)\s*{_B}{_END}", re.I)
_FIELDS = _pattern(
    rf"^\s*(?:(?:input|in)\s*[:=]\s*{_A})?\s*(?:[,;]|\band\b)?\s*(?:(?:output|out)\s*[:=]\s*{_B})?{_END}",
    re.I,
)

_STEPS = _pattern(
    r"[\s,;]*(?:(?:with|in|using)\s+)?(?:(?:at most|no more than|up to)\s+)?(?P<n>a single|one|single|two|three|four|five|\d+)"
    r"\s+(?:steps?|hops?|artifacts?|tools?)(?:\s+or (?:fewer|less))?\s*$",
    re.I,
)
_NUMBERS = {"a single": 1, "single": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_HOLE = _pattern(rf"^{_LEAD}\b{_A}\s*(?:->|→|=>)\s*\?+\s*(?:->|→|=>)\s*{_B}\b", re.I)

_COMPOSITION = [
    _pattern(
        rf"^{_LEAD}\b(?:path|pipeline|chain|route|way|composition|workflow)s?\b.*?\bfrom\s+{_ARTICLE}{_A}\s+.*?\b(?:to|into)\s+(?:[\w-]+\s+)*?{_B}{_END}",
        re.I,
    ),
    _pattern(
        rf"^{_LEAD}\b(?:path|pipeline|chain|route|way|composition|workflow)s?\b.*?\bfrom\s+{_ARTICLE}{_A}\s+(?:to|into|->)\s+{_ARTICLE}{_B}{_END}",
        re.I,
    ),
    _pattern(
        rf"^\s*(?:how\s+(?:do|can|could|would)\s+(?:i|we|you)|how\s+to)\s+(?:get|go|turn|convert|transform|move)\s+(?:from\s+)?{_ARTICLE}{_A}\s+(?:to|into)\s+{_ARTICLE}{_B}{_END}",
        re.I,
    ),
    _pattern(
        rf"^\s*(?:chain|compose|connect|pipe|link)\s+{_ARTICLE}{_A}\s+(?:to|into|with|and)\s+{_ARTICLE}{_B}{_END}",
        re.I,
    ),
    _pattern(rf"^\s*(?:pipeline|path|chain)\s*:?\s*{_A}\s*(?:->|→|=>|to)\s*{_B}{_END}", re.I),
]

_INTO = _pattern(rf"^{_LEAD}\b{_A}\s+(?:into|to)\s+{_ARTICLE}{_B}{_END}", re.I)

_TAKE = r"(?:take|takes|taking|accept|accepts|accepting|consume|consumes|read|reads|ingest|ingests|handle|handles|process|processes|work on|works on|operate on|operates on)"
_GIVE = r"(?:give|gives|giving|return|returns|produce|produces|producing|output|outputs|emit|emits|yield|yields|make|makes|create|creates|generate|generates)"
_TYPE_PATTERNS = [
    _pattern(
        rf"^\s*(?:i have|i've got|i got|we have|given|got)\s+{_ARTICLE}{_A}\s*[;,.:\-]*\s*(?:what|which|who|anything|something)\b.*\b(?:read|take|consume|use|process|handle|accept|ingest)s?\b.*{_END}",
        re.I,
    ),
    _pattern(
        rf"^{_LEAD}\b{_TAKE}\s+{_ARTICLE}{_A}(?:\s+(?:as input)?\s*(?:and|to|then)\s+{_GIVE}\s+{_ARTICLE}{_B})?(?:\s+as (?:input|output))?{_END}",
        re.I,
    ),
    _pattern(
        rf"^{_LEAD}\b{_GIVE}\s+{_ARTICLE}{_B}(?:\s+(?:from|out of|given)\s+{_ARTICLE}{_A})?{_END}",
        re.I,
    ),
    _pattern(
        rf"^{_LEAD}\b(?:convert|convert?s|turn|turns|transform|transforms|map|maps)\s+{_ARTICLE}{_A}\s+(?:to|into)\s+{_ARTICLE}{_B}{_END}",
        re.I,
    ),
    _pattern(rf"^{_LEAD}\bfrom\s+{_ARTICLE}{_A}\s+to\s+{_ARTICLE}{_B}{_END}", re.I),
    _INTO,
    _pattern(
        rf"^{_LEAD}\b(?:with|having)\s+(?:an?\s+)?input\s+(?:of\s+|type\s+)?{_A}(?:\s+and\s+(?:an?\s+)?output\s+(?:of\s+|type\s+)?{_B})?{_END}",
        re.I,
    ),
]

_POSSESSIVE = r"(?:'s|’s|s')?"
_FILLER = r"(?:\s+(?:under the hood|internally|behind the scenes|directly|today|right now|at all))?"
_RELATIONSHIPS: list[tuple[RelationKind, _LazyPattern]] = [
    (
        "downstream",
        _pattern(
            rf"^{_LEAD}\b(?:receive|take|consume|accept|use|handle|process|read)s?\s+"
            rf"(?:the\s+)?(?:outputs?|results?)\s+(?:of|from)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "upstream",
        _pattern(
            rf"^{_LEAD}\b(?:produce|give|make|provide|supply|create)s?\s+(?:the\s+)?inputs?\s+"
            rf"(?:of|for|to)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "downstream",
        _pattern(
            rf"^{_LEAD}\b(?:receive|receives|take|takes|consume|consumes|accept|accepts|use|uses|handle|handles|process|processes|read|reads)\s+{_ART}{_POSSESSIVE}\s+(?:output|outputs|results?){_END}",
            re.I,
        ),
    ),
    (
        "downstream",
        _pattern(
            rf"^{_LEAD}\b(?:downstream of|comes? after|can follow|goes after|to put after)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "upstream",
        _pattern(
            rf"^{_LEAD}\b(?:feed|feeds|feed into|upstream of|comes? before|goes before|provide input (?:for|to)|produce input for)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "upstream",
        _pattern(
            rf"^{_LEAD}\b(?:produce|produces|give|gives|make|makes)\s+(?:what|the input)\s+{_ART}\s+(?:needs|takes|expects|accepts){_END}",
            re.I,
        ),
    ),
    (
        "downstream",
        _pattern(
            rf"^{_LEAD}\b(?:compatible with|works? with|composes? with|plugs? into)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "dependents",
        _pattern(
            rf"^{_LEAD}\b(?:depends? on|relies? on|uses|calls|requires|builds? on)\s+{_ART}{_FILLER}{_END}",
            re.I,
        ),
    ),
    (
        "dependents",
        _pattern(rf"^\s*(?:dependents|consumers|users|callers)\s+of\s+{_ART}{_END}", re.I),
    ),
    (
        "dependents",
        _pattern(
            rf"^\s*(?:what|who|which \w+)\s+(?:(?:would|will|could|might)\s+)?(?:break|breaks|fail|fails|stop working)\s+(?:if|when)\s+{_ART}\s+(?:changes|goes away|goes down|is down|fails|is removed|breaks|is retired|disappears){_END}",
            re.I,
        ),
    ),
    (
        "dependencies",
        _pattern(
            rf"^\s*(?:what|which \w+)\s+does\s+{_ART}\s+(?:depend on|rely on|need|use|require|call){_END}",
            re.I,
        ),
    ),
    (
        "dependencies",
        _pattern(
            rf"^\s*(?:dependencies|requirements|prerequisites)\s+(?:of|for)\s+{_ART}{_END}", re.I
        ),
    ),
    (
        "dependencies",
        _pattern(rf"^\s*{_ART}{_POSSESSIVE}\s+(?:dependencies|requirements){_END}", re.I),
    ),
    (
        "successors",
        _pattern(
            rf"^{_LEAD}\b(?:replaced|replaces|supersedes|superseded|succeeded|succeeds)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "successors",
        _pattern(
            rf"^\s*(?:what is\s+|what's\s+)?(?:the\s+)?(?:successor|successors|replacement|replacements|newer versions?|new version|upgrade|latest version)\s+(?:of|for|to)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "successors",
        _pattern(
            rf"^\s*(?:what|which \w+)\s+(?:should i use|to use|do i use)\s+instead of\s+(?:the\s+)?(?:deprecated\s+|retired\s+|old\s+)?{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "successors",
        _pattern(
            rf"^\s*(?:is|was)\s+{_ART}\s+(?:replaced|deprecated|retired|superseded)(?:\s+by anything)?{_END}",
            re.I,
        ),
    ),
    (
        "predecessors",
        _pattern(
            rf"^{_LEAD}\b(?:(?:came|come|was|were|went)\s+before|preceded)\s+{_ART}{_END}", re.I
        ),
    ),
    (
        "successors",
        _pattern(rf"^{_LEAD}\b(?:(?:came|come|was|were)\s+after|followed)\s+{_ART}{_END}", re.I),
    ),
    (
        "predecessors",
        _pattern(
            rf"^\s*(?:what|which \w+)\s+did\s+{_ART}\s+(?:replace|supersede|succeed){_END}", re.I
        ),
    ),
    (
        "predecessors",
        _pattern(
            rf"^\s*(?:the\s+)?(?:predecessors?|older versions?|previous versions?|ancestors?|history)\s+(?:of|for)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "descendants",
        _pattern(
            rf"^{_LEAD}\b(?:evolved|descended|derived|grew|came|was built|were built|is based|are based|branched)\s+(?:out\s+)?(?:from|on)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "descendants",
        _pattern(
            rf"^\s*(?:descendants|derivatives|evolutions|lineage|family)\s+of\s+{_ART}{_END}", re.I
        ),
    ),
    (
        "forged",
        _pattern(
            rf"^\s*(?:what|which \w+)\s+(?:did|has|does|have|do)\s+{_ART}\s+(?:build|built|forge|forged|make|made|create|created|generate|generated|produce|produced|write|written){_END}",
            re.I,
        ),
    ),
    (
        "forged",
        _pattern(
            rf"^\s*(?:everything|all|anything|all the \w+|the \w+)\s+(?:that\s+)?{_ART}\s+(?:has\s+)?(?:built|forged|made|created|generated|produced|wrote|written){_END}",
            re.I,
        ),
    ),
    (
        "forged",
        _pattern(
            rf"^{_LEAD}\b(?:forged|built|made|created|generated|produced|written)\s+by\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "forger",
        _pattern(
            rf"^\s*(?:who|what|which \w+)\s+(?:forged|built|made|created|generated)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "implementers",
        _pattern(
            rf"^{_LEAD}\b(?:implements?|implementing|conforms? to|follows?|satisfies|realizes|fulfil+s)\s+(?:the\s+)?{_ART}(?:\s+(?:interface|protocol|spec|contract))?{_END}",
            re.I,
        ),
    ),
    (
        "implementers",
        _pattern(rf"^\s*(?:implementations|implementers)\s+of\s+{_ART}{_END}", re.I),
    ),
    (
        "similar",
        _pattern(
            rf"^\s*(?:alternatives?|substitutes?|competitors?|replacements?)\s+(?:to|for)\s+{_ART}{_END}",
            re.I,
        ),
    ),
    (
        "similar",
        _pattern(
            rf"^{_LEAD}\b(?:similar to|like|instead of|comparable to|an alternative to)\s+{_ART}{_END}",
            re.I,
        ),
    ),
]


def parse_graph_query(text: str, vocabulary: Vocabulary) -> GraphQuery | None:
    """The graph operation ``text`` asks for, or None. Unknown names never match."""
    text = text.strip()
    if not text or len(text) > 500:
        return None
    max_length = None
    steps = _STEPS.search(text)
    if steps is not None:
        word = steps.group("n").lower()
        max_length = int(word) if word.isdigit() else _NUMBERS[word]
        text = text[: steps.start()].strip()
    found = _types(_HOLE.match(text), vocabulary)
    if found and found[0] and found[1]:
        return Composition(found[0], found[1], max_length)
    for pattern in _COMPOSITION:
        found = _types(pattern.match(text), vocabulary)
        if found and found[0] and found[1]:
            return Composition(found[0], found[1], max_length)
    if max_length is not None:
        found = _types(_ARROW.match(text), vocabulary) or _types(_INTO.match(text), vocabulary)
        if found and found[0] and found[1]:
            return Composition(found[0], found[1], max_length)
    found = _types(_ARROW.match(text), vocabulary)
    if found and found[0] and found[1]:
        return TypeQuery(found[0], found[1])
    fields = _FIELDS.match(text)
    if fields and (fields.group("a") or fields.group("b")):
        found = _types(fields, vocabulary)
        if found and (found[0] or found[1]):
            return TypeQuery(*found)
    for kind, pattern in _RELATIONSHIPS:
        match = pattern.match(text)
        if match:
            named = _clean_name(match.group("x"))
            artifact = vocabulary.artifact_id(named)
            if artifact is not None:
                return Relationship(kind, artifact, named)
    for pattern in _TYPE_PATTERNS:
        match = pattern.match(text)
        found = _types(match, vocabulary)
        if found and (found[0] or found[1]) and _written_as_types(match, found):
            return TypeQuery(*found)
    return _loose_composition(text, vocabulary, max_length)


_SYMBOL_ARROW = _pattern(rf"^\s*{_A}\s*(?:->|→|=>)\s*{_B}{_END}")
_IDENTIFIER = _pattern(r"^[A-Za-z][\w.\-/]*$")


def unknown_names(text: str, vocabulary: Vocabulary) -> list[tuple[str, str]]:
    """The names that kept ``text`` from being read as a graph question although it has the
    shape of one: ``("type", name)`` for an unknown side of ``A -> B`` (or ``A -> ??? -> B``),
    ``("artifact", name)`` for an unknown identifier in a relationship question ("what depends
    on NoSuchTool"). Empty when ``text`` has no such shape or every name in it is known."""
    text = text.strip()
    if len(text) > 500:
        return []
    shaped = _SYMBOL_ARROW.match(text) or _HOLE.match(text)
    if shaped is not None:
        names = [shaped.group(g) for g in ("a", "b")]
        return [("type", n) for n in names if vocabulary.type_name(_clean_name(n)) is None]
    for _, pattern in _RELATIONSHIPS:
        match = pattern.match(text)
        if match is None:
            continue
        name = _clean_name(match.group("x"))
        if vocabulary.artifact_id(name) is not None:
            return []
        # only one identifier-shaped word: "something like a translator" names no artifact
        return [("artifact", name)] if _IDENTIFIER.match(name) else []
    return []


_PIPELINE_WORD = _pattern(r"\b(?:pipeline|path|chain|route|workflow|compose|composition)s?\b", re.I)
_N_STEP = _pattern(r"\b(one|two|three|four|five|\d+)[- ]step\b", re.I)


def _loose_composition(
    text: str, vocabulary: Vocabulary, max_length: int | None
) -> Composition | None:
    """A pipeline request in free words naming two types: the first named is the source, the
    last the target ("two-step pipeline: extract the text of a PDF, then score its SentimentScore")."""
    if not _PIPELINE_WORD.search(text):
        return None
    # only capitalised words count here ("the text of a PDF" names PDF, not Text)
    words = re.findall(r"[A-Z][\w.\-]*(?:\[[^\]]*\])?", text)
    named = [t for w in words if (t := vocabulary.type_name(w))]
    if len(named) < 2 or named[0] == named[-1]:
        return None
    steps = _N_STEP.search(text)
    if steps is not None and max_length is None:
        word = steps.group(1).lower()
        max_length = int(word) if word.isdigit() else _NUMBERS[word]
    return Composition(named[0], named[-1], max_length)


def _types(
    match: re.Match[str] | None, vocabulary: Vocabulary
) -> tuple[str | None, str | None] | None:
    """Both captured type names resolved; None if either captured name is not a known type."""
    if match is None:
        return None
    resolved: list[str | None] = []
    for group in ("a", "b"):
        raw = match.groupdict().get(group)
        if raw is None:
            resolved.append(None)
            continue
        name = vocabulary.type_name(_clean_name(raw))
        if name is None:
            return None
        resolved.append(name)
    return resolved[0], resolved[1]


def _written_as_types(match: re.Match[str] | None, found: tuple[str | None, str | None]) -> bool:
    """Whether a sentence names its types as types: each written as the type's own name, or
    with a capital letter in it ("a PDF", "a web page URL"). "convert html to markdown" names
    kinds of value in everyday words: it is a request for a tool, which every brain reads,
    not a question for the type lattice alone."""
    if match is None:
        return False
    for group, name in zip(("a", "b"), found, strict=True):
        raw = match.groupdict().get(group)
        if raw is None or name is None:
            continue
        written = _clean_name(raw)
        if written != name and written == written.lower():
            return False
    return True


def _clean_name(raw: str) -> str:
    name = raw.strip().strip("`'\"“”‘’").strip()
    name = re.sub(r"(?:'s|’s|s')$", "", name)
    name = re.sub(r"^(?:the|an?)\s+", "", name, flags=re.I)
    name = re.sub(
        r"\s+(?:tool|agent|artifact|component|interface|protocol|spec|output|outputs)$",
        "",
        name,
        flags=re.I,
    )
    return name.strip()
