"""Words and analyzed tokens: the same analysis at index and query time, in every brain."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from lgent.analysis.identifiers import part_spans, split_identifier
from lgent.analysis.stemming import stem
from lgent.analysis.stopwords import STOP_WORDS

WORD_RE = re.compile(r"[^\W_]+(?:[_\-.'’/+][^\W_]+)*", re.UNICODE)
"""A word: a run of letters and digits, joiners inside it (parts are split off later)."""


@dataclass(frozen=True, slots=True)
class Token:
    """An analyzed token with its position and its character span in the original text."""

    text: str
    position: int
    start: int
    end: int


def words(text: str) -> list[str]:
    """The raw words of ``text`` (identifiers kept whole)."""
    return WORD_RE.findall(text)


def word_parts(word: str) -> list[tuple[str, int, int]]:
    """The lowercased identifier parts of one word with their spans in it (a plural acronym
    loses its ``s``: ``PDFs`` -> ``pdf``)."""
    if word.islower() and word.isalpha() and word.isascii():
        return [(word, 0, len(word))]  # the common case: one lowercase part
    out = []
    for a, b in part_spans(word):
        part = word[a:b]
        if len(part) > 2 and part[-1] == "s" and part[:-1].isupper():
            part = part[:-1]
        out.append((part.lower(), a, b))
    return out


def is_stop_word(parts: Sequence[tuple[str, int, int]]) -> bool:
    """True when a word of these ``word_parts`` is a stop word: one part, in the list."""
    return len(parts) == 1 and parts[0][0] in STOP_WORDS


def tokens(text: str, *, stemmed: bool, drop_stop_words: bool) -> list[Token]:
    """Split ``text`` into words, words into identifier parts; lowercase, optionally stem.

    A stop word is dropped only as a whole word: inside an identifier (``A1``,
    ``html_to_markdown``) it is a part like any other, so the identifier stays findable whole."""
    out: list[Token] = []
    position = 0
    for match in WORD_RE.finditer(text):
        parts = word_parts(match.group())
        if drop_stop_words and is_stop_word(parts):
            continue
        offset = match.start()
        for part, a, b in parts:
            out.append(Token(stem(part) if stemmed else part, position, offset + a, offset + b))
            position += 1
    return out


def token_texts(text: str, *, stemmed: bool, drop_stop_words: bool) -> list[str]:
    """The texts of ``tokens(text, ...)``, in order, each word's tokens from ``word_tokens``
    (memoized): what matching words, not highlighting them, needs. About three times as fast
    as making the tokens, as queries and catalog loads read words over and over."""
    return [
        token.text
        for word in WORD_RE.findall(text)
        for token in word_tokens(word, stemmed=stemmed, drop_stop_words=drop_stop_words)
    ]


@lru_cache(maxsize=65536)
def word_tokens(word: str, *, stemmed: bool, drop_stop_words: bool) -> tuple[Token, ...]:
    """``tokens`` of a single word, memoized (highlighting analyzes the same words often)."""
    return tuple(tokens(word, stemmed=stemmed, drop_stop_words=drop_stop_words))


def content_words(text: str) -> list[str]:
    """The distinct lowercased words of ``text`` worth quoting (identifiers split, stop words
    and one- or two-letter parts left out), in order: ``cleans``, ``pdf``, ``parser``."""
    found = token_texts(text, stemmed=False, drop_stop_words=True)
    return [w for w in dict.fromkeys(found) if len(w) > 2]


def name_prefixes(text: str) -> set[str]:
    """The lowercased name and every run of its parts that starts at its beginning
    (``PDFParser_v2``: ``pdf``, ``pdfparser``, ``pdfparserv``, ``pdfparserv2``): what a
    wildcard on a name is matched against, so ``News*`` means "names starting with News"."""
    parts = [p.lower() for word in words(text) for p in split_identifier(word)]
    return {text.lower(), *("".join(parts[: i + 1]) for i in range(len(parts)))}
