"""KeywordBrain: exact names, tags, fields, versions and authors, via tantivy and our grammar."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import tantivy

from lgent.brains.base import BrainStatus, ChangeSet
from lgent.brains.keyword import analysis
from lgent.brains.keyword.compile import MatchTerms, QueryCompiler
from lgent.brains.keyword.grammar import ast, parse, parse_lenient
from lgent.brains.keyword.index import KeywordIndex
from lgent.config import KeywordSettings
from lgent.errors import IndexError_
from lgent.models import BrainHit, CatalogEntry, SearchFilters, TypeDecl

SNIPPET_CHARS = 160
HIGHLIGHT_OPEN, HIGHLIGHT_CLOSE = "<mark>", "</mark>"

# index field -> the displayed field it belongs to
FIELD_FAMILY = {
    "name": "name",
    "name_exact": "name",
    "name_prefix": "name",
    "keywords": "keywords",
    "keywords_exact": "keywords",
    "description": "description",
    "author": "author",
    "author_text": "author",
    "input": "input_type",
    "input_text": "input_type",
    "output": "output_type",
    "output_text": "output_type",
    "input_names": "input_type",
    "output_names": "output_type",
    "entity_type": "entity_type",
    "status": "status",
    "version": "version",
    "execution": "execution",
    "id": "id",
}


# fields beyond name/description/keywords, checked against the stored value: (field, exact?)
OTHER_FIELDS = (
    ("author", True),
    ("author_text", False),
    ("input", True),
    ("input_text", False),
    ("output", True),
    ("output_text", False),
    ("input_names", False),
    ("output_names", False),
    ("entity_type", True),
    ("status", True),
    ("version", True),
    ("execution", True),
    ("id", True),
)
_STORED_SOURCE = {
    "author_text": "author",
    "input_text": "input",
    "output_text": "output",
    "input_names": "input",
    "output_names": "output",
}


@dataclass(slots=True)
class KeywordResult:
    """Hits plus what the caller should know: total matches, lenient repairs, the parsed query."""

    hits: list[BrainHit]
    total: int
    query: str
    warnings: list[str] = field(default_factory=list)


class KeywordBrain:
    """The keyword brain over one tantivy index (``path=None``: in memory)."""

    name = "keyword"

    def __init__(self, path: Path | None, settings: KeywordSettings | None = None) -> None:
        self.settings = settings or KeywordSettings()
        self.index = KeywordIndex(path)
        self.compiler = QueryCompiler(
            self.index.schema, self.settings.boosts, self.settings.field_mode
        )

    @property
    def change_number(self) -> int:
        return self.index.change_number

    def build(
        self, entries: Iterable[CatalogEntry], types: Sequence[TypeDecl], change_number: int
    ) -> None:
        self.index.replace_all(entries, change_number)

    def apply_changes(self, changes: ChangeSet) -> None:
        self.index.apply(changes.upserts, changes.removals, changes.change_number)

    def status(self) -> BrainStatus:
        return BrainStatus(
            self.name, self.change_number >= 0, self.index.documents(), self.change_number
        )

    def close(self) -> None:
        """Nothing to release: tantivy closes its files when the index is dropped."""

    # -- search ----------------------------------------------------------------------------

    def parse(
        self,
        query: str,
        *,
        lenient: bool = False,
        default_operator: Literal["AND", "OR"] | None = None,
    ) -> tuple[ast.Node | None, list[str]]:
        """The AST of ``query`` (strict: raises QuerySyntaxError) and any lenient-mode repairs."""
        operator = default_operator or self.settings.default_operator
        if not lenient:
            return parse(query, default_operator=operator), []
        result = parse_lenient(query, default_operator=operator)
        return result.ast, list(result.warnings)

    def search(
        self,
        query: str,
        filters: SearchFilters | None = None,
        limit: int = 10,
        *,
        lenient: bool = False,
        default_operator: Literal["AND", "OR"] | None = None,
        min_should_match: float = 0.0,
        explain_top: int | None = None,
    ) -> KeywordResult:
        """Ranked artifacts for a grammar query; strict mode raises QuerySyntaxError.

        ``min_should_match``: for a top-level OR (e.g. free text with ``default_operator="OR"``),
        the share of its clauses a hit must match. ``explain_top``: only the first that many
        hits get highlights and matched fields (they cost more than the search; default all)."""
        node, warnings = self.parse(query, lenient=lenient, default_operator=default_operator)
        if node is None:
            return KeywordResult([], 0, query, warnings or ["the query is empty"])
        compiled, terms = self.compiler.compile(node, query, min_should_match=min_should_match)
        if compiled is None:
            return KeywordResult([], 0, query, [*warnings, "the query has only stop words"])
        compiled = self._filtered(compiled, filters)
        searcher = self.index.searcher()
        try:
            result = searcher.search(compiled, limit=max(limit, 1), count=True)
        except ValueError as err:
            raise IndexError_(f"keyword search failed: {err}") from err
        hits = []
        dumped = node.dump()
        for rank, (score, address) in enumerate(result.hits[:limit], start=1):
            doc = searcher.doc(address).to_dict()
            detailed = explain_top is None or rank <= explain_top
            hits.append(self._hit(doc, float(score), rank, terms if detailed else None, dumped))
        total = getattr(result, "count", None)  # set because count=True (not in tantivy's stubs)
        return KeywordResult(hits, int(total or 0), query, warnings)

    def _filtered(self, query: tantivy.Query, filters: SearchFilters | None) -> tantivy.Query:
        if filters is None or filters.empty:
            return query
        clauses = [(tantivy.Occur.Must, query)]
        schema = self.index.schema
        for index_field, values in (
            ("entity_type", [v.value for v in filters.entity_type]),
            ("status", [v.value for v in filters.status]),
            ("execution", [v.value for v in filters.execution]),
            ("author", [v.lower() for v in filters.author]),
        ):
            if values:
                allowed = tantivy.Query.term_set_query(schema, index_field, values)
                clauses.append((tantivy.Occur.Must, allowed))
        return tantivy.Query.boolean_query(clauses)

    def _hit(
        self,
        doc: dict[str, list[Any]],
        score: float,
        rank: int,
        terms: MatchTerms | None,
        dumped: str,
    ) -> BrainHit:
        artifact_id = str(doc["id"][0])
        highlights: dict[str, str] = {}
        matched: list[str] = []
        if terms is not None:
            self._describe_match(doc, terms, highlights, matched)
        explanation = {
            "brain": self.name,
            "score": round(score, 4),
            "rank": rank,
            "description": "BM25 over boosted fields (tantivy)",
            "query": dumped,
            "matched_fields": matched,
        }
        return BrainHit(
            id=artifact_id,
            score=score,
            brain=self.name,
            rank=rank,
            matched_fields=tuple(matched),
            highlights=highlights,
            explanation=explanation,
        )

    @staticmethod
    def _describe_match(
        doc: dict[str, list[Any]], terms: MatchTerms, highlights: dict[str, str], matched: list[str]
    ) -> None:
        """Fill in the highlighted snippets and the names of the fields that matched."""
        for family, text, fields in (
            ("name", _first(doc, "name"), ("name", "name_exact", "name_prefix", "all")),
            ("description", _first(doc, "description"), ("description", "all")),
        ):
            marked = highlight(text, terms, fields, stemmed_stop=family == "description")
            if marked is not None:
                highlights[family] = snippet(marked) if family == "description" else marked
                matched.append(family)
        keywords = [str(k) for k in doc.get("keywords", [])]
        marked_keywords = [
            highlight(k, terms, ("keywords", "keywords_exact", "all")) for k in keywords
        ]
        if any(m is not None for m in marked_keywords):
            highlights["keywords"] = ", ".join(
                m or k for m, k in zip(marked_keywords, keywords, strict=True)
            )
            matched.append("keywords")
        for index_field, exact in OTHER_FIELDS:
            family = FIELD_FAMILY[index_field]
            if family not in matched and _field_matches(doc, index_field, exact, terms):
                matched.append(family)


def _field_matches(
    doc: dict[str, list[Any]], index_field: str, exact: bool, terms: MatchTerms
) -> bool:
    value = _first(doc, _STORED_SOURCE.get(index_field, index_field))
    if not value:
        return False
    if exact:
        return terms.matches(index_field, value)
    if index_field.endswith("_names"):
        return any(terms.matches(index_field, t.text) for t in analysis.type_tokens(value))
    return any(
        terms.matches(index_field, t.text)
        for word in analysis.words(value)
        for t in analysis.word_tokens(word, stemmed=False, drop_stop_words=False)
    )


def _first(doc: dict[str, list[Any]], key: str) -> str:
    values = doc.get(key) or [""]
    return str(values[0])


def highlight(
    text: str, terms: MatchTerms, fields: Sequence[str], *, stemmed_stop: bool = False
) -> str | None:
    """``text`` with matching words wrapped in ``<mark>``; None when nothing in it matches.

    A whole word is marked when it (or one of its merged identifier forms) matches; otherwise
    each identifier part is marked when its analyzed or plain form matches."""
    match = terms.matcher(fields)
    if match is None or not text:
        return None
    spans: list[tuple[int, int]] = []
    for found in analysis.WORD_RE.finditer(text):
        word = found.group()
        lower = word.lower()
        if match(lower) or (
            len(word) > 3 and any(match(form) for form in analysis.merged_forms(word))
        ):
            spans.append((found.start(), found.end()))
            continue
        for tok in analysis.word_tokens(word, stemmed=True, drop_stop_words=stemmed_stop):
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
