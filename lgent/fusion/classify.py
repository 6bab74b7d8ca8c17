"""Classify a query (EXACT_NAME, KEYWORD_SYNTAX, TYPE_QUERY, RELATIONSHIP, SEMANTIC_INTENT).

The order of the rules, each with the reason it gives:

1. The graph brain reads a composition or a type question ("a path from RawHTML to Summary",
   ``PDF -> SentimentScore``, ``input:PDF``) -> TYPE_QUERY; a relationship question naming a
   known artifact ("what depends on PDFParser_v2") -> RELATIONSHIP.
2. The query clearly uses the keyword grammar (``grammar_meant`` in
   ``lgent/grammar/reading.py``: a known field, a group with an operator, a
   wildcard, a whole phrase, or a short query with AND/OR or a negation) -> KEYWORD_SYNTAX.
   Other queries are plain words, whatever quotes, dashes or colons they hold.
3. The whole query names an artifact (id or name, ignoring case and punctuation, or a close
   misspelling of one), or is a single identifier-shaped word -> EXACT_NAME.
4. Otherwise -> SEMANTIC_INTENT (saying which unknown type or artifact kept a query shaped
   like a graph question from being read as one).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lgent.analysis.identifiers import CJK_RUN
from lgent.brains.base import Brain, BrainQuery, QuestionReader, Reading
from lgent.errors import LGentError
from lgent.fusion.access import grammar_filter
from lgent.grammar import ast, parse
from lgent.grammar.reading import SHORT_QUERY, grammar_meant, meaning_words, read_words
from lgent.models import QueryType

if TYPE_CHECKING:
    from lgent.fusion.state import FusionContext, QueryState

# A '?' is a wildcard only inside a word ("pars?r"); at a word's end it is a question mark.
_OPERATOR_RE = re.compile(
    r'(?:^|\s)[-+]\w|\b(?:AND|OR|NOT)\b|&&|\|\||"|\w\*|\*\w|\w\?\w|\w~\d?(?:\s|$)|^\*$'
)
_FIELD_RE = re.compile(
    r"\b(?:name|description|keywords|tag|author|type|version|status|input|output|id|execution):",
    re.I,
)
_STRICT_RE = re.compile(r"[()]|\b\w+:(?!//)")
"""What ``strict`` also reads as grammar: a parenthesis, a field-shaped ``word:`` (a URL's
``https://`` excepted), so a malformed group or an unknown field is an error there."""
_IDENTIFIER_RE = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[_\-.][A-Za-z0-9]+)*$")
MAX_NAME_WORDS = 4


@dataclass(frozen=True, slots=True)
class Classification:
    query_type: QueryType
    reason: str
    reading: Reading | None = None
    named_artifact: str | None = None
    syntax_tree: ast.Node | None = None
    plain: str | None = None
    """For a keyword query: the words a meaning-based brain should read ("" if it only filters)."""
    notes: tuple[str, ...] = ()
    """How incidental characters of plain words were read (a quoted word, a negative number)."""
    unread: str | None = None
    """Why a query shaped like a type or relationship question was read as plain words (an
    unknown type or artifact, with the closest names): the answer warns with it."""


