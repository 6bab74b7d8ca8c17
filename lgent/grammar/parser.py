"""Recursive-descent parser: query text -> syntax tree (``ast``). Knows no index and no catalog.

Precedence, lowest to highest: ``OR`` < ``AND`` < ``NOT``/``-``/``+`` < term, phrase, field or
group. Juxtaposed operands are joined as if ``default_operator`` were written between them
(so with ``"OR"`` adjacency binds like ``OR``), with one exception: under ``"OR"`` a negated
operand joined by adjacency excludes from its neighbours (``a b -c`` = ``(a OR b) AND NOT c``).

``parse`` is strict and raises ``QuerySyntaxError`` at the first problem; ``parse_lenient``
repairs instead and reports each repair. Both bound the recursion: groups nest at most
``MAX_DEPTH`` deep and prefix chains (``NOT NOT -x``) are read in a loop, so no input can
exhaust the stack.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Literal

from lgent.errors import QueryError, QuerySyntaxError
from lgent.grammar.ast import (
    And,
    Fuzzy,
    MatchAll,
    Node,
    Not,
    Or,
    Phrase,
    Required,
    Term,
    Wildcard,
)
from lgent.grammar.lexer import OPERATOR_WORDS, Kind, Token, tokenize

DefaultOperator = Literal["AND", "OR"]

FIELDS: tuple[str, ...] = (
    "author",
    "description",
    "execution",
    "id",
    "input",
    "keywords",
    "name",
    "output",
    "status",
    "type",
    "version",
)
"""Canonical field names a query may name (``type`` is the entity type)."""

FIELD_ALIASES: Mapping[str, str] = MappingProxyType({"tag": "keywords"})
"""Other accepted spellings and the canonical field each stands for."""

_FIELD_LOOKUP: Mapping[str, str] = {**{f: f for f in FIELDS}, **FIELD_ALIASES}

MAX_DEPTH = 64
"""Deepest allowed nesting of parentheses (field groups included)."""
MAX_WILDCARD_LENGTH = 64
MAX_WILDCARDS = 8
"""A wildcard term's longest text and most ``*``/``?``: each becomes a regular expression over
the index's terms, whose cost grows with both."""

EXPECTED_OPERAND = "a term, phrase or '('"
EXPECTED_FIELD = "a field name (one of: " + ", ".join(sorted(_FIELD_LOOKUP)) + ")"
EXPECTED_DISTANCE = "a fuzzy distance of 0, 1 or 2"

_OPERAND_START = frozenset(
    {
        Kind.WORD,
        Kind.PHRASE,
        Kind.FIELD,
        Kind.LPAREN,
        Kind.NOT,
        Kind.MINUS,
        Kind.PLUS,
        Kind.COLON,
        Kind.BAD_QUOTE,
    }
)
_NON_SPACE = re.compile(r"\S+")
# A chunk that can only lex as a plain word: no grouping, quote, colon, wildcard or fuzzy mark,
# and no leading -/+ (operator words are checked apart).
_PLAIN_WORD = re.compile(r'[^\s()":*?~+\-][^\s()":*?~]*')


@dataclass(frozen=True, slots=True)
class LenientResult:
    """What ``parse_lenient`` made of a query: the tree (None only for a blank query) and
    one ``"position N: what was done"`` line per repair, in text order."""

    ast: Node | None
    warnings: list[str]


def plain_words(text: str, default_operator: DefaultOperator = "AND") -> Node | None:
    """The tree of a query of plain words only (most free text), built without the full parser;
    None when ``text`` is blank or holds anything else. The tree is the one ``parse`` builds."""
    terms: list[Node] = []
    for found in _NON_SPACE.finditer(text):
        word = found.group()
        if word in OPERATOR_WORDS or not _PLAIN_WORD.fullmatch(word):
            return None
        terms.append(Term(word, start=found.start(), end=found.end()))
    if default_operator == "AND":
        return make_and(terms)
    return make_or(terms) if default_operator == "OR" else None


def parse(text: str, default_operator: DefaultOperator = "AND") -> Node:
    """The syntax tree of ``text``; raises ``QuerySyntaxError`` at the first problem."""
    plain = plain_words(text, default_operator)
    if plain is not None:
        return plain
    node = _Parser(text, default_operator, lenient=False).parse()
    assert node is not None  # strict mode raises rather than returning nothing
    return node


