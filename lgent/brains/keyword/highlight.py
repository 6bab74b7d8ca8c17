"""Why a keyword hit matched: highlighted snippets and the names of the fields that matched.

Worked out from the catalog entry and the query's positive terms (``MatchTerms``), with the
analyzer the index uses, so a word is marked exactly when the index would have matched it.
Only the hits a caller shows need this; the search itself returns ids and scores.

A highlight is HTML: the entry's text escaped (``&``, ``<``, ``>``), the matches between
``<mark>`` and ``</mark>``. Imported descriptions carry markup of their own (an OpenAPI
``<p>``, a tool author's ``<img onerror=...>``), which a client putting highlights in a page
must never see as markup.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from operator import not_

from lgent.analysis.identifiers import merged_forms
from lgent.analysis.tokens import WORD_RE, word_tokens
from lgent.brains.keyword.compile import MatchTerms
from lgent.brains.keyword.typefields import type_tokens
from lgent.models import EntryText

SNIPPET_CHARS = 160
_WORDS_SPLIT = re.compile(f"({WORD_RE.pattern})")
"""Splits a text into the text between words and the words (``WORD_RE``'s), alternately."""
HIGHLIGHT_OPEN, HIGHLIGHT_CLOSE = "<mark>", "</mark>"

# displayed field -> the index fields whose terms can match its text
NAME_FIELDS = ("name", "name_exact", "name_prefix", "all")
DESCRIPTION_FIELDS = ("description", "all")
KEYWORD_FIELDS = ("keywords", "keywords_exact", "all")
TEXT_FIELDS: tuple[tuple[str, tuple[str, ...], Callable[[EntryText], str | None]], ...] = (
    ("author", ("author_text", "all"), lambda e: e.author),
    ("input_type", ("input_text", "all"), lambda e: e.input_type),
    ("output_type", ("output_text", "all"), lambda e: e.output_type),
)
# displayed field -> (exact index field, the value it holds), checked whole
EXACT_FIELDS: tuple[tuple[str, str, Callable[[EntryText], str | None]], ...] = (
    ("author", "author", lambda e: e.author.lower() if e.author else None),
    ("input_type", "input", lambda e: e.input_type.lower() if e.input_type else None),
    ("output_type", "output", lambda e: e.output_type.lower() if e.output_type else None),
    ("entity_type", "entity_type", lambda e: e.entity_type.value),
    ("status", "status", lambda e: e.status.value),
    ("version", "version", lambda e: e.version),
    ("execution", "execution", lambda e: e.execution.value if e.execution else None),
    ("id", "id", lambda e: e.id),
)
TYPE_NAME_FIELDS = (("input_type", "input_names"), ("output_type", "output_names"))


@dataclass(slots=True)
class Match:
    """The highlighted snippets (field -> text with ``<mark>``) and the fields that matched."""

    highlights: dict[str, str] = field(default_factory=dict)
    fields: list[str] = field(default_factory=list)

    def add(self, name: str) -> None:
        if name not in self.fields:
            self.fields.append(name)


def describe_match(entry: EntryText, terms: MatchTerms) -> Match:
    """Where ``terms`` match ``entry``: name, description and keywords highlighted, the other
    fields (author, types, entity type, status, version, execution, id) named when they match."""
    match = Match()
    marked_name = highlight(entry.name, terms, NAME_FIELDS)
    if marked_name is not None:
        match.highlights["name"] = marked_name
        match.add("name")
    marked_description = highlight(entry.description, terms, DESCRIPTION_FIELDS, stemmed_stop=True)
    if marked_description is not None:
        match.highlights["description"] = snippet(marked_description)
        match.add("description")
    marked_keywords = [highlight(k, terms, KEYWORD_FIELDS) for k in entry.keywords]
    if any(m is not None for m in marked_keywords):
        match.highlights["keywords"] = ", ".join(
            m or escaped(k) for m, k in zip(marked_keywords, entry.keywords, strict=True)
        )
        match.add("keywords")
    for name, fields, text_of in TEXT_FIELDS:
        text = text_of(entry)
        if text and highlight(text, terms, fields) is not None:
            match.add(name)
    asked = _asked_fields(terms)
    for name, index_field, value_of in EXACT_FIELDS:
        if index_field not in asked:
            continue
        value = value_of(entry)
        if value and terms.matches(index_field, value):
            match.add(name)
    for name, index_field in TYPE_NAME_FIELDS:
        if index_field not in asked:
            continue
        text = getattr(entry, name)
        if text and any(terms.matches(index_field, t.text) for t in type_tokens(text)):
            match.add(name)
    return match


def _asked_fields(terms: MatchTerms) -> set[str]:
    """The index fields ``terms`` look for anything in (a field outside it matches nothing)."""
    return {*terms.tokens, *terms.patterns, *terms.fuzzy}


def highlight(
    text: str, terms: MatchTerms, fields: tuple[str, ...], *, stemmed_stop: bool = False
) -> str | None:
    """``text`` with matching words wrapped in ``<mark>``; None when nothing in it matches.

    A whole word is marked when it (or one of its merged identifier forms) matches; otherwise
    each identifier part is marked when its analyzed or plain form matches."""
    match = terms.matcher_for(fields)
    if match is None or not text:
        return None
    pieces = _WORDS_SPLIT.split(text)  # text between words, a word, text between words ...
    found = pieces[1::2]
    # plain words (the common case) match through one set's ``__contains__``: only the words
    # one of whose forms is in that set can be marked (the test runs in C, word by word)
    plain = getattr(match, "__self__", None)
    if not isinstance(plain, set | frozenset):
        plain = None
    if plain is not None:
        missed = list(map(plain.isdisjoint, map(_forms, found)))
        if all(missed):
            return None
        candidates: Iterable[int] = compress(range(len(found)), map(not_, missed))
    else:
        candidates = range(len(found))
    marked = False
    for n in candidates:
        word = _mark(found[n], match, plain, stemmed_stop)
        if word is not None:
            pieces[2 * n + 1] = word
            marked = True
    if not marked:
        return None
    # between the words is any other text, markup included; a word holds no &, < or >
    if "&" in text or "<" in text or ">" in text:
        pieces[::2] = map(escaped, pieces[::2])
    return "".join(pieces)


def escaped(text: str) -> str:
    """``text`` as HTML text: ``&``, ``<`` and ``>`` escaped."""
    return html.escape(text, quote=False)


def _mark(
    word: str, match: Callable[[str], bool], plain: AbstractSet[str] | None, stemmed_stop: bool
) -> str | None:
    """``word`` with ``<mark>`` around it or around its matching parts; None if none match
    (``plain``: the set ``match`` looks words up in, if it is one)."""
    lower = word.lower()
    if plain is not None:
        whole = lower in plain or (len(word) > 3 and not plain.isdisjoint(merged_forms(word)))
    else:
        whole = match(lower) or (len(word) > 3 and any(match(form) for form in merged_forms(word)))
    if whole:
        return HIGHLIGHT_OPEN + word + HIGHLIGHT_CLOSE
    out, last = [], 0
    for tok in word_tokens(word, stemmed=True, drop_stop_words=stemmed_stop):
        if match(tok.text) or match(lower[tok.start : tok.end]):
            out += [word[last : tok.start], HIGHLIGHT_OPEN, word[tok.start : tok.end]]
            out.append(HIGHLIGHT_CLOSE)
            last = tok.end
    if not out:
        return None
    out.append(word[last:])
    return "".join(out)


@lru_cache(maxsize=65536)
def _forms(word: str) -> frozenset[str]:
    """Every form of ``word`` that ``highlight`` tests: lowercased, its merged forms, each
    analyzed token and each part lowercased (a superset of the stop-word-dropping case)."""
    lower = word.lower()
    forms = {lower, *merged_forms(word)}
    for tok in word_tokens(word, stemmed=True, drop_stop_words=False):
        forms.add(tok.text)
        forms.add(lower[tok.start : tok.end])
    return frozenset(forms)


def snippet(marked: str, width: int = SNIPPET_CHARS) -> str:
    """A window of ``marked`` text around its first highlight, on one line (runs of whitespace,
    line breaks and a source's indentation included, become one space), with ellipses where
    cut."""
    marked = " ".join(marked.split())
    first = marked.find(HIGHLIGHT_OPEN)
    if len(marked) <= width or first < 0:
        return marked
    start = max(0, first - width // 3)
    end = start + width
    while end < len(marked) and (
        marked.rfind(HIGHLIGHT_OPEN, start, end) > marked.rfind(HIGHLIGHT_CLOSE, start, end)
        or _cuts_tag(marked, end)
    ):
        end += 1  # never cut inside a highlight, nor inside a tag
    return ("…" if start else "") + marked[start:end].strip() + ("…" if end < len(marked) else "")


def _cuts_tag(marked: str, end: int) -> bool:
    """True when ``marked[:end]`` ends inside a ``<mark>`` or ``</mark>`` tag, or inside an
    escaped character (``&lt;``)."""
    entity = marked.rfind("&", max(0, end - 4), end)
    if entity != -1 and marked.find(";", entity, entity + 5) >= end:
        return True
    return any(
        marked.find(tag, max(0, end - len(tag) + 1), end + len(tag) - 1) != -1
        for tag in (HIGHLIGHT_OPEN, HIGHLIGHT_CLOSE)
    )
