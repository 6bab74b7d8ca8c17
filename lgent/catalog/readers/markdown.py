"""Markdown tool cards: the YAML front matter (between a leading ``---`` line and the next
``---`` or ``...`` line) holds one entry; the body is for people. A card without front matter is
not a catalog file (the loader lists it as skipped)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from lgent.catalog.readers.base import Document, Located, ReadContext
from lgent.catalog.readers.manifest import read_yaml_records


class MarkdownReader:
    name: ClassVar[str] = "markdown"
    title: ClassVar[str] = "Markdown tool card with YAML front matter"
    suffixes: ClassVar[frozenset[str]] = frozenset({".md", ".markdown"})
    skips_bad_sources: ClassVar[bool] = False

    def detect(self, doc: Document) -> bool:
        return doc.suffix in self.suffixes and front_matter(doc.text) is not None

    def read(self, doc: Document, ctx: ReadContext) -> Iterator[Located]:
        front = front_matter(doc.text)
        if front is None:
            return
        body, first_line = front
        yield from read_yaml_records(body, doc.source, ctx, first_line=first_line, single=True)


def front_matter(text: str) -> tuple[str, int] | None:
    """The YAML between a leading ``---`` line and the next ``---`` (or ``...``) line, and the
    line it starts on."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    for index in range(1, len(lines)):
        if lines[index].strip() in ("---", "..."):
            return "\n".join(lines[1:index]), 2
    return None