def parse_lenient(text: str, default_operator: DefaultOperator = "AND") -> LenientResult:
    """The syntax tree of ``text`` with every syntax problem repaired; never raises for syntax.

    Repairs: an unclosed ``"`` or stray ``:`` is ignored; an unmatched ``)`` is ignored and an
    unclosed ``(`` is closed at the end; dangling operators and empty groups or phrases are
    dropped; an unknown ``field:value`` is searched as plain words; a fuzzy distance above 2 is
    lowered to 2; groups nested deeper than ``MAX_DEPTH`` are flattened. A query with nothing
    searchable left is searched as its plain whitespace-separated words.
    """
    plain = plain_words(text, default_operator)
    if plain is not None:
        return LenientResult(plain, [])
    parser = _Parser(text, default_operator, lenient=True)
    node = parser.parse()
    warnings = [
        f"position {pos}: {message}"
        for pos, message in sorted(parser.warnings, key=lambda item: item[0])
    ]
    if node is None and text.strip():
        warnings.append(
            "position 0: nothing searchable was left after repairs; "
            "the query's words are searched as plain terms"
        )
        words: list[Node] = [
            Term(m.group(), start=m.start(), end=m.end()) for m in _NON_SPACE.finditer(text)
        ]
        node = parser.combine(words)
    elif node is None:
        warnings.append("position 0: empty query")
    return LenientResult(node, warnings)


# -- tree builders: flattening and the NOT rule live here -----------------------------------


def make_and(items: list[Node]) -> Node | None:
    """Join ``items`` with AND: flatten nested Ands, give a group of only negations a MatchAll,
    drop a MatchAll that another positive child makes redundant. One item is returned as is."""
    if not items:
        return None
    if len(items) == 1:
        return items[0]
    start, end = items[0].start, items[-1].end
    flat: list[Node] = []
    for item in items:
        flat.extend(item.children if isinstance(item, And) else (item,))
    positives = [c for c in flat if not isinstance(c, Not)]
    if not positives:
        flat.insert(0, MatchAll(start=start, end=end))
    elif any(not isinstance(c, MatchAll) for c in positives):
        flat = [c for c in flat if not isinstance(c, MatchAll)]
    else:  # the only positives are MatchAll: keep the first
        first = positives[0]
        flat = [c for c in flat if not isinstance(c, MatchAll) or c is first]
    return flat[0] if len(flat) == 1 else And(tuple(flat), start=start, end=end)


def make_or(items: list[Node]) -> Node | None:
    """Join ``items`` with OR: flatten nested Ors (unless they hold Required clauses, which
    would change meaning) and turn each negation into ``And(MatchAll, Not(...))``. One item is
    returned as is."""
    if not items:
        return None
    if len(items) == 1:
        return items[0]
    flat: list[Node] = []
    for item in items:
        if isinstance(item, Or) and not any(isinstance(c, Required) for c in item.children):
            flat.extend(item.children)
        else:
            flat.append(positive(item))
    return Or(tuple(flat), start=items[0].start, end=items[-1].end)


def positive(node: Node) -> Node:
    """``node``, or ``And(MatchAll, node)`` when it is a bare negation."""
    if isinstance(node, Not):
        return And((MatchAll(start=node.start, end=node.end), node), start=node.start, end=node.end)
    return node


def negate(prefix: Token, node: Node) -> Node:
    """``NOT``/``-`` applied to ``node``: a double negation cancels, ``-+x`` is ``-x``."""
    if isinstance(node, Not):
        return node.child
    inner = node.child if isinstance(node, Required) else node
    return Not(inner, start=prefix.start, end=node.end)


def require(prefix: Token, node: Node) -> Node:
    """``+`` applied to ``node``: idempotent, and a required exclusion is just an exclusion."""
    if isinstance(node, Not | Required):
        return replace(node, start=prefix.start)
    return Required(node, start=prefix.start, end=node.end)


def _quoted(text: str, limit: int = 24) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def describe(token: Token) -> str:
    """How an error message names a token it found."""
    if token.kind is Kind.EOF:
        return "end of query"
    if token.kind is Kind.BAD_QUOTE:
        return "'\"'"
    return _quoted(token.text)


# -- the parser ---------------------------------------------------------------------------


