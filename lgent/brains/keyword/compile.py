"""Compile a grammar AST into a tantivy ``Query``, using the same analyzer as the index.

Each query field maps to one or more index fields ("targets"); a term becomes a
disjunction-max over its targets, each boosted (name > keywords > description by default).
Terms that analyze to nothing (only stop words) are dropped from their clause. The compiler
also collects the positive terms of the query so that hits can be highlighted and explained.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import tantivy

from lgent.analysis.tokens import tokens
from lgent.brains.keyword.settings import DEFAULT_FIELD_BOOSTS
from lgent.brains.keyword.typefields import glob_to_regex, type_tokens
from lgent.grammar import ast

Kind = Literal["exact", "exact_case", "stemmed", "stemmed_stop", "plain", "type"]

# query field -> [(index field, how values are analyzed)]
FIELD_TARGETS: Mapping[str, tuple[tuple[str, Kind], ...]] = {
    "name": (("name", "stemmed"), ("name_exact", "exact")),
    "description": (("description", "stemmed_stop"),),
    "keywords": (("keywords", "stemmed"), ("keywords_exact", "exact")),
    "tag": (("keywords", "stemmed"), ("keywords_exact", "exact")),
    "author": (("author", "exact"), ("author_text", "plain")),
    "type": (("entity_type", "exact"),),
    "status": (("status", "exact"),),
    "execution": (("execution", "exact"),),
    "version": (("version", "exact_case"),),
    "input": (("input", "exact"), ("input_names", "type")),
    "output": (("output", "exact"), ("output_names", "type")),
    "id": (("id", "exact_case"),),
}

FIELD_WISE_TARGETS: tuple[tuple[str, Kind], ...] = (
    ("name", "stemmed"),
    ("name_exact", "exact"),
    ("keywords", "stemmed"),
    ("keywords_exact", "exact"),
    ("description", "stemmed_stop"),
    ("author", "exact"),
    ("author_text", "plain"),
    ("input_text", "plain"),
    ("output_text", "plain"),
)
"""A word with no field, field by field: each field scored on its own, the best one counts."""

DEFAULT_TARGETS: Mapping[str, tuple[tuple[str, Kind], ...]] = {
    "fields": FIELD_WISE_TARGETS,
    "combined": (("all", "stemmed_stop"), ("name_exact", "exact"), ("keywords_exact", "exact")),
}
"""Where a word with no field is looked for, per ``KeywordSettings.field_mode``. ``combined``
scores the one field holding name, keywords, description, author and types, and boosts a word
that is a whole name part or keyword: as good on the labeled queries as ``fields`` and several
times cheaper to search (docs/quality.md, docs/benchmarks.md). A wildcard with no field always
goes field by field, so that on names it stays anchored at the name's start."""

TIE_BREAKER = 0.3


@dataclass(slots=True)
class MatchTerms:
    """Positive terms of a query per index field, for highlighting and matched-field reports."""

    tokens: dict[str, set[str]] = field(default_factory=dict)
    patterns: dict[str, list[re.Pattern[str]]] = field(default_factory=dict)
    fuzzy: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    _matchers: dict[tuple[str, ...], Callable[[str], bool] | None] = field(
        default_factory=dict, repr=False, compare=False
    )

    def add_tokens(self, index_field: str, values: list[str]) -> None:
        self.tokens.setdefault(index_field, set()).update(values)

    def add_pattern(self, index_field: str, pattern: re.Pattern[str]) -> None:
        self.patterns.setdefault(index_field, []).append(pattern)

    def add_fuzzy(self, index_field: str, value: str, distance: int) -> None:
        self.fuzzy.setdefault(index_field, []).append((value, distance))

    def matches(self, index_field: str, token: str) -> bool:
        if token in self.tokens.get(index_field, ()):
            return True
        if any(p.fullmatch(token) for p in self.patterns.get(index_field, ())):
            return True
        return any(edit_distance(token, v, d) <= d for v, d in self.fuzzy.get(index_field, ()))

    @property
    def empty(self) -> bool:
        return not (self.tokens or self.patterns or self.fuzzy)

    def matcher_for(self, fields: tuple[str, ...]) -> Callable[[str], bool] | None:
        """``matcher(fields)``, made once per field set (every hit shown asks for the same ones;
        the terms must not change after that)."""
        if fields not in self._matchers:
            self._matchers[fields] = self.matcher(fields)
        return self._matchers[fields]

    def matcher(self, fields: Sequence[str]) -> Callable[[str], bool] | None:
        """One test for "matches in any of ``fields``" (None when nothing can match there)."""
        tokens = set().union(*(self.tokens.get(f, ()) for f in fields))
        patterns = [p for f in fields for p in self.patterns.get(f, ())]
        fuzzy = [v for f in fields for v in self.fuzzy.get(f, ())]
        if not (tokens or patterns or fuzzy):
            return None
        if not (patterns or fuzzy):
            return tokens.__contains__  # the common case: plain words, one set lookup

        def match(token: str) -> bool:
            return (
                token in tokens
                or any(p.fullmatch(token) for p in patterns)
                or any(edit_distance(token, v, d) <= d for v, d in fuzzy)
            )

        return match


