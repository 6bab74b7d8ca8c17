"""The reader protocol: how one source format becomes catalog records.

A *reader* handles one format. It has a ``name`` (what ``lgent import KIND`` calls it), the file
suffixes it reads, a ``detect`` that may look at the file name and the parsed content, and a
``read`` that yields located records (entries and type declarations) and reports problems and
warnings to a ``ReadContext``. ``lgent.catalog.readers`` keeps the registry and picks the reader
of each file; ``lgent.catalog.loaders`` walks paths and collects what the readers found.

Two failure policies: a *native* reader's problem fails the whole load (a catalog file is meant
to be loaded whole), while an *ecosystem* reader (``skips_bad_sources``) has the file left out
and named with the reason, and the rest of the load goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, ClassVar, Protocol

from lgent.catalog.readers.parsing import load_yaml, parse_json
from lgent.errors import LGentError, LoadError
from lgent.models import CatalogEntry, TypeDecl

JSON_SUFFIXES = frozenset({".json"})
YAML_SUFFIXES = frozenset({".yaml", ".yml"})


@dataclass(slots=True)
class Located:
    """A parsed record and where it came from: a line, or a JSON pointer for formats read whole."""

    record: CatalogEntry | TypeDecl
    source: str
    line: int
    pointer: str = ""

    @property
    def place(self) -> str:
        """``file:line``, or ``file#/json/pointer`` when the record has a pointer."""
        return f"{self.source}#{self.pointer}" if self.pointer else f"{self.source}:{self.line}"


def pointer(*parts: str | int) -> str:
    """A JSON pointer (RFC 6901) to ``parts``: ``pointer("paths", "/pets", "get")`` is
    ``/paths/~1pets/get``."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class Document:
    """One source file: its name, text and suffix, and its JSON or YAML content parsed once, when
    a detector or reader first asks for it (``parse_error`` says why it could not be)."""

    def __init__(self, source: str, text: str, suffix: str) -> None:
        self.source = source
        self.text = text
        self.suffix = suffix.lower()
        self.name = PurePath(source).name
        self._data: Any = None
        self._parsed = False
        self.parse_error: LoadError | None = None

    @classmethod
    def of_data(cls, source: str, data: Any) -> Document:
        """A document already parsed (a live harvest): ``data`` is its JSON content."""
        doc = cls(source, "", ".json")
        doc._data, doc._parsed = data, True
        return doc

    @property
    def structured(self) -> bool:
        """True for JSON and YAML files, whose content ``data`` parses."""
        return self.suffix in JSON_SUFFIXES or self.suffix in YAML_SUFFIXES

    @property
    def data(self) -> Any:
        """The parsed content (None when it does not parse; see ``parse_error``)."""
        if not self._parsed:
            self._parsed = True
            try:
                self._data = self._parse()
            except LoadError as err:
                self.parse_error = err
        return self._data

    def _parse(self) -> Any:
        if self.suffix in JSON_SUFFIXES:
            return parse_json(self.text, self.source)
        if self.suffix in YAML_SUFFIXES:
            return load_yaml(self.text, self.source)[1]
        return None


@dataclass(slots=True)
class ReadContext:
    """What a reader reports besides its records: problems (errors), warnings, progress through
    the file (``progress(bytes_done)``), and the *wholes* it read (an MCP server, an API, an
    agent): a re-import retires the parts of a whole that its source no longer lists; and the
    load's kind inference."""

    problem: Callable[[LGentError], None]
    progress: Callable[[int], Any] = lambda _n: None
    warnings: list[str] = field(default_factory=list)
    wholes: list[str] = field(default_factory=list)
    kinds: KindReader | None = None
    """The load's kind inference (``lgent.catalog.kind_inference``); None: readers store no
    kinds."""

    def warn(self, message: str) -> None:
        self.warnings.append(message)


class KindReader(Protocol):
    """What a reader asks of the load's kind inference: the kinds of a tool, or of an OpenAPI
    operation, as an entry stores them (``CatalogEntry.kinds``)."""

    def tool_kinds(
        self,
        *,
        name: str,
        description: str,
        input_schema: Any,
        output_schema: Any = None,
        output_description: str = "",
        document: Any = None,
    ) -> dict[str, Any]: ...

    def operation_kinds(
        self,
        document: Any,
        path_item: Mapping[str, Any],
        operation: Mapping[str, Any],
        *,
        name: str,
        description: str,
    ) -> dict[str, Any]: ...


class Reader(Protocol):
    """One source format. Implementations are plain classes with these attributes."""

    name: ClassVar[str]
    """What ``lgent import KIND`` calls the format (``mcp``, ``openapi``, ``jsonl``...)."""
    title: ClassVar[str]
    """One line for help texts and reports."""
    suffixes: ClassVar[frozenset[str]]
    """File suffixes (lowercase, with the dot) this reader may read."""
    skips_bad_sources: ClassVar[bool]
    """True: a problem leaves this file out of the load (named, with the reason) instead of
    failing the whole load."""

    def detect(self, doc: Document) -> bool:
        """True when ``doc`` is in this format (may look at ``doc.name`` and ``doc.data``)."""
        ...

    def read(self, doc: Document, ctx: ReadContext) -> Iterator[Located]:
        """The records of ``doc``, in order; problems go to ``ctx.problem``."""
        ...


def parse_failure(doc: Document) -> LoadError:
    """The error to report when ``doc`` had to parse and did not."""
    return doc.parse_error or LoadError("empty document", source=doc.source, line=1)


__all__ = [
    "JSON_SUFFIXES",
    "YAML_SUFFIXES",
    "Document",
    "KindReader",
    "Located",
    "ReadContext",
    "Reader",
    "parse_failure",
    "pointer",
]
