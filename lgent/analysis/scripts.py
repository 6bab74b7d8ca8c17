"""Which writing system a text is in: the share of its letters in given scripts.

A model trained on English text reads Latin letters; a request in Chinese, Japanese, Korean,
Cyrillic or Arabic letters is, to it, a run of rare symbols, and its nearest vectors are chance.
Fusion's ``UNREAD_SCRIPTS`` rule (``lgent/fusion/language.py``) asks how much of a query such a
model can read. A letter's script is the first word of its Unicode name (``LATIN``, ``CJK``,
``HIRAGANA``, ``KATAKANA``, ``HANGUL``, ``CYRILLIC``, ``GREEK``, ``ARABIC`` ...; full- and
half-width forms count as the letters they are).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from functools import lru_cache

_WIDTHS = ("FULLWIDTH", "HALFWIDTH")


@lru_cache(maxsize=4096)
def script_of(ch: str) -> str:
    """The script of the letter ``ch`` ("" for a character that is no letter, or unnamed)."""
    if not ch.isalpha():
        return ""
    words = unicodedata.name(ch, "").split()
    if words[:1] and words[0] in _WIDTHS:
        words = words[1:]
    return words[0] if words else ""


def script_share(text: str, scripts: Collection[str]) -> float:
    """The share of the letters of ``text`` written in ``scripts`` (1.0 when it has none)."""
    found = [script_of(ch) for ch in text if ch.isalpha()]
    if not found:
        return 1.0
    return sum(1 for s in found if s in scripts) / len(found)
