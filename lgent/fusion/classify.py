"""Classify a query (EXACT_NAME, KEYWORD_SYNTAX, TYPE_QUERY, RELATIONSHIP, SEMANTIC_INTENT).

The order of the rules, each with the reason it gives:

1. The graph brain reads a composition or a type question ("a path from RawHTML to Summary",
   ``PDF -> SentimentScore``, ``input:PDF``) -> TYPE_QUERY; a relationship question naming a
   known artifact ("what depends on PDFParser_v2") -> RELATIONSHIP.
2. The query uses the keyword grammar's operators (``field:``, quotes, AND/OR/NOT, ``-x``,
   ``+x``, wildcards, ``~``) and parses -> KEYWORD_SYNTAX.
3. The whole query names an artifact (id or name, ignoring case and punctuation, or a close
   misspelling of one), or is a single identifier-shaped word -> EXACT_NAME.
4. Otherwise -> SEMANTIC_INTENT (saying which unknown type or artifact kept a query shaped
   like a graph question from being read as one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from lgent.brains.graph.query import Composition, GraphQuery, Relationship, TypeQuery
from lgent.brains.keyword.grammar import ast, parse
from lgent.errors import QuerySyntaxError
from lgent.models import QueryType

# A '?' is a wildcard only inside a word ("pars?r"); at a word's end it is a question mark.
_OPERATOR_RE = re.compile(
    r'(?:^|\s)[-+]\w|\b(?:AND|OR|NOT)\b|&&|\|\||"|\w\*|\*\w|\w\?\w|\w~\d?(?:\s|$)|^\*$'
)
_FIELD_RE = re.compile(
    r"\b(?:name|description|keywords|tag|author|type|version|status|input|output|id|execution):",
    re.I,
)
_STRONG_SYNTAX_RE = re.compile(
    r"\b(?i:name|description|keywords|tag|author|type|version|status|input|output|id|execution):"
    r"|\b(?:AND|OR|NOT)\b|[()]"
)
_IDENTIFIER_RE = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[_\-.][A-Za-z0-9]+)*$")
MAX_NAME_WORDS = 4
# A field clause that is clearly meant: one of our fields, lower case, its value right after it.
_CLEAR_FIELD_RE = re.compile(
    r"(?:^|[\s(])-?(?:name|description|keywords|tag|author|type|version|status|input|output|id"
    r"|execution):[^\s]"
)
_WORD_RE = re.compile(r"[^\W\d_]{2,}")
_GRAMMAR_CHARS_RE = re.compile(r'["()*~]|(?:^|(?<=\s))[-+](?=\S)|(?<=\w):(?=\s|$)|&&|\|\|')


class GraphReader(Protocol):
    """What classification needs from the graph brain."""

    def interpret(self, text: str) -> GraphQuery | None: ...

    def artifact_id(self, text: str, *, fuzzy: bool = True) -> str | None: ...

    def unread(self, text: str) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Classification:
    query_type: QueryType
    reason: str
    graph_operation: GraphQuery | None = None
    named_artifact: str | None = None
    syntax_tree: ast.Node | None = None


def classify(
    query: str,
    graph: GraphReader | None,
    *,
    lenient: bool = False,
    sentence_words: int = 0,
) -> Classification:
    """The query type of ``query`` and the reason, per the rules in the module docstring.

    A query that clearly means to use the grammar (a ``field:``, an AND/OR/NOT operator or
    parentheses) but does not parse raises ``QuerySyntaxError``, unless ``lenient``: then, like
    one with only stray quotes or dashes, it is read as plain words. ``sentence_words`` (0:
    off; a prototype, issue 15): a query of at least that many words with no clear
    ``field:value`` is a sentence, and its quotes, dashes and operator words are words."""
    text = query.strip()
    operation = graph.interpret(text) if graph is not None else None
    if isinstance(operation, Composition):
        return Classification(QueryType.TYPE_QUERY, f"asks for {operation.describe()}", operation)
    if isinstance(operation, TypeQuery):
        return Classification(QueryType.TYPE_QUERY, f"asks for {operation.describe()}", operation)
    if isinstance(operation, Relationship):
        return Classification(
            QueryType.RELATIONSHIP,
            f"asks for {operation.describe()}",
            operation,
            operation.artifact_id,
        )
    if uses_keyword_syntax(text) and reads_as_sentence(text, sentence_words):
        return Classification(
            QueryType.SEMANTIC_INTENT,
            "reads as a sentence: its quotes, dashes and operator words are read as words",
        )
    if uses_keyword_syntax(text):
        try:
            tree = parse(text)
        except QuerySyntaxError:
            if not lenient and _STRONG_SYNTAX_RE.search(text):
                raise
            tree = None
        if tree is not None:
            return Classification(
                QueryType.KEYWORD_SYNTAX,
                "uses keyword query operators (fields, phrases, booleans or wildcards)",
                syntax_tree=tree,
            )
    words = text.split()
    if graph is not None and 0 < len(words) <= MAX_NAME_WORDS:
        named = graph.artifact_id(text, fuzzy=len(words) == 1)
        if named is not None:
            return Classification(
                QueryType.EXACT_NAME, f"names the artifact {named}", named_artifact=named
            )
    if len(words) == 1 and _looks_like_identifier(text):
        return Classification(QueryType.EXACT_NAME, f"{text!r} looks like an artifact identifier")
    unread = graph.unread(text) if graph is not None else None
    if unread is not None:
        reason = (
            f"is read as plain words, because it has the shape of a graph question but {unread}"
        )
    else:
        reason = "describes what is wanted in plain words (no name, type or operator recognised)"
    return Classification(QueryType.SEMANTIC_INTENT, reason)


def uses_keyword_syntax(text: str) -> bool:
    """True when ``text`` uses any of the grammar's operators."""
    return bool(_OPERATOR_RE.search(text) or _FIELD_RE.search(text))


def reads_as_sentence(text: str, min_words: int) -> bool:
    """True when ``text`` has at least ``min_words`` words besides AND/OR/NOT (0: never) and
    no clear ``field:value`` clause: grammar in a sentence is incidental."""
    if min_words <= 0 or _CLEAR_FIELD_RE.search(text):
        return False
    words = [w for w in _WORD_RE.findall(text) if w not in ("AND", "OR", "NOT")]
    return len(words) >= min_words


def as_words(text: str) -> str:
    """``text`` with the grammar's characters taken out (quotes, parentheses, wildcards, a
    leading ``-``/``+``, a colon ending a word) and operator words in lower case: what is left
    is words, for a query read as a sentence."""
    spaced = _GRAMMAR_CHARS_RE.sub(" ", text)
    return " ".join(w.lower() if w in ("AND", "OR", "NOT") else w for w in spaced.split())


def _looks_like_identifier(word: str) -> bool:
    if not _IDENTIFIER_RE.match(word):
        return False
    inner_capital = any(c.isupper() for c in word[1:])
    return inner_capital or "_" in word or any(c.isdigit() for c in word)
