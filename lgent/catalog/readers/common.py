"""What the ecosystem readers share: building validated records located by JSON pointer, and
a source's name from its file."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import Any

from lgent import limits
from lgent.catalog.readers.base import Document, Located, ReadContext
from lgent.catalog.readers.plain_text import has_markup, html_to_text, normalise_whitespace
from lgent.catalog.readers.schema_types import (
    BIDI_CONTROLS,
    SchemaTyper,
    clean_line,
    cut_description,
)
from lgent.errors import LoadError, ValidationError
from lgent.ids import normalise_id
from lgent.models import CatalogEntry
from lgent.origin import MAX_ORIGINAL_DESCRIPTION


def source_key(doc: Document) -> str:
    """The name of a source taken from its file: the file name without its suffix (a folder's
    name for ``agent-card.json``-style fixed names)."""
    path = PurePath(doc.source)
    stem = path.stem
    if stem.lower() in ("agent", "agent-card", "agent_card", "openapi", "swagger", "tools"):
        return path.parent.name or stem
    return stem


def stable(text: str, what: str, doc: Document, at: str) -> str:
    """``text`` as an id; LoadError naming ``what`` and where when nothing of it is usable."""
    found = normalise_id(text)
    if not found:
        raise LoadError(f"{what} {text!r} gives no usable id", source=doc.source + "#" + at)
    return found


def entry(doc: Document, ctx: ReadContext, at: str, fields: dict[str, Any]) -> Located | None:
    """``fields`` as a validated entry located at JSON pointer ``at``; a problem is reported
    (naming the pointer) and None returned. Markup left in the description is made text
    (readers clean the source's own texts first with ``cleaned``, which keeps the original).
    What cleaning had to change is said as a warning: a description cut at the length limit, a
    name that held bidirectional controls."""
    where = f"{doc.source}#{at}"
    if "description" in fields:
        text = html_to_text(str(fields["description"]))
        fields["description"], was = cut_description(text)
        if was:
            ctx.warn(
                f"{where}: description of {was:,} characters cut at "
                f"{limits.MAX_DESCRIPTION_LENGTH:,}"
            )
    raw_name = str(fields["name"])
    if BIDI_CONTROLS.search(raw_name):
        ctx.warn(f"{where}: name {raw_name!r} held bidirectional control characters; dropped")
    fields["name"] = clean_line(raw_name, limits.MAX_NAME_LENGTH) or fields["id"]
    if fields.get("keywords"):
        fields["keywords"] = words(fields["keywords"])
    try:
        record = CatalogEntry.parse(fields, source=f"{doc.source}#{at}")
    except ValidationError as err:
        ctx.problem(err)
        return None
    return Located(record, doc.source, 1, at)


def cleaned(origin: dict[str, Any], *texts: Any) -> list[str]:
    """Each of the source's ``texts`` as plain text (``plain_text``; a non-text is ""). When
    that changed more than their whitespace, the texts as written are kept in ``origin``'s
    ``description`` (joined by blank lines), for whoever wants the source's own words."""
    written = [t if isinstance(t, str) else "" for t in texts]
    plain = [normalise_whitespace(html_to_text(t)) for t in written]
    if any(
        has_markup(t) and p != normalise_whitespace(t) for p, t in zip(plain, written, strict=True)
    ):
        original = "\n\n".join(t for t in written if t.strip())
        origin["description"] = original[:MAX_ORIGINAL_DESCRIPTION]
    return plain


def words(items: Iterable[Any]) -> list[str]:
    """Keywords: one-line, non-empty, de-duplicated, within the limits."""
    found: list[str] = []
    for item in items:
        word = clean_line(str(item), limits.MAX_KEYWORD_LENGTH)
        if word and word not in found:
            found.append(word)
        if len(found) >= limits.MAX_KEYWORDS:
            break
    return found


def type_records(doc: Document, typer: SchemaTyper) -> Iterator[Located]:
    """The type declarations ``typer`` collected, located at the document."""
    for decl in typer.declarations():
        yield Located(decl, doc.source, 1, "")
