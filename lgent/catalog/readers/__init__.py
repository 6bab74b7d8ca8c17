"""The readers of every source format, and how one is chosen for a file.

``ReaderRegistry.default()`` holds them in the order detection tries them: the ecosystem formats
first (each recognises its own content), then L-gent's native formats, whose manifest reader
takes any other JSON or YAML file. Adding a format is one module with a reader class (see
``base.Reader``) and one line in ``_reader_classes``.
"""

from __future__ import annotations

from collections.abc import Iterable

from lgent.catalog.readers.base import Document, Located, ReadContext, Reader
from lgent.errors import LoadError


def _reader_classes() -> list[type[Reader]]:
    from lgent.catalog.readers.a2a import A2aReader
    from lgent.catalog.readers.jsonl import JsonlReader
    from lgent.catalog.readers.manifest import ManifestReader
    from lgent.catalog.readers.markdown import MarkdownReader
    from lgent.catalog.readers.mcp import McpReader
    from lgent.catalog.readers.mcp_registry import McpRegistryReader
    from lgent.catalog.readers.openai_tools import OpenAiToolsReader
    from lgent.catalog.readers.openapi import OpenApiReader

    return [
        McpReader,
        McpRegistryReader,
        OpenApiReader,
        A2aReader,
        OpenAiToolsReader,
        JsonlReader,
        MarkdownReader,
        ManifestReader,
    ]


class ReaderRegistry:
    """Readers by name, and detection: the first reader, in order, that takes a document."""

    def __init__(self, readers: Iterable[Reader]) -> None:
        self.readers: tuple[Reader, ...] = tuple(readers)
        self._by_name = {r.name: r for r in self.readers}

    @classmethod
    def default(cls) -> ReaderRegistry:
        return cls(reader() for reader in _reader_classes())

    @property
    def suffixes(self) -> frozenset[str]:
        """Every file suffix some reader reads."""
        return frozenset().union(*(r.suffixes for r in self.readers))

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.readers]

    def named(self, name: str) -> Reader:
        """The reader called ``name``; LoadError naming the known ones otherwise."""
        found = self._by_name.get(name)
        if found is None:
            raise LoadError(
                f"unknown source format {name!r} (expected one of {', '.join(self.names)})"
            )
        return found

    def detect(self, doc: Document) -> Reader | None:
        """The reader for ``doc``, or None when no reader takes it."""
        for reader in self.readers:
            if doc.suffix in reader.suffixes and reader.detect(doc):
                return reader
        return None


__all__ = ["Document", "Located", "ReadContext", "Reader", "ReaderRegistry"]
