"""JSON Lines: one L-gent entry or type declaration per line (``*.jsonl``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from lgent import limits
from lgent.catalog.readers.base import Document, Located, ReadContext
from lgent.catalog.readers.parsing import parse_json
from lgent.catalog.readers.records import parse_record
from lgent.errors import LoadError


class JsonlReader:
    name: ClassVar[str] = "jsonl"
    title: ClassVar[str] = "L-gent JSON Lines (one entry or type declaration per line)"
    suffixes: ClassVar[frozenset[str]] = frozenset({".jsonl"})
    skips_bad_sources: ClassVar[bool] = False

    def detect(self, doc: Document) -> bool:
        return doc.suffix in self.suffixes

    def read(self, doc: Document, ctx: ReadContext) -> Iterator[Located]:
        offset = 0
        source = doc.source
        for number, line in enumerate(doc.text.splitlines(keepends=True), start=1):
            offset += len(line.encode("utf-8"))
            if number % 2000 == 0:
                ctx.progress(offset)
            stripped = line.strip()
            if not stripped:
                continue
            if len(line) > limits.MAX_LINE_BYTES:
                ctx.problem(
                    LoadError(
                        f"line longer than {limits.MAX_LINE_BYTES} characters",
                        source=source,
                        line=number,
                    )
                )
                continue
            try:
                obj = parse_json(stripped, source, number)
            except LoadError as err:
                ctx.problem(err)
                continue
            located = parse_record(obj, source, number, ctx)
            if located is not None:
                yield located