def edit_distance(a: str, b: str, bound: int) -> int:
    """Optimal-string-alignment distance (a transposition costs 1), or ``bound + 1`` if larger."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > bound:
            return bound + 1
        prev2, prev = prev, cur
    return prev[-1]


class QueryCompiler:
    """Turns AST nodes into tantivy queries for one schema, boost table and field mode."""

    def __init__(
        self,
        schema: tantivy.Schema,
        boosts: Mapping[str, float] | None = None,
        mode: Literal["fields", "combined"] = "fields",
    ) -> None:
        self.schema = schema
        self.boosts = {**DEFAULT_FIELD_BOOSTS, **(boosts or {})}
        self.default_targets = DEFAULT_TARGETS[mode]

    def compile(
        self, node: ast.Node, *, min_should_match: float = 0.0, min_count: int = 0
    ) -> tuple[tantivy.Query | None, MatchTerms]:
        """The query (None when nothing in it can match, e.g. only stop words) and its terms.

        ``min_should_match`` (0..1): when the root is an OR of several clauses, at least this
        share of them (rounded up) must match, as Lucene's ``mm`` does for free-text queries;
        ``min_count``: at least this many of them.
        """
        terms = MatchTerms()
        if isinstance(node, ast.Or) and (min_should_match > 0 or min_count > 0):
            return self._or(node.children, terms, True, min_should_match, min_count), terms
        return self._node(node, terms, positive=True), terms

    def clauses(self, node: ast.Node) -> int:
        """How many clauses of an OR at the root can match (stop words do not): the words a
        minimum-should-match counts."""
        children = node.children if isinstance(node, ast.Or) else (node,)
        return sum(1 for child in children if self._node(child, MatchTerms(), True) is not None)

    # -- nodes -----------------------------------------------------------------------------

    def _node(self, node: ast.Node, terms: MatchTerms, positive: bool) -> tantivy.Query | None:
        if isinstance(node, ast.MatchAll):
            return tantivy.Query.all_query()
        if isinstance(node, ast.And):
            return self._and(node.children, terms, positive)
        if isinstance(node, ast.Or):
            return self._or(node.children, terms, positive)
        if isinstance(node, ast.Not):
            inner = self._node(node.child, terms, not positive)
            if inner is None:
                return None
            return _bool(
                [(tantivy.Occur.Must, tantivy.Query.all_query()), (tantivy.Occur.MustNot, inner)]
            )
        if isinstance(node, ast.Required):
            return self._node(node.child, terms, positive)
        return self._leaf(node, terms if positive else MatchTerms())

    def _and(
        self, children: tuple[ast.Node, ...], terms: MatchTerms, positive: bool
    ) -> tantivy.Query | None:
        clauses: list[tuple[tantivy.Occur, tantivy.Query]] = []
        for child in children:
            if isinstance(child, ast.Not):
                inner = self._node(child.child, terms, not positive)
                if inner is not None:
                    clauses.append((tantivy.Occur.MustNot, inner))
                continue
            query = self._node(child, terms, positive)
            if query is not None:
                clauses.append((tantivy.Occur.Must, query))
        if not any(occur == tantivy.Occur.Must for occur, _ in clauses):
            if not clauses:
                return None
            clauses.append((tantivy.Occur.Must, tantivy.Query.all_query()))
        return clauses[0][1] if len(clauses) == 1 else _bool(clauses)

    def _or(
        self,
        children: tuple[ast.Node, ...],
        terms: MatchTerms,
        positive: bool,
        min_share: float = 0.0,
        min_count: int = 0,
    ) -> tantivy.Query | None:
        clauses: list[tuple[tantivy.Occur, tantivy.Query]] = []
        for child in children:
            query = self._node(child, terms, positive)
            if query is None:
                continue
            occur = tantivy.Occur.Must if isinstance(child, ast.Required) else tantivy.Occur.Should
            clauses.append((occur, query))
        if not clauses:
            return None
        if len(clauses) == 1:
            return clauses[0][1]
        should = sum(1 for occur, _ in clauses if occur == tantivy.Occur.Should)
        needed = math.ceil(min_share * should) if min_share > 0 else 0
        needed = min(max(needed, min_count), should)
        if needed > 1:
            return tantivy.Query.boolean_query(clauses, minimum_number_should_match=needed)
        return _bool(clauses)

    # -- leaves ----------------------------------------------------------------------------

    def _targets(self, node: ast.Node) -> tuple[tuple[str, Kind], ...]:
        query_field: str | None = getattr(node, "field", None)
        if query_field is not None:
            return FIELD_TARGETS[query_field]
        return FIELD_WISE_TARGETS if isinstance(node, ast.Wildcard) else self.default_targets

    def _leaf(self, node: ast.Node, terms: MatchTerms) -> tantivy.Query | None:
        """One leaf over its targets: field by field the best field counts (disjunction-max);
        over the combined field and its exact forms the matches add up (and search faster)."""
        targets = self._targets(node)
        if isinstance(node, ast.Term) and node.field is None and _stop_word(node.text):
            return None  # "extract a table": the "a" must not be looked for in exact fields
        per_target: list[tantivy.Query] = []
        for index_field, kind in targets:
            query = self._leaf_target(node, index_field, kind, terms)
            if query is not None:
                boost = self.boosts.get(index_field, 1.0)
                per_target.append(
                    query if boost == 1.0 else tantivy.Query.boost_query(query, boost)
                )
        if not per_target:
            return None
        if len(per_target) == 1:
            return per_target[0]
        if targets is DEFAULT_TARGETS["combined"]:
            return _bool([(tantivy.Occur.Should, q) for q in per_target])
        return tantivy.Query.disjunction_max_query(per_target, tie_breaker=TIE_BREAKER)

    def _leaf_target(
        self, node: ast.Node, index_field: str, kind: Kind, terms: MatchTerms
    ) -> tantivy.Query | None:
        schema = self.schema
        if isinstance(node, ast.Term | ast.Phrase):
            text = node.text
            if kind in ("exact", "exact_case"):
                value = text if kind == "exact_case" else text.lower()
                terms.add_tokens(index_field, [value])
                return tantivy.Query.term_query(schema, index_field, value)
            toks = list(_analyze(text, kind))
            if not toks:
                return None
            terms.add_tokens(index_field, toks)
            if len(toks) == 1:
                return tantivy.Query.term_query(schema, index_field, toks[0])
            words: list[str | tuple[int, str]] = list(toks)
            return tantivy.Query.phrase_query(schema, index_field, words)
        if isinstance(node, ast.Wildcard):
            if index_field == "name":
                return None  # names are matched whole, from their start: see name_prefix
            if index_field == "name_exact":
                index_field = "name_prefix"
            pattern = node.pattern if kind == "exact_case" else node.pattern.lower()
            regex = glob_to_regex(pattern) if kind != "exact_case" else _case_glob(pattern)
            if kind not in ("exact", "exact_case") and not _single_token_glob(pattern):
                return None  # a glob spanning separators can only match whole exact values
            terms.add_pattern(index_field, re.compile(regex))
            return tantivy.Query.regex_query(schema, index_field, regex)
        if isinstance(node, ast.Fuzzy):
            if kind in ("exact", "exact_case"):
                value = node.text if kind == "exact_case" else node.text.lower()
            else:
                toks = list(_analyze(node.text, kind))
                if len(toks) != 1:
                    return None
                value = toks[0]
            terms.add_fuzzy(index_field, value, node.distance)
            return tantivy.Query.fuzzy_term_query(
                schema, index_field, value, distance=node.distance
            )
        raise TypeError(f"unknown query node {type(node).__name__}")


@lru_cache(maxsize=16384)
def _analyze(text: str, kind: Kind) -> tuple[str, ...]:
    """The index-side tokens of a query text for one kind of field (memoized: every term is
    analyzed once per kind, not once per target field)."""
    if kind == "type":
        return tuple(t.text for t in type_tokens(text))
    return tuple(
        t.text
        for t in tokens(
            text,
            stemmed=kind in ("stemmed", "stemmed_stop"),
            drop_stop_words=kind == "stemmed_stop",
        )
    )


def _stop_word(text: str) -> bool:
    """True when a default-field word is only stop words (it analyzes to nothing)."""
    return not _analyze(text, "stemmed_stop")


def _single_token_glob(pattern: str) -> bool:
    return all(ch.isalnum() or ch in "*?" for ch in pattern)


def _case_glob(pattern: str) -> str:
    return "".join(".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in pattern)


def _bool(clauses: list[tuple[tantivy.Occur, tantivy.Query]]) -> tantivy.Query:
    return tantivy.Query.boolean_query(clauses)
