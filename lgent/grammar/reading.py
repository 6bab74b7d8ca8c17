"""Two readings of query text: the grammar, where it is clearly meant, and plain words.

People and agents write sentences with quotes, colons, dashes and capitalised words that look
like operators: ``my word is "kalem"``, ``-73.955968 longitude``, ``Name: x - y``, ``NOT sure
which tool...``, ``OR-tools``, a trailing ``AND``. ``grammar_meant`` says whether a query clearly
uses the grammar (then its strict tree is the user's exact request); ``read_words`` gives the
plain-words reading every query also has (terms, and quoted text as phrases that add to a hit's
score), with a note for each incidental character read as a word.

The grammar is clearly meant when the query parses strictly and has at least one of: a known
field glued to its value (``author:F-gent``), a group holding an operator (``(pdf OR html)``), a
wildcard or fuzzy word (``News*``, ``parser~1``), a query that is only a phrase of at most
``SHORT_QUERY`` words (``"executive summary"``; a whole sentence in quotes is a sentence); or, in a query of at most ``SHORT_QUERY`` words, a boolean ``AND``/``OR`` between two
operands or a negation that does not open the query (``parser -deprecated``). A sentence that
starts with ``NOT``, quotes a word, holds a negative number or a trailing ``AND`` is plain words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lgent.errors import QuerySyntaxError
from lgent.grammar.ast import (
    And,
    Fuzzy,
    Node,
    Not,
    Or,
    Phrase,
    Required,
    Term,
    Wildcard,
    iter_nodes,
)
from lgent.grammar.lexer import Kind, Token, tokenize
from lgent.grammar.parser import _FIELD_LOOKUP, make_or, parse

SHORT_QUERY = 6
"""Most words a query may have for a bare ``AND``/``OR`` or negation in it to count as grammar
(a long sentence with them is prose: read strictly, it would have to match every word)."""

FILTER_FIELDS = frozenset({"author", "type", "status", "execution", "version", "id"})
"""Fields that only filter: their values are no words to compare by meaning."""

MAX_NOTES = 5


@dataclass(frozen=True, slots=True)
class WordsReading:
    """The plain-words reading: ``tree`` ORs the words (quoted text as phrases; None when the
    text has no word), ``notes`` say how incidental characters were read."""

    tree: Node | None
    notes: tuple[str, ...] = field(default=())


def grammar_meant(text: str) -> Node | None:
    """The strict syntax tree of ``text`` when it clearly uses the grammar, else None."""
    tokens = tokenize(text)
    try:
        tree = parse(text)
    except QuerySyntaxError:
        return None
    nodes = list(iter_nodes(tree))
    if (
        (isinstance(tree, Phrase) and len(tree.text.split()) <= SHORT_QUERY)
        or any(getattr(n, "field", None) for n in nodes)
        or any(isinstance(n, Fuzzy) or _wildcard(n) for n in nodes)
        or _operator_group(tokens)
    ):
        return tree
    words = sum(1 for t in tokens if t.kind in (Kind.WORD, Kind.PHRASE))
    negated = any(isinstance(n, Not) and _is_word(n.child) for n in nodes)
    leading_not = tokens[0].kind == Kind.NOT
    if words <= SHORT_QUERY and (_binary_operator(tokens) or (negated and not leading_not)):
        return tree
    return None


_OTHER_QUOTES = re.compile(
    r"(?<![\w'])'(?P<single>[^'\n]+?)'(?![\w])"
    r"|‘(?P<curly_single>[^’\n]+)’"
    r"|“(?P<curly>[^”\n]+)”"
    r"|„(?P<low>[^“”\n]+)[“”]"
    r"|«\s*(?P<guillemets>[^»\n]+?)\s*»"
    r"|‹\s*(?P<single_guillemets>[^›\n]+?)\s*›"
    r"|「(?P<corner>[^」\n]+)」"
    r"|『(?P<white_corner>[^』\n]+)』"
)
"""Quotation marks other than the grammar's ``"``: single quotes (not an apostrophe: none is
glued to a letter on its outer side, so ``today's`` and ``users'`` quote nothing), typographic
quotes, guillemets and corner brackets."""


def quoted_spans(text: str) -> list[tuple[int, int, str]]:
    """Each quotation in ``text`` made with marks other than ``"``: its start and end (the
    marks included) and the text inside."""
    spans = []
    for match in _OTHER_QUOTES.finditer(text):
        inner = next(v for v in match.groupdict().values() if v is not None)
        if inner.strip():
            spans.append((match.start(), match.end(), inner.strip()))
    return spans


def _quoted(token: Token, text: str) -> Node | list[Node]:
    """A quotation read as plain words: a phrase that adds to a match, or, for a quoted
    sentence, its words."""
    if len(text.split()) > SHORT_QUERY:
        return _quoted_words(Token(Kind.PHRASE, token.text, text, token.start, token.end))
    return Phrase(text, start=token.start, end=token.end)


def read_words(text: str) -> WordsReading:
    """Every word of ``text`` as a term, quoted text as a phrase (any quotation marks: ``"``,
    single, typographic, guillemets, corner brackets), nothing as an operator."""
    tokens = tokenize(text)
    items: list[Node] = []
    notes: list[str] = []
    spans = quoted_spans(text)
    covered: dict[int, tuple[int, int, str]] = {}
    for start, end, inner in spans:
        inside = [i for i, t in enumerate(tokens) if t.kind == Kind.WORD and start <= t.start < end]
        whole = bool(inside) and tokens[inside[0]].start == start and tokens[inside[-1]].end >= end
        if whole:
            for i in inside:
                covered[i] = (start, end, inner)
        else:  # within a word (``查询「余票」``): the phrase is added to the word's terms
            quote = Token(Kind.PHRASE, text[start:end], inner, start, end)
            made = _quoted(quote, inner)
            items.extend(made if isinstance(made, list) else [made])
        notes.append(f"`{text[start:end]}` read as a phrase that adds to a match")
    done: set[tuple[int, int, str]] = set()
    for index, token in enumerate(tokens):
        kind = token.kind
        if index in covered:
            span = covered[index]
            if span not in done:
                done.add(span)
                quote = Token(Kind.PHRASE, text[span[0] : span[1]], span[2], span[0], span[1])
                made = _quoted(quote, span[2])
                items.extend(made if isinstance(made, list) else [made])
            trailing = text[span[1] : token.end]  # a mark glued after the closing quote
            if trailing.strip("?!.,;:…") and token.end > span[1]:
                items.append(Term(trailing, start=span[1], end=token.end))
            continue
        if kind == Kind.WORD:
            items.append(Term(token.value, start=token.start, end=token.end))
        elif kind == Kind.PHRASE and len(token.value.split()) > SHORT_QUERY:
            # a quoted sentence: its words, as if unquoted (as one phrase it matches nothing)
            items.extend(_quoted_words(token))
            notes.append("a quoted sentence read as its words")
        elif kind == Kind.PHRASE and token.value.strip():
            items.append(Phrase(token.value, start=token.start, end=token.end))
            notes.append(f"`{token.text}` read as a phrase that adds to a match")
        elif kind in (Kind.AND, Kind.OR, Kind.NOT):
            items.append(Term(token.text.lower(), start=token.start, end=token.end))
            if token.text.isalpha():
                notes.append(f"`{token.text}` read as a word")
        elif kind == Kind.FIELD:
            items.append(Term(token.value, start=token.start, end=token.end - 1))
            if token.value.lower() not in _FIELD_LOOKUP or _space_after(tokens, index):
                notes.append(f"`{token.text}` read as a word, not a field")
        elif kind in (Kind.MINUS, Kind.PLUS):
            following = tokens[index + 1]
            if token.attached and following.kind == Kind.WORD and following.value[:1].isdigit():
                notes.append(f"`{token.text}{following.text}` read as a number")
    return WordsReading(make_or(items), tuple(dict.fromkeys(notes))[:MAX_NOTES])


def _quoted_words(token: Token) -> list[Node]:
    """The words of a quoted text as terms, placed at their offsets in the query."""
    offset = token.start + 1
    terms: list[Node] = []
    for word in token.value.split():
        at = token.text.find(word, max(offset - token.start, 0))
        start = token.start + max(at, 0)
        terms.append(Term(word, start=start, end=start + len(word)))
        offset = start + len(word)
    return terms


def meaning_words(tree: Node) -> str:
    """The words of a grammar tree a meaning-based search should read: unfielded words and
    phrases and the values of text fields, none that is negated or only filters."""
    words: list[str] = []

    def visit(node: Node) -> None:
        if isinstance(node, Not):
            return
        if isinstance(node, And | Or):
            for child in node.children:
                visit(child)
        elif isinstance(node, Required):
            visit(node.child)
        elif isinstance(node, Term | Phrase | Fuzzy) and node.field not in FILTER_FIELDS:
            words.append(node.text)
        elif isinstance(node, Wildcard) and node.field not in FILTER_FIELDS:
            stem = node.pattern.replace("*", " ").replace("?", " ").strip()
            if stem:
                words.append(stem)

    visit(tree)
    return " ".join(words)


def _binary_operator(tokens: list[Token]) -> bool:
    """An AND/OR with an operand on each side (not leading, trailing or doubled)."""
    operand_end = (Kind.WORD, Kind.PHRASE, Kind.RPAREN)
    operand_start = (Kind.WORD, Kind.PHRASE, Kind.LPAREN, Kind.FIELD, Kind.NOT, Kind.MINUS)
    return any(
        tokens[i].kind in (Kind.AND, Kind.OR)
        and tokens[i - 1].kind in operand_end
        and tokens[i + 1].kind in operand_start
        for i in range(1, len(tokens) - 1)
    )


def _operator_group(tokens: list[Token]) -> bool:
    """A parenthesised group with a boolean operator inside (code like ``f(x)`` has none)."""
    depth = 0
    for token in tokens:
        if token.kind == Kind.LPAREN:
            depth += 1
        elif token.kind == Kind.RPAREN:
            depth = max(depth - 1, 0)
        elif depth and token.kind in (Kind.AND, Kind.OR, Kind.NOT):
            return True
    return False


def _wildcard(node: Node) -> bool:
    """A wildcard on a word (``News*``, ``pars?r``): not arithmetic (``2*3``), nor a question
    mark ending a sentence (``Turkish?``)."""
    if not isinstance(node, Wildcard):
        return False
    pattern = node.pattern.rstrip(_CLOSING).rstrip("?")
    letters = sum(ch.isalpha() for ch in pattern)
    return pattern[:1].isalpha() and letters >= 2 and ("*" in pattern or "?" in pattern)


_CLOSING = "'\"’”»›」』)]}.,;:!…"
"""What may follow a sentence's question mark in a word (``you?'``): no wildcard."""


def _is_word(node: Node) -> bool:
    """A negated operand that is a word: not a number (``-73.95``), not an arrow (``->``)."""
    if isinstance(node, Term):
        return any(ch.isalpha() for ch in node.text) and not node.text[:1].isdigit()
    return True


def _space_after(tokens: list[Token], index: int) -> bool:
    following = tokens[index + 1]
    return following.kind == Kind.EOF or following.start > tokens[index].end
