"""What a reader read of one source, and reading one ecosystem source apart from a load: the
step a worker process takes (``read_workers``) and the load puts into its batch
(``loaders.settle``), as ``loaders`` reads the source itself."""

from __future__ import annotations

from dataclasses import dataclass

from lgent.catalog.kind_inference import KindInference
from lgent.catalog.readers import ReaderRegistry
from lgent.catalog.readers.base import Document, Located, ReadContext, Reader
from lgent.errors import LGentError, LoadStoppedError


@dataclass(frozen=True, slots=True)
class SourceRead:
    """What a reader read of one source: its records, the problem that leaves an ecosystem
    source out (None: none), its warnings and the wholes it holds."""

    reader: str
    records: list[Located]
    problem: str | None
    warnings: list[str]
    wholes: list[str]


def left_out_because(found: list[LGentError]) -> str | None:
    """Why an ecosystem source with the problems ``found`` is left out (None: none found)."""
    if not found:
        return None
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return f"{found[0]}{more}"


def read_apart(
    source: str,
    suffix: str,
    raw: bytes,
    readers: ReaderRegistry,
    forced: Reader | None,
    inference: KindInference,
) -> SourceRead | None:
    """What an ecosystem reader reads of one source's bytes, as ``_read_doc`` reads it
    (in a worker process: ``read_workers``); None for what is not UTF-8 or not an ecosystem
    source, which the load reads itself."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    doc = Document(source, text, suffix)
    reader = forced or readers.detect(doc)
    if reader is None or not reader.skips_bad_sources:
        return None
    found: list[LGentError] = []
    return read_source(doc, reader, ReadContext(problem=found.append, kinds=inference), found)


def read_source(
    doc: Document, reader: Reader, ctx: ReadContext, found: list[LGentError]
) -> SourceRead:
    """What ``reader`` reads of ``doc`` with ``ctx``, an ecosystem source's problems gathered in
    ``found``; a reader may also give up with one typed error, which is then its problem. A stop
    (``LoadStoppedError``, from ``ctx.progress``) ends the whole load, not this source."""
    try:
        records = list(reader.read(doc, ctx))
    except LoadStoppedError:
        raise
    except LGentError as err:
        ctx.problem(err)
        records = []
    return SourceRead(reader.name, records, left_out_because(found), ctx.warnings, ctx.wholes)


__all__ = ["SourceRead", "left_out_because", "read_apart", "read_source"]