class _Parser:
    """One parse of one text. ``lenient`` switches every error into a logged repair."""

    def __init__(self, text: str, default_operator: str, *, lenient: bool) -> None:
        operator = default_operator.upper() if isinstance(default_operator, str) else ""
        if operator not in ("AND", "OR"):
            raise QueryError(f"default_operator must be 'AND' or 'OR', not {default_operator!r}")
        self.text = text
        self.tokens = tokenize(text)
        self.pos = 0
        self.default_and = operator == "AND"
        self.lenient = lenient
        self.depth = 0
        self.flattened = 0  # open '(' ignored because they were nested too deep (lenient)
        self.warned_depth = False
        self.warnings: list[tuple[int, str]] = []

    # -- helpers ---------------------------------------------------------------------------

    def warn(self, position: int, message: str) -> None:
        self.warnings.append((position, message))

    def error(self, position: int, expected: str, found: str) -> QuerySyntaxError:
        return QuerySyntaxError(self.text, position, expected, found)

    def found_at(self, position: int) -> str:
        """Names what is at ``position`` in the text: end, whitespace or the character."""
        if position >= len(self.text):
            return "end of query"
        char = self.text[position]
        return "whitespace" if char.isspace() else repr(char)

    def peek(self) -> Token:
        """The next token; while flattening, ``)`` closing an ignored ``(`` are skipped."""
        token = self.tokens[self.pos]
        while self.flattened and token.kind is Kind.RPAREN:
            self.flattened -= 1
            self.pos += 1
            token = self.tokens[self.pos]
        return token

    def unterminated(self, quote: Token) -> QuerySyntaxError:
        return self.error(
            len(self.text),
            f"closing '\"' for the phrase opened at position {quote.start}",
            "end of query",
        )

    def combine(self, items: list[Node]) -> Node | None:
        return make_and(items) if self.default_and else make_or(items)

    # -- grammar ---------------------------------------------------------------------------

    def parse(self) -> Node | None:
        """query := or_expr EOF"""
        parts: list[Node] = []
        while True:
            node = self.parse_or(None)
            if node is not None:
                parts.append(node)
            token = self.peek()
            if token.kind is Kind.EOF:
                break
            # parse_or stops only at ')' or the end, so this is a ')' with no '('.
            if not self.lenient:
                raise self.error(token.start, "end of query (no '(' is open)", describe(token))
            self.warn(token.start, "unmatched ')' ignored")
            self.pos += 1
        root = self.combine(parts)
        return positive(root) if root is not None else None

    def parse_or(self, field: str | None) -> Node | None:
        """or_expr := and_expr ( ("OR" | "||" | <adjacency if default OR>) and_expr )*"""
        runs: list[list[Node]] = [[]]
        has_left = False
        pending: Token | None = None  # an OR still waiting for its right operand
        while True:
            node = self.parse_and(field)
            if node is not None:
                runs[-1].append(node)
                has_left, pending = True, None
            token = self.peek()
            if token.kind is Kind.OR:
                self.pos += 1
                if has_left:
                    pending, has_left = token, False
                    runs.append([])
                else:
                    self.warn(token.start, f"dangling {token.text!r} dropped")
                continue
            if not self.default_and and token.kind in _OPERAND_START:
                continue
            break
        if pending is not None:
            self.warn(pending.start, f"dangling {pending.text!r} dropped")
        joined: list[Node] = []
        for run in runs:
            node = self.adjacency_run(run)
            if node is not None:
                joined.append(node)
        return make_or(joined)

    def adjacency_run(self, run: list[Node]) -> Node | None:
        """Operands joined by adjacency under default OR: negations exclude from the rest
        (from everything when the run holds only negations)."""
        excluded = [n for n in run if isinstance(n, Not)]
        if not excluded:
            return make_or(run)
        if len(excluded) == len(run):
            return make_and(run)
        alternatives = make_or([n for n in run if not isinstance(n, Not)])
        assert alternatives is not None
        joined = make_and([alternatives, *excluded])
        assert joined is not None
        return replace(joined, start=run[0].start, end=run[-1].end)

    def parse_and(self, field: str | None) -> Node | None:
        """and_expr := unary ( ("AND" | "&&" | <adjacency if default AND>) unary )*"""
        items: list[Node] = []
        has_left = False
        pending: Token | None = None
        while True:
            node = self.parse_unary(field)
            if node is not None:
                items.append(node)
                has_left, pending = True, None
            token = self.peek()
            if token.kind is Kind.AND:
                self.pos += 1
                if has_left:
                    pending, has_left = token, False
                else:
                    self.warn(token.start, f"dangling {token.text!r} dropped")
                continue
            if self.default_and and token.kind in _OPERAND_START:
                continue
            break
        if pending is not None:
            self.warn(pending.start, f"dangling {pending.text!r} dropped")
        return make_and(items)

    def parse_unary(self, field: str | None) -> Node | None:
        """unary := ("NOT" | "-" | "+")* primary   (read in a loop, not recursively)"""
        prefixes: list[Token] = []
        while True:
            token = self.peek()
            if token.kind not in (Kind.NOT, Kind.MINUS, Kind.PLUS):
                break
            self.pos += 1
            if not token.attached:
                if not self.lenient:
                    raise self.error(
                        token.end,
                        f"{EXPECTED_OPERAND} directly after {token.text!r}",
                        self.found_at(token.end),
                    )
                self.warn(token.start, f"{token.text!r} not followed by a term dropped")
                continue
            prefixes.append(token)
        node = self.parse_primary(field)
        if node is None:
            for prefix in prefixes:
                self.warn(prefix.start, f"dangling {prefix.text!r} dropped")
            return None
        for prefix in reversed(prefixes):
            node = require(prefix, node) if prefix.kind is Kind.PLUS else negate(prefix, node)
        return node

    def parse_primary(self, field: str | None) -> Node | None:
        """primary := word | phrase | field ":" value | "(" or_expr ")" """
        while True:
            token = self.peek()
            kind = token.kind
            if kind is Kind.WORD:
                self.pos += 1
                return self.word(token, field, token.start)
            if kind is Kind.PHRASE:
                self.pos += 1
                return self.phrase(token, field, token.start)
            if kind is Kind.FIELD:
                self.pos += 1
                return self.parse_field(token, field)
            if kind is Kind.LPAREN:
                if self.too_deep(token):
                    continue
                return self.parse_group(token, field, token.start)
            if kind is Kind.BAD_QUOTE:
                if not self.lenient:
                    raise self.unterminated(token)
                self.warn(token.start, "unmatched '\"' ignored")
                self.pos += 1
                continue
            if kind is Kind.COLON:
                if not self.lenient:
                    raise self.error(token.start, EXPECTED_OPERAND, describe(token))
                self.warn(token.start, "stray ':' ignored")
                self.pos += 1
                continue
            # AND, OR, ')' or the end: nothing to parse here.
            if not self.lenient:
                raise self.error(token.start, EXPECTED_OPERAND, describe(token))
            return None

    def too_deep(self, paren: Token) -> bool:
        """At the depth limit: strict raises; lenient ignores this '(' (and its ')')."""
        if self.depth < MAX_DEPTH:
            return False
        if not self.lenient:
            raise self.error(paren.start, f"at most {MAX_DEPTH} nested parentheses", "'('")
        if not self.warned_depth:
            self.warn(paren.start, f"parentheses nested deeper than {MAX_DEPTH} flattened")
            self.warned_depth = True
        self.flattened += 1
        self.pos += 1
        return True

    def parse_group(self, paren: Token, field: str | None, start: int) -> Node | None:
        """ "(" or_expr ")"; And/Or results take the span of the whole group."""
        self.pos += 1
        self.depth += 1
        inner = self.parse_or(field)
        self.depth -= 1
        close = self.peek()
        if close.kind is Kind.RPAREN:
            self.pos += 1
            end = close.end
        else:  # parse_or stops only at ')' or the end
            if not self.lenient:
                raise self.error(
                    close.start, f"')' to close the '(' at position {paren.start}", describe(close)
                )
            self.warn(paren.start, "unclosed '(' closed at end of query")
            end = len(self.text)
        if inner is None:  # strict mode raised on the ')' already
            self.warn(paren.start, "empty group '()' dropped")
            return None
        if isinstance(inner, And | Or):
            return replace(inner, start=start, end=end)
        return inner

    def parse_field(self, token: Token, outer: str | None) -> Node | None:
        """field ":" (word | phrase | group), the value glued to the colon."""
        name = token.value
        canonical = _FIELD_LOOKUP.get(name.lower())
        if canonical is None and not self.lenient:
            raise self.error(token.start, EXPECTED_FIELD, _quoted(name))
        value_start = token.end
        following = self.peek()
        if following.kind is Kind.BAD_QUOTE and following.start == token.end:
            if not self.lenient:
                raise self.unterminated(following)
            self.warn(following.start, "unmatched '\"' ignored")
            self.pos += 1
            value_start = following.end
            following = self.peek()
        has_value = following.start == value_start and following.kind in (
            Kind.WORD,
            Kind.PHRASE,
            Kind.LPAREN,
        )
        name_term = Term(name, start=token.start, end=token.end - 1)
        if canonical is None:
            self.warn(token.start, f"unknown field {name!r} searched as plain text")
            value = self.field_value(following, outer, following.start) if has_value else None
            return self.combine([name_term, value]) if value is not None else name_term
        if not has_value:
            if not self.lenient:
                raise self.error(
                    token.end, f"{EXPECTED_OPERAND} after {token.text!r}", self.found_at(token.end)
                )
            self.warn(token.start, f"{token.text!r} has no value; searched as the term {name!r}")
            return name_term
        return self.field_value(following, canonical, token.start)

    def field_value(self, token: Token, field: str | None, start: int) -> Node | None:
        if token.kind is Kind.WORD:
            self.pos += 1
            return self.word(token, field, start)
        if token.kind is Kind.PHRASE:
            self.pos += 1
            return self.phrase(token, field, start)
        if self.too_deep(token):
            return None  # flattened: the group's content is read at this level, without the field
        return self.parse_group(token, field, start)

    # -- leaves ----------------------------------------------------------------------------

    def phrase(self, token: Token, field: str | None, start: int) -> Node | None:
        if not token.value.strip():
            if not self.lenient:
                raise self.error(token.start, "a non-empty phrase", describe(token))
            self.warn(token.start, "empty phrase dropped")
            return None
        return Phrase(token.value, field, start=start, end=token.end)

    def word(self, token: Token, field: str | None, start: int) -> Node:
        """A word: fuzzy ``text~N``, wildcard ``*``/``?``, ``*`` alone (MatchAll), or a term."""
        raw = token.value
        end = token.end
        tilde = raw.rfind("~")
        suffix = raw[tilde + 1 :]
        if tilde >= 0 and (suffix == "" or (suffix.isascii() and suffix.isdigit())):
            base = raw[:tilde]
            if base == "":
                if not self.lenient:
                    raise self.error(token.start, "a term before '~'", "'~'")
                self.warn(token.start, f"'~' without a term; {raw!r} searched as plain text")
                return Term(raw, field, start=start, end=end)
            if not base.endswith("~"):
                distance = int(suffix) if 0 < len(suffix) <= 3 else (1 if not suffix else 999)
                if distance > 2:
                    if not self.lenient:
                        raise self.error(
                            token.start + tilde + 1, EXPECTED_DISTANCE, _quoted(suffix)
                        )
                    self.warn(
                        token.start + tilde + 1, f"fuzzy distance {_quoted(suffix)} lowered to 2"
                    )
                    distance = 2
                if "*" not in base and "?" not in base:
                    return Fuzzy(base, distance, field, start=start, end=end)
                if not self.lenient:
                    raise self.error(token.start, "a fuzzy term without '*' or '?'", _quoted(raw))
                self.warn(token.start + tilde, f"fuzzy '~' dropped from wildcard {base!r}")
                raw = base
        if "*" in raw or "?" in raw:
            if field is None and raw.strip("*") == "":
                return MatchAll(start=start, end=end)
            wildcards = sum(raw.count(ch) for ch in "*?")
            if len(raw) <= MAX_WILDCARD_LENGTH and wildcards <= MAX_WILDCARDS:
                return Wildcard(raw, field, start=start, end=end)
            if not self.lenient:
                raise self.error(
                    token.start,
                    f"a wildcard of at most {MAX_WILDCARD_LENGTH} characters and "
                    f"{MAX_WILDCARDS} '*'/'?'",
                    f"{raw[:20]!r}{'...' if len(raw) > 20 else ''} "
                    f"({len(raw)} characters, {wildcards} wildcards)",
                )
            self.warn(
                token.start, f"wildcard {raw[:20]!r} too long or too complex; searched as words"
            )
        return Term(raw, field, start=start, end=end)
