"""KeywordBrain: exact names, tags, fields, versions and authors, via tantivy and our grammar."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import tantivy

from lgent.brains.base import SIMILAR_RELATION, BrainQuery, BrainStatus, ChangeSet
from lgent.brains.keyword.cjk import with_cjk_parts
from lgent.brains.keyword.compile import MatchTerms, QueryCompiler
from lgent.brains.keyword.coverage import plain_words, rank_by_coverage
from lgent.brains.keyword.highlight import Match, describe_match
from lgent.brains.keyword.index import KeywordIndex
from lgent.brains.keyword.settings import KeywordSettings
from lgent.errors import IndexCorruptError, IndexError_
from lgent.grammar import ast, parse, parse_lenient
from lgent.grammar.reading import read_words
from lgent.models import BrainHit, CatalogEntry, EntryText, QueryType, SearchFilters, TypeDecl

EntryLookup = Callable[[Sequence[str]], Mapping[str, EntryText]]
"""Catalog entries by id (the facade passes the store's ``get_many``): the text highlights use."""


MENTION_FIELDS = ("description", "keywords")
"""Where ``KeywordBrain.mentions`` looks for an artifact's name by default: the text that says
what an artifact works with (a name field would find its namesakes instead)."""
NAMESAKE_FIELDS = ("name",)
"""Where it looks for alternatives to an artifact: names that hold its name (``read_file`` of
another server), not texts that merely mention it ("use read_file first")."""


@dataclass(slots=True)
class KeywordResult:
    """The ranking (id and BM25 score, best first) and what the caller should know: total
    matches, lenient repairs, the parsed query. ``hits`` are built from the ranking when asked
    for, so a caller that only ranks (fusion) builds hit objects only for what it shows."""

    ranking: list[tuple[str, float]]
    total: int
    query: str
    warnings: list[str] = field(default_factory=list)
    terms: MatchTerms | None = None
    parsed: ast.Node | None = None
    explained: dict[str, BrainHit] = field(default_factory=dict)
    """Hits already worked out with their highlights, by id."""
    notes: tuple[str, ...] = ()
    weak: str = ""
    _tree: str | None = field(default=None, repr=False, compare=False)

    @property
    def tree(self) -> str:
        """The parsed query as the explanations show it (``And(Term('pdf'), Term('parser'))``),
        worked out once."""
        if self._tree is None:
            self._tree = "" if self.parsed is None else self.parsed.dump()
        return self._tree

    @property
    def ids(self) -> list[str]:
        return [artifact_id for artifact_id, _ in self.ranking]

    @property
    def hits(self) -> list[BrainHit]:
        tree = self.tree
        return [
            self.explained.get(artifact_id) or self.hit(artifact_id, score, rank, tree)
            for rank, (artifact_id, score) in enumerate(self.ranking, start=1)
        ]

    def hit(
        self,
        artifact_id: str,
        score: float,
        rank: int,
        tree: str | None = None,
        match: Match | None = None,
    ) -> BrainHit:
        """The hit at ``rank`` (``tree``: ``self.tree``, if already made), with the highlights
        and matched fields of ``match`` when given."""
        fields = [] if match is None else match.fields
        return BrainHit(
            id=artifact_id,
            score=score,
            brain="keyword",
            rank=rank,
            matched_fields=tuple(fields),
            highlights={} if match is None else match.highlights,
            explanation={
                "brain": "keyword",
                "score": round(score, 4),
                "rank": rank,
                "description": "BM25 over boosted fields (tantivy)",
                "query": self.tree if tree is None else tree,
                "matched_fields": fields,
                "why": matched_words(fields),
            },
        )

    def explain(self, artifact_id: str, entry: EntryText) -> BrainHit | None:
        """The hit for ``artifact_id`` with its highlights and matched fields, worked out from
        its catalog entry; None when the ranking does not hold it."""
        if artifact_id in self.explained:
            return self.explained[artifact_id]
        for rank, (ranked_id, score) in enumerate(self.ranking, start=1):
            if ranked_id == artifact_id:
                match = None if self.terms is None else describe_match(entry, self.terms)
                hit = self.hit(artifact_id, score, rank, match=match)
                self.explained[artifact_id] = hit
                return hit
        return None


class KeywordBrain:
    """The keyword brain over one tantivy index (``path=None``: in memory).

    The index holds ids only; ``entries`` gives the catalog entries whose text the highlights
    of the shown hits are worked out from."""

    name = "keyword"

    def __init__(
        self,
        path: Path | None,
        settings: KeywordSettings | None = None,
        *,
        entries: EntryLookup,
        fresh: bool = False,
        read_only: bool = False,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> None:
        self.settings = settings or KeywordSettings()
        self.entries = entries
        self.cancelled = cancelled
        self.index = KeywordIndex(path, fresh=fresh, read_only=read_only)
        self.compiler = QueryCompiler(
            self.index.schema, self.settings.boosts, self.settings.field_mode
        )
        self.free_text_compiler = (
            QueryCompiler(
                self.index.schema,
                {**self.settings.boosts, **self.settings.free_text_boosts},
                self.settings.field_mode,
            )
            if self.settings.free_text_boosts
            else self.compiler
        )
        """Compiles plain-language queries (with ``settings.free_text_boosts``)."""

    @property
    def change_number(self) -> int:
        return self.index.change_number

    def build(
        self, entries: Iterable[CatalogEntry], types: Sequence[TypeDecl], change_number: int
    ) -> None:
        self.index.replace_all(entries, change_number, self.cancelled)
        self.index.detail = ""

    def apply_changes(self, changes: ChangeSet) -> None:
        self.index.apply(changes.upserts, changes.removals, changes.change_number)

    def status(self) -> BrainStatus:
        return BrainStatus(
            self.name,
            self.change_number >= 0,
            self.index.documents(),
            self.change_number,
            self.index.detail,
        )

    def close(self) -> None:
        """Drop a rebuild never swapped in; tantivy closes its files when the index is dropped."""
        self.index.close()

    # -- search ----------------------------------------------------------------------------

    def answer(self, query: BrainQuery) -> KeywordResult:
        """Search the way the query's class calls for (the ranking only; hits are explained
        when fusion asks for the ones it shows).

        Asked directly (no class): the grammar, strict unless ``query.strict`` is off. Keyword
        syntax: strict grammar, words ANDed (a syntax error is the answer). A type or
        composition question: the artifacts whose input names the source type or whose output
        names the target (its words would match every entry that mentions the types). A
        relationship question: the artifacts whose text mentions the one it is about, or for
        alternatives to it, whose name holds its name (``mentions``). A
        name: the words ANDed, then ORed if nothing matched. Plain language: lenient, ORed,
        and a hit must match ``query.min_should_match`` of the words."""
        text, filters, limit = query.text, query.filters, query.limit
        reading = query.reading
        if query.query_type is None:
            node, warnings = self.parse(text, lenient=not query.strict)
            words = plain_words(node)
            if words is not None and self.free_text_compiler.clauses(words) > 1:
                return self.search_by_coverage(words, text, filters, limit, warnings)
            return self.search(text, filters, limit, lenient=not query.strict, explain_top=0)
        if reading is not None and reading.kind in ("type", "composition"):
            typed = _typed_query(reading.input_type, reading.output_type)
            if typed is not None:
                return self.search(typed, filters, limit, default_operator="OR", explain_top=0)
        if reading is not None and reading.kind == "relationship" and reading.artifact:
            similar = reading.relation == SIMILAR_RELATION
            fields = NAMESAKE_FIELDS if similar else MENTION_FIELDS
            return self.mentions(reading.artifact, filters, limit, fields)
        if query.query_type == QueryType.KEYWORD_SYNTAX:
            return self.search(
                text, filters, limit, lenient=False, default_operator="AND", explain_top=0
            )
        if query.query_type == QueryType.EXACT_NAME:
            found = self.search(
                text, filters, limit, lenient=True, default_operator="AND", explain_top=0
            )
            if found.ranking:
                return found
            return self.search(
                text, filters, limit, lenient=True, default_operator="OR", explain_top=0
            )
        tree = read_words(text).tree
        if tree is None:
            return KeywordResult([], 0, text, ["the query has no words"])
        return self.search_tree(
            with_cjk_parts(tree),
            text,
            filters,
            limit,
            min_should_match=query.min_should_match,
            explain_top=0,
            free_text=True,
        )

    def search_by_coverage(
        self,
        words: ast.Or,
        text: str,
        filters: SearchFilters | None,
        limit: int,
        warnings: Sequence[str] = (),
    ) -> KeywordResult:
        """Plain words asked directly, ranked as a search box ranks them: by how many of the
        words an artifact holds, then by BM25 (``coverage.py``)."""
        return rank_by_coverage(self, words, text, filters, limit, warnings)

    def mentions(
        self,
        artifact_id: str,
        filters: SearchFilters | None,
        limit: int,
        fields: Sequence[str] = (),
    ) -> KeywordResult:
        """The artifacts whose ``fields`` (default ``MENTION_FIELDS``) name ``artifact_id`` (its
        id, or its name when the name is ``distinctive``, each as a phrase), the artifact itself
        left out: what words can add to
        a question about its relations. The question's own words ("what", "depends",
        "output") would match every entry that happens to use them."""
        fields = fields or MENTION_FIELDS
        entry = self.entries([artifact_id]).get(artifact_id)
        # in a name field any namesake counts; in a text only a name that is no common word
        named_ok = tuple(fields) == NAMESAKE_FIELDS or (
            entry is not None and distinctive(entry.name)
        )
        named = [entry.name] if entry is not None and named_ok else []
        names = dict.fromkeys([artifact_id, *named])
        tree = ast.Or(tuple(ast.Phrase(name, field) for name in names for field in fields))
        # ids and scores only, as every answer fusion asks for: it explains what it shows
        query = f"mentions of {artifact_id}"
        found = self.search_tree(tree, query, filters, limit + 1, explain_top=0)
        found.ranking = [hit for hit in found.ranking if hit[0] != artifact_id][:limit]
        return found

    def matching(self, text: str, artifact_ids: Sequence[str]) -> set[str]:
        """The ids among ``artifact_ids`` that the grammar query ``text`` matches (strict; a
        query of only stop words restricts nothing)."""
        node = parse(text, default_operator="AND")
        compiled, _ = self.compiler.compile(node)
        if compiled is None or not artifact_ids:
            return set(artifact_ids)
        ids = tantivy.Query.term_set_query(self.index.schema, "id", list(artifact_ids))
        both = tantivy.Query.boolean_query(
            [(tantivy.Occur.Must, compiled), (tantivy.Occur.Must, ids)]
        )
        searcher = self.index.searcher()
        try:
            found = searcher.search(both, limit=len(artifact_ids))
            return {str(searcher.doc(address)["id"][0]) for _, address in found.hits}
        except ValueError as err:
            raise IndexError_(f"keyword search failed: {err}") from err

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
        hits get highlights and matched fields, read from their catalog entries (that costs
        more than the search; default all). ``KeywordResult.explain`` does it for any hit later."""
        node, warnings = self.parse(query, lenient=lenient, default_operator=default_operator)
        if node is None:
            return KeywordResult([], 0, query, warnings or ["the query is empty"])
        return self.search_tree(
            node,
            query,
            filters,
            limit,
            min_should_match=min_should_match,
            explain_top=explain_top,
            warnings=warnings,
        )

    def search_tree(
        self,
        node: ast.Node,
        query: str,
        filters: SearchFilters | None = None,
        limit: int = 10,
        *,
        min_should_match: float = 0.0,
        min_count: int = 0,
        explain_top: int | None = None,
        warnings: Sequence[str] = (),
        free_text: bool = False,
    ) -> KeywordResult:
        """``search`` for a syntax tree already made (``query``: the text it came from).
        ``free_text``: the tree is plain language; score with ``settings.free_text_boosts``.
        ``min_count``: a top-level OR must match at least that many of its clauses."""
        warnings = list(warnings)
        compiler = self.free_text_compiler if free_text else self.compiler
        compiled, terms = compiler.compile(
            node, min_should_match=min_should_match, min_count=min_count
        )
        if compiled is None:
            return KeywordResult([], 0, query, [*warnings, "the query has only stop words"])
        compiled = self._filtered(compiled, filters)
        searcher = self.index.searcher()
        try:
            found = searcher.search(compiled, limit=max(limit, 1), count=True)
            ranking = [
                (str(searcher.doc(address).get_first("id")), float(score))
                for score, address in found.hits[:limit]
            ]
        except ValueError as err:
            raise IndexError_(f"keyword search failed: {err}") from err
        for artifact_id, score in ranking:
            if not math.isfinite(score) or score < 0:
                raise IndexCorruptError(
                    f"the keyword index scored {artifact_id!r} {score!r}; BM25 scores are finite "
                    "and never negative, so the index is damaged"
                )
        total = getattr(found, "count", None)  # set because count=True (not in tantivy's stubs)
        result = KeywordResult(ranking, int(total or 0), query, warnings, terms, node)
        shown = result.ids[: len(ranking) if explain_top is None else max(explain_top, 0)]
        if shown:
            entries = self.entries(shown)
            for artifact_id in shown:
                if artifact_id in entries:
                    result.explain(artifact_id, entries[artifact_id])
        return result

    def _filtered(self, query: tantivy.Query, filters: SearchFilters | None) -> tantivy.Query:
        if filters is None or filters.empty:
            return query
        clauses = [(tantivy.Occur.Must, query)]
        schema = self.index.schema
        if filters.ids is not None:
            only = tantivy.Query.term_set_query(schema, "id", sorted(filters.ids))
            clauses.append((tantivy.Occur.Must, only))
        for index_field, values in (
            ("entity_type", [v.value for v in filters.entity_type]),
            ("status", [v.value for v in filters.status]),
            ("execution", [v.value for v in filters.execution]),
            ("author", sorted(filters.author_keys)),
        ):
            if values:
                allowed = tantivy.Query.term_set_query(schema, index_field, values)
                clauses.append((tantivy.Occur.Must, allowed))
        return tantivy.Query.boolean_query(clauses)


def _typed_query(source: str | None, target: str | None) -> str | None:
    """``input:"A" OR output:"B"`` for the sides of a type question that are known."""
    sides = (("input", source), ("output", target))
    quoted = [f'{field}:"{_escape(name)}"' for field, name in sides if name]
    return " OR ".join(quoted) or None


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


_IDENTIFIER = re.compile(r"[_\-./\d]|[a-z][A-Z]")


def distinctive(name: str) -> bool:
    """Whether a name, met in a text, names its artifact: an identifier (``get_weather``,
    ``PDFParser_v2``, ``chat.postMessage``) or several words; a plain word (``fetch``,
    ``search``) is only a word: every text that uses it would be a mention."""
    return len(name.split()) > 1 or _IDENTIFIER.search(name) is not None


FIELD_WORDS = {"input_type": "input type", "output_type": "output type"}


def matched_words(fields: Sequence[str]) -> str:
    """Why a hit matched, for a result's card: ``words in name, input type``."""
    named = ", ".join(FIELD_WORDS.get(f, f) for f in fields)
    return f"words in {named}" if named else "words"
