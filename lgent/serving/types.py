"""The catalog's types as a list people and agents can read (``lgent types``, ``GET /types``, the
MCP ``list_types`` tool): each type with its parents, how many artifacts produce it and how many
consume it (as composition sees them: declared types, and kinds inferred from schemas), whether
it is a value kind and the rules that infer it, and where it comes from.

Where a type comes from: ``vocabulary`` (a kind L-gent ships, as shipped), ``catalog kind`` (a
kind the catalog declares or redeclares), ``schema of <source>`` (a named schema of an imported
MCP server or API: its types are namespaced by the source), ``shared`` (the base types every
import shares: ``json.string``, ``List``...), or ``catalog`` (declared by the catalog's own
files).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from lgent.models import TypeDecl
from lgent.typeexpr import type_names

if TYPE_CHECKING:
    from lgent.graph.protocol import GraphReader
    from lgent.lgent import LGent

MAX_TYPES_PAGE = 1000
"""The most types one page lists."""
RULE_FIELDS = ("formats", "names", "patterns", "values", "enums", "units", "phrases", "fields")


class TypeRow(BaseModel):
    """One type of the catalog (see the module)."""

    model_config = ConfigDict(frozen=True)

    name: str
    parents: tuple[str, ...]
    producers: int
    """Artifacts whose output (declared, or the best inferred kind) is it (or a list of it)."""
    consumers: int
    """Artifacts that take it or need it to run."""
    kind: bool
    """A value kind: inference finds it in schemas."""
    source: str
    description: str = ""
    rules: dict[str, tuple[str, ...]] = {}
    """A kind's evidence rules by family (``formats``, ``names``...), as written."""


class TypesAnswer(BaseModel):
    """A page of types, most used first, and how many pass the filters."""

    model_config = ConfigDict(frozen=True)

    total: int
    offset: int
    types: tuple[TypeRow, ...]


def _rules(decl: TypeDecl) -> dict[str, tuple[str, ...]]:
    if decl.evidence is None:
        return {}
    found: dict[str, tuple[str, ...]] = {}
    for family in RULE_FIELDS:
        value = getattr(decl.evidence, family)
        if family == "fields":
            value = tuple(f"{name}: {of}" for name, of in value)
        if value:
            found[family] = tuple(str(v) for v in value)
    return found


def _usage(graph: GraphReader) -> tuple[dict[str, set[str]], dict[str, set[str]], set[str]]:
    """Artifact ids producing and consuming each type name, and every artifact id."""
    producers: dict[str, set[str]] = defaultdict(set)
    consumers: dict[str, set[str]] = defaultdict(set)
    ids: set[str] = set()
    for signature in graph.signatures():
        info = graph.artifact(signature.id)
        if info is None:
            continue
        ids.add(info.id)
        for name in _names(info.output_type):
            producers[name].add(info.id)
        for expression in (info.input_type, *info.needs):
            for name in _names(expression):
                consumers[name].add(info.id)
    return producers, consumers, ids


def _names(expression: str | None) -> list[str]:
    if not expression:
        return []
    try:
        return [n for n in type_names(expression) if n != "List"]
    except ValueError:
        return []


def _namespaces(ids: Iterable[str]) -> dict[str, str]:
    """How an imported source's id reads as the namespace of its schema types."""
    from lgent.catalog.readers.schema_types import type_name_part

    wholes = {i.rsplit("/", 1)[0] for i in ids if "/" in i}
    return {type_name_part(w): w for w in wholes}


def _source(
    decl: TypeDecl, kind: bool, shipped: dict[str, TypeDecl], namespaces: dict[str, str]
) -> str:
    from lgent.catalog.readers.schema_types import SHARED_TYPES

    if decl.type in SHARED_TYPES:
        return "shared"
    if kind:
        return "vocabulary" if shipped.get(decl.type) == decl else "catalog kind"
    prefix = decl.type
    while "." in prefix:
        prefix = prefix.rsplit(".", 1)[0]
        if prefix in namespaces:
            return f"schema of {namespaces[prefix]}"
    return "catalog"


def _matches(row: TypeRow, words: Sequence[str]) -> bool:
    text = f"{row.name} {row.description}".lower()
    return all(w in text for w in words)


async def types_answer(
    lg: LGent,
    text: str | None = None,
    *,
    kinds_only: bool = False,
    offset: int = 0,
    limit: int = 50,
) -> TypesAnswer:
    """The catalog's types whose name or description holds every word of ``text`` (all when
    None), value kinds only when ``kinds_only``: most used first (producers and consumers),
    then by name; ``limit`` of them from ``offset``."""
    from lgent.kinds import default_vocabulary

    declared = await lg.types()
    shipped_vocabulary = default_vocabulary()
    shipped = {k.name: k.declaration for k in shipped_vocabulary}
    kinds = {k.name for k in shipped_vocabulary.extended(declared)}
    producers, consumers, ids = await lg.with_graph(_usage)
    namespaces = _namespaces(ids)
    rows = [
        TypeRow(
            name=decl.type,
            parents=decl.subtype_of,
            producers=len(producers.get(decl.type, ())),
            consumers=len(consumers.get(decl.type, ())),
            kind=decl.type in kinds,
            source=_source(decl, decl.type in kinds, shipped, namespaces),
            description=decl.description,
            rules=_rules(decl),
        )
        for decl in declared
    ]
    words = (text or "").lower().split()
    chosen = [r for r in rows if (r.kind or not kinds_only) and _matches(r, words)]
    chosen.sort(key=lambda r: (-(r.producers + r.consumers), r.name.lower()))
    return TypesAnswer(
        total=len(chosen), offset=offset, types=tuple(chosen[offset : offset + limit])
    )


__all__ = ["MAX_TYPES_PAGE", "TypeRow", "TypesAnswer", "types_answer"]
