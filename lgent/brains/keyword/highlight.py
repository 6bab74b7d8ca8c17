"""Why a keyword hit matched: highlighted snippets and the names of the fields that matched.

Worked out from the catalog entry and the query's positive terms (``MatchTerms``), with the
analyzer the index uses, so a word is marked exactly when the index would have matched it.
Only the hits a caller shows need this; the search itself returns ids and scores.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from lgent.analysis.identifiers import merged_forms
from lgent.analysis.tokens import WORD_RE, word_tokens
from lgent.brains.keyword.compile import MatchTerms
from lgent.brains.keyword.typefields import type_tokens
from lgent.models import CatalogEntry

SNIPPET_CHARS = 160
HIGHLIGHT_OPEN, HIGHLIGHT_CLOSE = "<mark>", "</mark>"

# displayed field -> the index fields whose terms can match its text
NAME_FIELDS = ("name", "name_exact", "name_prefix", "all")
DESCRIPTION_FIELDS = ("description", "all")
KEYWORD_FIELDS = ("keywords", "keywords_exact", "all")
TEXT_FIELDS: tuple[tuple[str, tuple[str, ...], Callable[[CatalogEntry], str | None]], ...] = (
    ("author", ("author_text", "all"), lambda e: e.author),
    ("input_type", ("input_text", "all"), lambda e: e.input_type),
    ("output_type", ("output_text", "all"), lambda e: e.output_type),
)
# displayed field -> (exact index field, the value it holds), checked whole
EXACT_FIELDS: tuple[tuple[str, str, Callable[[CatalogEntry], str | None]], ...] = (
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


def describe_match(entry: CatalogEntry, terms: MatchTerms) -> Match:
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
            m or k for m, k in zip(marked_keywords, entry.keywords, strict=True)
        )
        match.add("keywords")
    for name, fields, text_of in TEXT_FIELDS:
        text = text_of(entry)
        if text and highlight(text, terms, fields) is not None:
            match.add(name)
    for name, index_field, value_of in EXACT_FIELDS:
        value = value_of(entry)
        if value and terms.matches(index_field, value):
            match.add(name)
    for name, index_field in TYPE_NAME_FIELDS:
        text = getattr(entry, name)
        if text and any(terms.matches(index_field, t.text) for t in type_tokens(text)):
            match.add(name)
    return match


def highlight(
    text: str, terms: MatchTerms, fields: tuple[str, ...], *, stemmed_stop: bool = False
) -> str | None:
    """``text`` with matching words wrapped in ``<mark>``; None when nothing in it matches.

    A whole word is marked when it (or one of its merged identifier forms) matches; otherwise
    each identifier part is marked when its analyzed or plain form matches."""
    match = terms.matcher_for(fields)
    if match is None or not text:
        return None
    spans: list[tuple[int, int]] = []
    for found in WORD_RE.finditer(text):
        word = found.group()
        lower = word.lower()
        if match(lower) or (len(word) > 3 and any(match(form) for form in merged_forms(word))):
            spans.append((found.start(), found.end()))
            continue
        for tok in word_tokens(word, stemmed=True, drop_stop_words=stemmed_stop):
            if match(tok.text) or match(lower[tok.start : tok.end]):
                spans.append((found.start() + tok.start, found.start() + tok.end))
    if not spans:
        return None
    out, last = [], 0
    for start, end in spans:
        out += [text[last:start], HIGHLIGHT_OPEN, text[start:end], HIGHLIGHT_CLOSE]
        last = end
    out.append(text[last:])
    return "".join(out)


def snippet(marked: str, width: int = SNIPPET_CHARS) -> str:
    """A window of ``marked`` text around its first highlight, with ellipses where cut."""
    first = marked.find(HIGHLIGHT_OPEN)
    if len(marked) <= width or first < 0:
        return marked
    start = max(0, first - width // 3)
    end = start + width
    while end < len(marked) and marked.rfind(HIGHLIGHT_OPEN, start, end) > marked.rfind(
        HIGHLIGHT_CLOSE, start, end
    ):
        end += 1  # never cut inside a highlight
    return ("…" if start else "") + marked[start:end].strip() + ("…" if end < len(marked) else "")