def classify(
    query: str,
    graph: QuestionReader | None,
    *,
    lenient: bool = False,
    strict: bool = False,
) -> Classification:
    """The query type of ``query`` and the reason, per the rules in the module docstring.

    ``graph`` is the brain that reads type and relationship questions (None: no such brain).
    The grammar is read only where it is clearly meant (``grammar_meant``); everything else is
    plain words, and nothing raises. ``strict``: any grammar operator makes the query a keyword
    query, and a malformed one raises ``QuerySyntaxError`` with its position. ``lenient``:
    never read the grammar at all."""
    text = query.strip()
    reading = graph.read_question(text) if graph is not None else None
    if reading is not None and reading.kind == "relationship":
        return Classification(
            QueryType.RELATIONSHIP, f"asks for {reading.description}", reading, reading.artifact
        )
    if reading is not None:
        return Classification(QueryType.TYPE_QUERY, f"asks for {reading.description}", reading)
    tree = None
    if strict and (uses_keyword_syntax(text) or _STRICT_RE.search(text)):
        tree = parse(text)  # a malformed query raises QuerySyntaxError
    elif not lenient:
        tree = grammar_meant(text)
    if tree is not None:
        return Classification(
            QueryType.KEYWORD_SYNTAX,
            "uses keyword query operators (fields, phrases, booleans or wildcards)",
            syntax_tree=tree,
            plain=meaning_words(tree),
        )
    notes = read_words(text).notes
    words = text.split()
    if graph is not None and 0 < len(words) <= MAX_NAME_WORDS:
        named = graph.artifact_id(text, fuzzy=len(words) == 1 and not CJK_RUN.search(text))
        if named is not None and _spelled_in(text, named):
            return Classification(
                QueryType.EXACT_NAME,
                f"names the artifact {named}",
                named_artifact=named,
                notes=notes,
            )
    if len(words) == 1 and _looks_like_identifier(text):
        return Classification(
            QueryType.EXACT_NAME, f"{text!r} looks like an artifact identifier", notes=notes
        )
    unread = graph.unread(text) if graph is not None else None
    if unread is not None:
        reason = (
            f"is read as plain words, because it has the shape of a graph question but {unread}"
        )
    else:
        reason = "describes what is wanted in plain words (no name, type or operator recognised)"
    return Classification(QueryType.SEMANTIC_INTENT, reason, notes=notes, unread=unread)


def _spelled_in(text: str, artifact_id: str) -> bool:
    """Whether the characters written without spaces (Chinese, Japanese) of a query that names
    ``artifact_id`` are in its id too: a sentence of them holding one Latin word (``ドメインの
    WHOIS情報を調べる``) is one "word" to a name lookup, but it names nothing."""
    return all(run in artifact_id for run in CJK_RUN.findall(text))


def uses_keyword_syntax(text: str) -> bool:
    """True when ``text`` uses any of the grammar's operators."""
    return bool(_OPERATOR_RE.search(text) or _FIELD_RE.search(text))


def _looks_like_identifier(word: str) -> bool:
    if not _IDENTIFIER_RE.match(word):
        return False
    inner_capital = any(c.isupper() for c in word[1:])
    return inner_capital or "_" in word or any(c.isdigit() for c in word)


async def classify_query(state: QueryState, context: FusionContext) -> None:
    """The step: the query's class, read with the brain that reads questions. A sentence (more
    than ``SHORT_QUERY`` words) read as grammar without ``strict`` whose grammar matches
    nothing is read as plain words instead (``SENTENCES_ANSWER``): whatever marks it holds, it
    was not written as a restriction that empties the answer."""
    reader = await context.reader()
    text, args = state.text, state.arguments
    c = await context.run(lambda: classify(text, reader, lenient=args.lenient, strict=args.strict))
    if (
        c.query_type == QueryType.KEYWORD_SYNTAX
        and not args.strict
        and len(text.split()) > SHORT_QUERY
        and not await _grammar_matches(text, context)
    ):
        plain = await context.run(lambda: classify(text, reader, lenient=True))
        note = "its grammar reading matches nothing, so the sentence was read as plain words"
        c = dataclasses.replace(plain, notes=(*plain.notes, note))
    state.classification = c


async def _grammar_matches(text: str, context: FusionContext) -> bool:
    """Whether the keyword grammar reading of ``text`` matches any artifact (True when no
    brain can tell)."""
    brain = await grammar_filter(context)
    if not isinstance(brain, Brain):
        return True
    asked = BrainQuery(text=text, limit=1, query_type=QueryType.KEYWORD_SYNTAX)
    try:
        answer = await context.run(lambda: brain.answer(asked))
    except LGentError:
        return True
    return bool(answer.ranking)
