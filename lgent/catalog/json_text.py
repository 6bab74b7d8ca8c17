"""Catalog records as JSON text: the stored form and the canonical form the content hash reads.

Every record a write stores is written twice as JSON: as the row's ``data`` and, with sorted keys,
as the text its content hash (SHA-256) is taken of. The standard library's encoder took 2.2 s of
the 5 s commit of the 17k-artifact ecosystem (29,245 records); orjson takes 0.4 s.

The canonical text must stay byte for byte what ``json.dumps(record, sort_keys=True,
separators=(",", ":"), ensure_ascii=False)`` writes: stored catalogs hold hashes of it, and a
different text would make every unchanged record of the next load look changed. orjson writes
the same text for strings, integers within 64 bits and floats from 0.0001 up written without an
exponent (all 29,245 records of the ecosystem gave identical bytes); it writes ``0.00001`` where
``json`` writes ``1e-05``, and refuses integers beyond 64 bits and unpaired surrogates. So a text
in which orjson wrote an exponent or a number below 0.0001 (or what looks like one inside a
string), and a record orjson refuses, is written by ``json`` instead: slower, the same bytes. A
property test holds the two to the same text.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_DIGITS = frozenset(b"0123456789")


def _may_differ(text: bytes) -> bool:
    """Whether orjson may have written a float of ``text`` otherwise than ``json``: with an
    exponent (``1e-7`` against ``1e-07``; orjson writes ``e+`` or ``e-``), or below 0.0001
    without one (``0.00001`` against ``1e-05``). Substring searches, not a regular expression:
    a pattern scanned 90 MB of records in 1.1 s, the searches in a hundredth of that."""
    if b"0.0000" in text:
        return True
    for mark in (b"e+", b"e-"):
        at = text.find(mark, 1)
        while at > 0:
            if text[at - 1] in _DIGITS:
                return True
            at = text.find(mark, at + 2)
    return False


def canonical_json(record: Any) -> str:
    """``record`` as ``json.dumps(record, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)`` writes it (the text a content hash is taken of)."""
    try:
        text = orjson.dumps(record, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # an integer beyond 64 bits, an unpaired surrogate, a non-string key
        text = None
    if text is None or _may_differ(text):
        return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.decode()


def stored_json(record: Any) -> str:
    """``record`` as a row's ``data``: compact JSON, its keys in their order (any JSON text
    decodes to the same record; the canonical text is what must not change)."""
    try:
        return orjson.dumps(record).decode()
    except TypeError:
        return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


__all__ = ["canonical_json", "stored_json"]
