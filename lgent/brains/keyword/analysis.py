"""Identifier-aware text analysis, shared by indexing and querying so both see the same tokens.

``PDFParser_v2`` is split on case changes, digits and ``_``/``-``/``.`` into ``pdf parser v 2``
(each part stemmed for prose fields), and at index time its merged forms are kept too:
``pdfparser_v2`` and every run of two or more adjacent parts (``pdfparser``, ``pdfparserv2``,
``parserv2``, ...). So ``pdf``, ``parser``, ``pdfparser``, ``PDFParser_v2`` and ``pdfparser_v2``
all find it. Query text is only split (the merged field is matched with the whole lowercased
word), as Whoosh's IntraWordFilter does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import tantivy

# A "word" is a run of letters, digits and joiners; joiners split it into parts later.
WORD_RE = re.compile(r"[^\W_]+(?:[_\-.'’/+][^\W_]+)*", re.UNICODE)
MAX_MERGE_PARTS = 8

STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "from",
        "has",
        "have",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "so",
        "some",
        "something",
        "such",
        "than",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "will",
        "with",
        "would",
        "you",
        "your",
        "can",
        "do",
        "does",
        "how",
        "want",
        "need",
        "find",
        "any",
        "thing",
        "things",
        "tool",
        "tools",
    ]
)
"""English stop words plus catalog filler ("tool", "something") that matches everything."""


@dataclass(frozen=True, slots=True)
class Token:
    """An analyzed token with its position and its character span in the original text."""

    text: str
    position: int
    start: int
    end: int


def part_spans(word: str) -> list[tuple[int, int]]:
    """Spans of the parts of an identifier: case changes, digit runs and joiners split it.

    An acronym keeps a plural ``s`` (``PDFs``) and yields its last capital to a following
    capitalised word (``PDFParser`` -> ``PDF``, ``Parser``). Unicode letters are handled by
    their case, caseless scripts stay whole.
    """
    spans: list[tuple[int, int]] = []
    i, n = 0, len(word)
    while i < n:
        ch = word[i]
        j = i + 1
        if ch.isdigit():
            while j < n and word[j].isdigit():
                j += 1
        elif ch.isupper():
            while j < n and word[j].isupper():
                j += 1
            if j - i == 1:
                while j < n and word[j].isalpha() and not word[j].isupper():
                    j += 1
            elif j < n and word[j].isalpha():
                if word[j] == "s" and (j + 1 == n or not word[j + 1].islower()):
                    j += 1
                else:
                    j -= 1
        elif ch.isalpha():
            while j < n and word[j].isalpha() and not word[j].isupper():
                j += 1
        else:
            i += 1
            continue
        spans.append((i, j))
        i = j
    return spans


def split_identifier(word: str) -> list[str]:
    """``PDFParser_v2`` -> ``['PDF', 'Parser', 'v', '2']``; plain words come back whole."""
    return [word[a:b] for a, b in part_spans(word)]


@lru_cache(maxsize=65536)
def merged_forms(word: str) -> tuple[str, ...]:
    """Lowercased whole word plus every run of >= 2 adjacent parts, joined (index time only)."""
    parts = [p.lower() for p in split_identifier(word)][:MAX_MERGE_PARTS]
    forms = {word.lower()}
    for i in range(len(parts)):
        for j in range(i + 2, len(parts) + 1):
            forms.add("".join(parts[i:j]))
    return tuple(sorted(forms))


@lru_cache(maxsize=1)
def _stemmer() -> tantivy.TextAnalyzer:
    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace())
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """English (Snowball) stem of a lowercase word, from tantivy's own stemmer."""
    out = _stemmer().analyze(word)
    return out[0] if out else word


def tokens(text: str, *, stemmed: bool, drop_stop_words: bool) -> list[Token]:
    """Split ``text`` into words, words into identifier parts; lowercase, optionally stem.

    A stop word is dropped only as a whole word: inside an identifier (``A1``,
    ``html_to_markdown``) it is a part like any other, so the identifier stays findable whole."""
    out: list[Token] = []
    position = 0
    for match in WORD_RE.finditer(text):
        word = match.group()
        offset = match.start()
        spans = part_spans(word)
        for a, b in spans:
            part = word[a:b]
            if len(part) > 2 and part[-1] == "s" and part[:-1].isupper():
                part = part[:-1]  # plural acronym: PDFs -> pdf
            part = part.lower()
            if drop_stop_words and len(spans) == 1 and part in STOP_WORDS:
                continue
            out.append(Token(stem(part) if stemmed else part, position, offset + a, offset + b))
            position += 1
    return out


@lru_cache(maxsize=65536)
def word_tokens(word: str, *, stemmed: bool, drop_stop_words: bool) -> tuple[Token, ...]:
    """``tokens`` of a single word, memoized (highlighting analyzes the same words again and again)."""
    return tuple(tokens(word, stemmed=stemmed, drop_stop_words=drop_stop_words))


_TYPE_NAME = re.compile(r"[A-Za-z0-9_.\-]+")


def type_tokens(expr: str) -> list[Token]:
    """The type names inside a type expression, lowercased and whole: ``List[PDF]`` gives
    ``list``, ``pdf`` (no identifier splitting: ``SentimentScore`` is one type, not two words)."""
    return [
        Token(m.group().lower(), i, m.start(), m.end())
        for i, m in enumerate(_TYPE_NAME.finditer(expr))
    ]


def name_prefixes(text: str) -> set[str]:
    """The lowercased name and every run of its parts that starts at its beginning
    (``PDFParser_v2``: ``pdf``, ``pdfparser``, ``pdfparserv``, ``pdfparserv2``): what a
    wildcard on a name is matched against, so ``News*`` means "names starting with News"."""
    parts = [p.lower() for word in words(text) for p in split_identifier(word)]
    return {text.lower(), *("".join(parts[: i + 1]) for i in range(len(parts)))}


def words(text: str) -> list[str]:
    """The raw words of ``text`` (identifiers kept whole), for merged-form lookups."""
    return WORD_RE.findall(text)


def glob_to_regex(pattern: str) -> str:
    """A lowercase tantivy regex for a ``*``/``?`` glob; everything else matched literally."""
    out = []
    for ch in pattern.lower():
        if ch == "*":
            out.append(".*")
        elif ch == "?":
            out.append(".")
        else:
            out.append(re.escape(ch))
    return "".join(out)
