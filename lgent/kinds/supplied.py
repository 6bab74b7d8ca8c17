"""Which kinds a request's own text supplies values of: ``2019-01-01`` is a ``Date``,
``https://example.org`` a ``URL``, ``latitude 41.5`` a ``Latitude``, and a latitude with a
longitude a ``GeoPoint``.

A value is supplied when a word of the text matches one of a kind's ``values`` patterns whole,
or when a word a kind's ``names`` pattern takes (``latitude``, ``email``) is followed by a
number or a quoted value; a record kind is supplied when each field it requires is. A kind
supplied supplies its ancestors (a ``PdfFilePath`` is a ``FilePath``). Pure, no model.
"""

from __future__ import annotations

import re

from lgent.kinds.vocabulary import ANY, Vocabulary

MAX_TEXT = 2_000
"""Characters of a request read."""
_WORD = re.compile(r"[^\s,;()\[\]{}<>\"']+")
_NAMED = re.compile(
    r"\b([A-Za-z][A-Za-z_-]*(?:\s+[A-Za-z][A-Za-z_-]*)?)\s*(?:[:=]|\bis\b|\bof\b)?\s*"
    r"(-?\d+(?:[.,]\d+)?|\"[^\"]{1,80}\"|'[^']{1,80}')",
)


def supplied_kinds(vocabulary: Vocabulary, text: str) -> frozenset[str]:
    """The kinds of ``vocabulary`` the text gives a value of (and their ancestors)."""
    text = text[:MAX_TEXT]
    found: set[str] = set()
    words = [w.strip(".:!?") for w in _WORD.findall(text)]
    for kind in vocabulary:
        patterns = kind.rules.values
        if patterns and any(p.fullmatch(w) for w in words if w for p in patterns):
            found.add(kind.name)
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
