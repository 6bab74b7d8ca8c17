"""Which kinds a request's own text supplies values of: ``2019-01-01`` is a ``Date``,
``https://example.org`` a ``URL``, ``latitude 41.5`` a ``Latitude``, and a latitude with a
longitude a ``GeoPoint``.

A value is supplied when a word of the text matches one of a kind's ``values`` patterns whole
(read as the most specific kinds that take it: those whose pattern spells out the most literal
characters, and their kin, so ``https://example.org/a.md`` is a ``URL``, not a file path), or when a word a kind's ``names`` pattern takes (``latitude``, ``email``) is followed by a
number or a quoted value; a record kind is supplied when each field it requires is. A kind
supplied supplies its ancestors (a ``PdfFilePath`` is a ``FilePath``). Pure, no model.
"""

from __future__ import annotations

import re

from lgent.kinds.vocabulary import ANY, Vocabulary

MAX_TEXT = 2_000
"""Characters of a request read."""
WORDS_KEPT = 65_536
"""Words whose kinds a vocabulary remembers (``_word_kinds``); then it starts again."""
_WORD = re.compile(r"[^\s,;()\[\]{}<>\"']+")
_NAMED = re.compile(
    r"\b([A-Za-z][A-Za-z_-]*(?:\s+[A-Za-z][A-Za-z_-]*)?)\s*(?:[:=]|\bis\b|\bof\b)?\s*"
    r"(-?\d+(?:[.,]\d+)?|\"[^\"]{1,80}\"|'[^']{1,80}')",
)


_CLASSES = frozenset("dDwWsSbB")


def _literal_length(pattern: re.Pattern[str]) -> int:
    """How many characters a pattern spells out literally and not optionally (``https?://``
    spells 7): classes, sets, counts, groups and operators spell none."""
    text, at, spelled = pattern.pattern, 0, 0
    while at < len(text):
        char, literal = text[at], False
        if char == "\\":
            literal, at = text[at + 1 : at + 2] not in _CLASSES, at + 2
        elif char == "[":
            close = text.find("]", at + 2)
            at = len(text) if close < 0 else close + 1
        elif char == "{":
            close = text.find("}", at)
            at = len(text) if close < 0 else close + 1
        elif char == "(":
            at += 3 if text.startswith(("(?:", "(?=", "(?!"), at) else 1
        else:
            literal, at = char not in "()|^$.?*+", at + 1
        optional = text[at : at + 1] in ("?", "*") or text.startswith("{0", at)
        spelled += literal and not optional
    return spelled


def _word_kinds(vocabulary: Vocabulary, word: str) -> frozenset[str]:
    """``_read_word``, remembered in ``vocabulary.word_values`` (up to ``WORDS_KEPT`` words)."""
    kept = vocabulary.word_values
    found = kept.get(word)
    if found is None:
        if len(kept) >= WORDS_KEPT:
            kept.clear()
        found = kept[word] = frozenset(_read_word(vocabulary, word))
    return found


def _read_word(vocabulary: Vocabulary, word: str) -> set[str]:
    """The kinds a word is a value of: those whose ``values`` take it whole with the most
    literal pattern, and the kinds related to one of them (a sub- or superkind)."""
    spelled: dict[str, int] = {}
    for kind in vocabulary:
        lengths = [_literal_length(p) for p in kind.rules.values if p.fullmatch(word)]
        if lengths:
            spelled[kind.name] = max(lengths)
    if not spelled:
        return set()
    most = max(spelled.values())
    best = [k for k, n in spelled.items() if n == most]
    return {
        k
        for k in spelled
        if any(vocabulary.is_subkind(k, b) or vocabulary.is_subkind(b, k) for b in best)
    }


def supplied_kinds(vocabulary: Vocabulary, text: str) -> frozenset[str]:
    """The kinds of ``vocabulary`` the text gives a value of (and their ancestors)."""
    text = text[:MAX_TEXT]
    found: set[str] = set()
    for word in {w.strip(".:!?") for w in _WORD.findall(text)} - {""}:
        found |= _word_kinds(vocabulary, word)
    for match in _NAMED.finditer(text):
        said = match.group(1).lower().replace("-", "_").split()
        for name in ("_".join(said), said[-1]):
            for kind in vocabulary:
                if any(p.fullmatch(name) for p in kind.rules.names):
                    found.add(kind.name)
    changed = True
    while changed:  # records whose required fields are supplied
        changed = False
        for kind in vocabulary:
            fields = [(of, required) for _, of, required in kind.rules.fields if required]
            if kind.name in found or not fields:
                continue
            if all(
                of != ANY and any(vocabulary.is_subkind(s, of) for s in found) for of, _ in fields
            ):
                found.add(kind.name)
                changed = True
    return frozenset(found | {a for k in found for a in vocabulary.ancestors(k)})


__all__ = ["supplied_kinds"]
