"""Identifier splitting: ``PDFParser_v2`` -> ``PDF``, ``Parser``, ``v``, ``2``.

Case changes, digit runs and joiners (``_ - . ' / +``) split a word into parts. An acronym
keeps a plural ``s`` (``PDFs``) and yields its last capital to a following capitalised word
(``PDFParser`` -> ``PDF``, ``Parser``). Unicode letters split by their case; caseless scripts
stay whole, except Chinese and Japanese, written without spaces: each ideograph or kana is a
part of its own (``获取火车站`` -> ``获``, ``取``, ``火``, ``车``, ``站``), so that a word inside
such text is found as its characters in a row (a phrase; display text keeps the run whole).
Index time also keeps merged forms (``pdfparser``), query time only splits (Whoosh's
IntraWordFilter does the same).
"""

from __future__ import annotations

import re
from functools import lru_cache

MAX_MERGE_PARTS = 8
_ALNUM_RUN = re.compile(r"[^\W_]+")
_JOINERS = re.compile(r"[_\-]+")
ASCII_PART = re.compile(
    r"[0-9]+"  # a digit run
    r"|[A-Z]{2,}s(?![a-z])"  # an acronym keeps a plural s: PDFs
    r"|[A-Z]+(?=[A-Z][a-z])"  # it yields its last capital to a capitalised word: PDF|Parser
    r"|[A-Z]{2,}"  # an acronym before a digit, a joiner or the end
    r"|[A-Z][a-z]*"  # a capitalised word
    r"|[a-z]+"  # a lowercase word
)
"""The rules of ``part_spans`` for ASCII text, as one regex (the same spans, several times faster)."""
CJK = re.compile(
    "[\u3040-\u309f"  # Hiragana
    "\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"  # Katakana, its extensions, half-width
    "\u3400-\u4dbf\u4e00-\u9fff"  # CJK Unified Ideographs, extension A
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
    "\U00020000-\U000323af]"  # extensions B to H, the compatibility supplement
)
"""A character that ``part_spans`` makes a part of its own (Hangul, written with spaces, is not)."""
CJK_RUN = re.compile(CJK.pattern + "+")
"""A run of such characters: a word written without spaces."""


def _is_cjk(ch: str) -> bool:
    """True when the character ``ch`` is ``CJK``."""
    return ch >= "\u3040" and CJK.match(ch) is not None


def _never(ch: str) -> bool:
    return False


def part_spans(word: str, *, attach_digits: bool = False) -> list[tuple[int, int]]:
    """Spans of the parts of ``word``. ``attach_digits`` keeps a digit run on the letters
    before it (``v2``, ``Base64``) and a run of ``CJK`` characters whole, as display text
    wants; the index splits both."""
    if not attach_digits and word.isascii():
        return [m.span() for m in ASCII_PART.finditer(word)]
    return part_spans_by_character(word, attach_digits=attach_digits)


def part_spans_by_character(word: str, *, attach_digits: bool = False) -> list[tuple[int, int]]:
    """``part_spans`` worked out character by character, for any script (Unicode case)."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(word)
    cjk = _never if attach_digits else _is_cjk  # in the index a CJK character stands alone
    while i < n:
        ch = word[i]
        j = i + 1
        if cjk(ch):
            pass
        elif ch.isdigit():
            while j < n and word[j].isdigit():
                j += 1
            if attach_digits and spans and spans[-1][1] == i and word[i - 1].isalpha():
                spans[-1] = (spans[-1][0], j)
                i = j
                continue
        elif ch.isupper():
            while j < n and word[j].isupper():
                j += 1
            if j - i == 1:
                while j < n and word[j].isalpha() and not word[j].isupper() and not cjk(word[j]):
                    j += 1
            elif j < n and word[j].isalpha() and not cjk(word[j]):
                if word[j] == "s" and (j + 1 == n or not word[j + 1].islower()):
                    j += 1
                else:
                    j -= 1
        elif ch.isalpha():
            while j < n and word[j].isalpha() and not word[j].isupper() and not cjk(word[j]):
                j += 1
        else:
            i += 1
            continue
        spans.append((i, j))
        i = j
    return spans


def split_identifier(word: str, *, attach_digits: bool = False) -> list[str]:
    """``PDFParser_v2`` -> ``['PDF', 'Parser', 'v', '2']``; plain words come back whole."""
    return [word[a:b] for a, b in part_spans(word, attach_digits=attach_digits)]


def spaced(text: str) -> str:
    """Display words of identifier-like text: ``PDFParser_v2`` -> ``PDF Parser v2``.

    Runs of letters and digits are split at their parts (digits stay on the letters before
    them), ``_`` and ``-`` become spaces, and other punctuation stays (``Node.js``, ``v2.1``)."""
    split = _ALNUM_RUN.sub(
        lambda m: " ".join(split_identifier(m.group(), attach_digits=True)), text
    )
    return " ".join(_JOINERS.sub(" ", split).split())


@lru_cache(maxsize=65536)
def merged_forms(word: str) -> tuple[str, ...]:
    """Lowercased whole word plus every run of >= 2 adjacent parts, joined (index time only)."""
    return tuple(sorted(merged_runs(word, [p.lower() for p in split_identifier(word)])))


def merged_runs(word: str, parts: list[str]) -> set[str]:
    """``merged_forms`` of ``word`` from its lowercased parts, as a set."""
    parts = parts[:MAX_MERGE_PARTS]
    forms = {word.lower()}
    for i in range(len(parts)):
        for j in range(i + 2, len(parts) + 1):
            forms.add("".join(parts[i:j]))
    return forms
