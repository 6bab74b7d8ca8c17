"""The text the embedder sees for a catalog entry, in two modes.

``plain`` (the default): ``"name. description. keywords. input -> output"``.
``weighted``: the L-gent spec's repetition, name x2 and description x3, then keywords and the
type signature, one labelled line each.

Why ``plain`` is the default: on an external tool-retrieval benchmark, repeating fields did not
help MiniLM and the plain text did best (shared/DESIGN.md). Repetition also spends MiniLM's 256
word-piece window three times on the description, so long descriptions lose their tail and the
keywords. Both modes are kept so the labeled queries can settle it (``SemanticSettings.text_mode``).

Identifiers in names, keywords and type names are split into words (``PDFParser_v2`` -> ``PDF
Parser v2``, by ``lgent.analysis.identifiers.spaced``) so the model sees words it knows.

``budgeted_texts`` is what the brain embeds: each text cut to the text budget
(``semantic.entry_tokens`` word pieces, ``budget.py``), saying which texts were cut.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from lgent.analysis.identifiers import spaced
from lgent.brains.semantic.embedders import CutsToPieces, Embedder
from lgent.models import CatalogEntry

TextMode = Literal["plain", "weighted"]

_SPACES = re.compile(r"\s+")


def _signature(entry: CatalogEntry) -> str:
    if not entry.input_type and not entry.output_type:
        return ""
    source = spaced(entry.input_type or "Any")
    target = spaced(entry.output_type or "Any")
    return f"{source} -> {target}"


def _keywords(entry: CatalogEntry) -> str:
    return ", ".join(spaced(k) for k in entry.keywords)


def _sentence(text: str) -> str:
    text = _SPACES.sub(" ", text).strip()
    return text if not text or text[-1] in ".!?" else text + "."


def plain_text(entry: CatalogEntry) -> str:
    """``name. description. keywords. input -> output``, empty parts left out."""
    parts = [spaced(entry.name), entry.description, _keywords(entry), _signature(entry)]
    return " ".join(_sentence(p) for p in parts if p.strip())


def weighted_text(entry: CatalogEntry) -> str:
    """The spec's repetition: name x2, description x3, keywords, type signature."""
    name = spaced(entry.name)
    description = _SPACES.sub(" ", entry.description).strip()
    lines = [f"Name: {name}", f"Name: {name}"]
    if description:
        lines += [f"Description: {description}"] * 3
    if entry.keywords:
        lines.append(f"Keywords: {_keywords(entry)}")
    signature = _signature(entry)
    if signature:
        lines.append(f"Type: {signature}")
    return "\n".join(lines)


BUILDERS: dict[str, Callable[[CatalogEntry], str]] = {
    "plain": plain_text,
    "weighted": weighted_text,
}


def entry_text(entry: CatalogEntry, mode: TextMode = "plain") -> str:
    """The embedding text of ``entry`` in ``mode`` (``plain`` or ``weighted``)."""
    return BUILDERS[mode](entry)


@dataclass(frozen=True, slots=True)
class EntryTexts:
    """The texts embedded for some entries, in order, and which of them the budget cut."""

    texts: list[str]
    cut: list[bool]


def budgeted_texts(
    entries: Sequence[CatalogEntry], mode: TextMode, embedder: Embedder, pieces: int
) -> EntryTexts:
    """The embedding texts of ``entries``, each cut to ``pieces`` of the model's word pieces
    (``budget.py``) when ``embedder`` counts them; whole texts for one that does not."""
    texts = [entry_text(e, mode) for e in entries]
    if not isinstance(embedder, CutsToPieces):
        return EntryTexts(texts, [False] * len(texts))
    fitted = embedder.cut_to_pieces(texts, pieces) if texts else []
    return EntryTexts(fitted, [a != b for a, b in zip(fitted, texts, strict=True)])
