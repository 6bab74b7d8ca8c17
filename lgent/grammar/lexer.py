"""Split a keyword query into tokens. Never fails: problems become tokens the parser judges.

Token kinds:

* ``WORD``: a run of characters that are not whitespace and not ``( ) " :``. Right after
  ``field:`` the run may also hold ``:`` and is taken literally (``name:AND`` is a word,
  ``id:acme:pdf`` one value).
* ``PHRASE``: ``"..."`` with ``\\"`` and ``\\\\`` escapes; ``value`` holds the unescaped text.
* ``FIELD``: ``name:`` (a word glued to a colon); ``value`` is the name as typed.
* ``AND``/``OR``/``NOT``: the upper-case words ``AND``, ``OR``, ``NOT`` and ``&&``, ``||``
  standing alone. Lower-case ``and``/``or``/``not`` are words.
* ``MINUS``/``PLUS``: ``-``/``+`` at the start of a token; ``attached`` says whether an operand
  follows directly (``-x``) rather than whitespace, ``)`` or the end (``a - b``).
* ``LPAREN``/``RPAREN``.
* ``COLON``: a ``:`` not preceded by a word. ``BAD_QUOTE``: a ``"`` that is never closed.
* ``EOF``: always last, at ``len(text)``.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass


class Kind(enum.Enum):
    """What a token is."""

    WORD = "word"
    PHRASE = "phrase"
    FIELD = "field"
    AND = "AND"
    OR = "OR"
    NOT = "NOT"
    MINUS = "-"
    PLUS = "+"
    LPAREN = "("
    RPAREN = ")"
    COLON = ":"
    BAD_QUOTE = "bad quote"
    EOF = "end"


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its kind, the source slice, its value and where it lies in the text."""

    kind: Kind
    text: str
    value: str
    start: int
    end: int
    attached: bool = True


OPERATOR_WORDS: dict[str, Kind] = {
    "AND": Kind.AND,
    "&&": Kind.AND,
    "OR": Kind.OR,
    "||": Kind.OR,
    "NOT": Kind.NOT,
}

_SPACE = re.compile(r"\s+")
_WORD = re.compile(r'[^\s()":]+')
_VALUE_WORD = re.compile(r'[^\s()"]+')
# Possessive repeat: no backtracking on an unterminated phrase.
_PHRASE = re.compile(r'"((?:[^"\\]|\\.)*+)"', re.DOTALL)
_ESCAPE = re.compile(r'\\(["\\])')


def unescape(body: str) -> str:
    """Resolve ``\\"`` and ``\\\\`` inside a phrase; any other backslash stays as typed."""
    return _ESCAPE.sub(r"\1", body)


def tokenize(text: str) -> list[Token]:
    """All tokens of ``text``, ending with an ``EOF`` token. Linear time, never raises."""
    tokens: list[Token] = []
    n = len(text)
    pos = 0
    after_field = False  # the previous token was FIELD and ended exactly here
    phrases_possible = True  # false once a quote failed to close: every later one fails too

    def emit(kind: Kind, end: int, value: str | None = None, attached: bool = True) -> None:
        tokens.append(
            Token(
                kind, text[pos:end], text[pos:end] if value is None else value, pos, end, attached
            )
        )

    while True:
        space = _SPACE.match(text, pos)
        if space:
            pos = space.end()
            after_field = False
        if pos >= n:
            break
        ch = text[pos]
        value_position, after_field = after_field, False
        if ch == "(":
            emit(Kind.LPAREN, pos + 1)
        elif ch == ")":
            emit(Kind.RPAREN, pos + 1)
        elif ch == '"':
            phrase = _PHRASE.match(text, pos) if phrases_possible else None
            if phrase is None:
                # Why every later quote fails too: a later '"' was read as part of a '\"' pair by
                # this failed scan, so a scan starting after it follows the same path to the end.
                phrases_possible = False
                emit(Kind.BAD_QUOTE, pos + 1)
                after_field = value_position  # `name:"abc` still offers `abc` as the value
            else:
                emit(Kind.PHRASE, phrase.end(), unescape(phrase.group(1)))
        elif value_position:
            match = _VALUE_WORD.match(text, pos)
            assert match is not None
            emit(Kind.WORD, match.end())
        elif ch == ":":
            emit(Kind.COLON, pos + 1)
        elif ch in "-+":
            following = text[pos + 1] if pos + 1 < n else ""
            attached = following != "" and not following.isspace() and following != ")"
            emit(Kind.MINUS if ch == "-" else Kind.PLUS, pos + 1, attached=attached)
        else:
            match = _WORD.match(text, pos)
            assert match is not None
            end = match.end()
            if end < n and text[end] == ":":
                emit(Kind.FIELD, end + 1, value=match.group())
                after_field = True
            else:
                emit(OPERATOR_WORDS.get(match.group(), Kind.WORD), end)
        pos = tokens[-1].end
    tokens.append(Token(Kind.EOF, "", "", n, n))
    return tokens
