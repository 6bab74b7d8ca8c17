"""Type names read from plain words: ``a web page URL`` names ``WebPageURL``, ``pdf file path``
names ``PdfFilePath``. A type's words are its name split where case, digits or ``_`` change
(``lgent.analysis.identifiers``), lower-cased; a text's words are its own, lower-cased, without
articles. A set of words that names two types names neither."""

from __future__ import annotations

import re
from collections.abc import Iterable

_ARTICLES = frozenset({"a", "an", "the", "some", "any"})
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def words_of_name(name: str) -> str:
    """``WebPageURL`` -> ``web page url``."""
    return " ".join(w.lower() for w in _WORD.findall(name))


def words_of_text(text: str) -> str:
    """``a Web-page URL`` -> ``web page url``."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return " ".join(w for part in words for w in words_of_name(part).split() if w not in _ARTICLES)


def type_words(types: Iterable[str]) -> dict[str, str]:
    """Each type's words -> the type, for the plain names of one type only (names with
    brackets, such as ``List[PDF]``, are left out)."""
    found: dict[str, str | None] = {}
    for name in types:
        if "[" in name:
            continue
        key = words_of_name(name)
        if key:
            found[key] = None if key in found and found[key] != name else name
    return {key: name for key, name in found.items() if name is not None}
