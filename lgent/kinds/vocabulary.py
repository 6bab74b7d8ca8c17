"""The vocabulary of value kinds: which kinds exist, how they are ordered, and the compiled
evidence rules that find them.

A kind is a type declaration (``TypeDecl``) with ``evidence``. The vocabulary L-gent ships is
``lgent/kinds/vocabulary.yaml``, an ordinary L-gent manifest of type declarations, read by
:func:`default_vocabulary`; :meth:`Vocabulary.extended` adds a catalog's own kinds (declared the
same way) and lets them replace shipped ones of the same name. Kinds form a lattice through
``subtype_of``: :meth:`Vocabulary.is_subkind` answers "is every PDF path a file path?".

A vocabulary is checked whole when it is made: every parent and every field kind must be a kind
of it, and ``subtype_of`` must not loop. Problems are a ``LoadError`` naming the file and line of
the kind (``vocabulary.yaml:212: kind 'PdfPath': subtype_of names 'FilePat', ...``), every one of
them in ``.errors``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path

from lgent.catalog.readers.base import Located, ReadContext
from lgent.catalog.readers.manifest import read_yaml_records
from lgent.errors import LGentError, LoadError
from lgent.kinds.index import KindIndex
from lgent.kinds.literals import phrase_literals
from lgent.models import KindEvidence, TypeDecl

ANY = "any"
"""The field kind that takes any value (in a record kind's ``fields``)."""
VOCABULARY_FILE = "vocabulary.yaml"


@dataclass(frozen=True)
class Rules:
    """A kind's evidence rules, compiled."""

    json_type: str | None = None
    formats: frozenset[str] = frozenset()
    names: tuple[re.Pattern[str], ...] = ()
    patterns: tuple[re.Pattern[str], ...] = ()
    values: tuple[re.Pattern[str], ...] = ()
    enums: frozenset[str] = frozenset()
    units: tuple[re.Pattern[str], ...] = ()
    phrases: tuple[re.Pattern[str], ...] = ()
    fields: tuple[tuple[str, str, bool], ...] = ()
    """``(field name, kind or "any", required)``."""
    any_phrase: re.Pattern[str] | None = None
    """All the phrases as one pattern: one search tells whether any of them is there."""
    phrase_literals: tuple[str, ...] | None = None
    """The text each phrase starts with (``lgent.kinds.literals``): a text holding none of them
    matches no phrase. None when some phrase starts otherwise."""

    @classmethod
    def of(cls, evidence: KindEvidence | None) -> Rules:
        if evidence is None:
            return cls()

        def case_free(rules: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
            return tuple(re.compile(r, re.IGNORECASE) for r in rules)

        return cls(
            json_type=evidence.json_type,
            formats=frozenset(f.lower() for f in evidence.formats),
            names=case_free(evidence.names),
            patterns=tuple(re.compile(r) for r in evidence.patterns),
            values=tuple(re.compile(r) for r in evidence.values),
            enums=frozenset(evidence.enums),
            units=case_free(evidence.units),
            phrases=case_free(evidence.phrases),
            any_phrase=re.compile("|".join(f"(?:{p})" for p in evidence.phrases), re.IGNORECASE)
            if evidence.phrases
            else None,
            phrase_literals=phrase_literals(evidence.phrases),
            fields=tuple(
                (name.rstrip("?"), kind, not name.endswith("?")) for name, kind in evidence.fields
            ),
        )


@dataclass(frozen=True)
class Kind:
    """One kind: its name, direct parents, description, declaration and compiled rules."""

    name: str
    parents: tuple[str, ...]
    description: str
    declaration: TypeDecl
    rules: Rules
    place: str = ""
    """Where it was declared (``file:line``), for error messages."""


@dataclass(frozen=True)
class Vocabulary:
    """The kinds, by name, in declaration order. Build one with :func:`default_vocabulary`,
    :func:`load_vocabulary` or :meth:`from_declarations`; it is immutable."""

    kinds: Mapping[str, Kind]
    _ancestors: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        problems = _problems(self.kinds)
        if problems:
            raise LoadError(
                f"{problems[0]}"
                + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
                errors=list(problems),
            )
        for name in self.kinds:
            self._ancestors[name] = frozenset(self._walk_up(name))

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def from_declarations(
        cls, declarations: Iterable[TypeDecl | Located], *, source: str = ""
    ) -> Vocabulary:
        """The vocabulary of ``declarations`` (each a ``TypeDecl``, or a ``Located`` one that
        says where it was read), all of them kinds; a name declared twice is an error."""
        kinds: dict[str, Kind] = {}
        problems: list[LGentError] = []
        for item in declarations:
            decl, place = _declaration(item, source)
            if decl.type in kinds:
                problems.append(
                    _located(
                        place,
                        f"kind {decl.type!r} is declared twice (first at "
                        f"{kinds[decl.type].place or 'an earlier record'})",
                    )
                )
                continue
            kinds[decl.type] = _kind(decl, place)
        if problems:
            raise LoadError(str(problems[0]), errors=problems)
        return cls(kinds)

    def extended(self, declarations: Iterable[TypeDecl | Located]) -> Vocabulary:
        """This vocabulary with a catalog's kinds added: every declaration with ``evidence``,
        and every declaration that is a subtype of a kind. One that names a shipped kind
        replaces it (a catalog's declaration wins). Parents that are not kinds (the catalog's
        own types) are left out of the kind lattice."""
        added: dict[str, Kind] = {}
        pending = [_declaration(item, "") for item in declarations]
        changed = True
        while changed:  # a subtype of a subtype of a kind is a kind too
            changed = False
            for decl, place in pending:
                if decl.type in added:
                    continue
                known = set(self.kinds) | set(added)
                if decl.evidence is not None or any(p in known for p in decl.subtype_of):
                    added[decl.type] = _kind(decl, place)
                    changed = True
        if not added:
            return self
        merged = {**self.kinds, **added}
        known = set(merged)
        for name, kind in added.items():
            kept = tuple(p for p in kind.parents if p in known)
            if kept != kind.parents:
                merged[name] = Kind(
                    kind.name, kept, kind.description, kind.declaration, kind.rules, kind.place
                )
        return Vocabulary(merged)

    # -- the lattice -------------------------------------------------------------------------
    def __contains__(self, name: object) -> bool:
        return name in self.kinds

    def __iter__(self) -> Iterator[Kind]:
        return iter(self.kinds.values())

    def __len__(self) -> int:
        return len(self.kinds)

    def kind(self, name: str) -> Kind:
        """The kind called ``name`` (KeyError naming it when there is none)."""
        try:
            return self.kinds[name]
        except KeyError:
            raise KeyError(f"no kind {name!r} in the vocabulary") from None

    def ancestors(self, name: str) -> frozenset[str]:
        """Every kind above ``name`` (its parents, theirs...), not ``name`` itself."""
        return self._ancestors.get(name, frozenset())

    def is_subkind(self, sub: str, sup: str) -> bool:
        """True when every value of ``sub`` is a value of ``sup`` (``sup`` is ``sub``, one of
        its ancestors, or ``any``)."""
        return sup == ANY or sub == sup or sup in self.ancestors(sub)

    @cached_property
    def word_values(self) -> dict[str, frozenset[str]]:
        """The kinds each word that ``supplied.supplied_kinds`` read is a value of, kept
        (a vocabulary is immutable, and requests repeat their words)."""
        return {}

    @cached_property
    def index(self) -> KindIndex:
        """The kinds indexed by what their rules need (which may fire on a value or a text)."""
        return KindIndex(self.kinds.values())

    def depth(self, name: str) -> int:
        """How specific ``name`` is: the length of its longest chain of parents (0 for a root)."""
        return self._depths.get(name, 0)

    @cached_property
    def _depths(self) -> dict[str, int]:
        depths: dict[str, int] = {}

        def depth(name: str) -> int:
            if name not in depths:
                parents = self.kinds[name].parents if name in self.kinds else ()
                depths[name] = 1 + max((depth(p) for p in parents), default=-1)
            return depths[name]

        for name in self.kinds:
            depth(name)
        return depths

    @cached_property
    def _children(self) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {name: [] for name in self.kinds}
        for kind in self.kinds.values():
            for parent in kind.parents:
                found[parent].append(kind.name)
        return {name: tuple(children) for name, children in found.items()}

    def descendants(self, name: str) -> tuple[str, ...]:
        """Every kind below ``name``, nearest first."""
        seen: list[str] = []
        queue = list(self._children.get(name, ()))
        while queue:
            child = queue.pop(0)
            if child not in seen:
                seen.append(child)
                queue.extend(self._children.get(child, ()))
        return tuple(seen)

    def declarations(self) -> list[TypeDecl]:
        """The kinds as type declarations, parents before children (to register in a catalog
        or a type lattice)."""
        return [self.kinds[name].declaration for name in sorted(self.kinds, key=self.depth)]

    def _walk_up(self, name: str) -> Iterator[str]:
        stack = list(self.kinds[name].parents)
        seen: set[str] = set()
        while stack:
            parent = stack.pop()
            if parent not in seen:
                seen.add(parent)
                yield parent
                stack.extend(self.kinds[parent].parents)


def _declaration(item: TypeDecl | Located, source: str) -> tuple[TypeDecl, str]:
    if isinstance(item, Located):
        if not isinstance(item.record, TypeDecl):
            raise LoadError(
                f"expected a type declaration, found the entry {item.record.id!r}",
                source=item.source,
                line=item.line,
            )
        return item.record, item.place
    return item, source


def _kind(decl: TypeDecl, place: str) -> Kind:
    return Kind(decl.type, decl.subtype_of, decl.description, decl, Rules.of(decl.evidence), place)


def _located(place: str, message: str) -> LoadError:
    source, _, line = place.rpartition(":")
    if source and line.isdigit():
        return LoadError(message, source=source, line=int(line))
    return LoadError(message, source=place or None)


def _problems(kinds: Mapping[str, Kind]) -> list[LoadError]:
    """Unknown parents and field kinds, and ``subtype_of`` cycles."""
    problems: list[LoadError] = []
    for kind in kinds.values():
        for parent in kind.parents:
            if parent not in kinds:
                problems.append(
                    _located(
                        kind.place,
                        f"kind {kind.name!r}: subtype_of names {parent!r}, "
                        "which is not a kind of this vocabulary",
                    )
                )
        for name, of_kind, _ in kind.rules.fields:
            if of_kind != ANY and of_kind not in kinds:
                problems.append(
                    _located(
                        kind.place,
                        f"kind {kind.name!r}: evidence.fields.{name} names "
                        f"{of_kind!r}, which is not a kind of this vocabulary",
                    )
                )
    if problems:
        return problems
    state: dict[str, int] = {}
    for start in kinds:
        cycle = _cycle_from(start, kinds, state)
        if cycle:
            where = kinds[cycle[0]].place
            problems.append(_located(where, "subtype cycle: " + " -> ".join([*cycle, cycle[0]])))
            break
    return problems


def _cycle_from(start: str, kinds: Mapping[str, Kind], state: dict[str, int]) -> list[str]:
    """A cycle reachable from ``start`` through parents (iterative depth-first search)."""
    if state.get(start) == 2:
        return []
    path: list[str] = []
    stack: list[tuple[str, Iterator[str]]] = []
    state[start] = 1
    path.append(start)
    stack.append((start, iter(kinds[start].parents)))
    while stack:
        name, parents = stack[-1]
        for parent in parents:
            if state.get(parent) == 1:
                return path[path.index(parent) :]
            if state.get(parent) is None:
                state[parent] = 1
                path.append(parent)
                stack.append((parent, iter(kinds[parent].parents)))
                break
        else:
            state[name] = 2
            path.pop()
            stack.pop()
    return []


def load_vocabulary(path: str | Path) -> Vocabulary:
    """The vocabulary in the YAML manifest at ``path`` (``types:`` with ``evidence``). Every
    problem (YAML, a field, a parent) is reported at once: a ``LoadError`` naming file and line,
    each problem in ``.errors``."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise LoadError(f"cannot read the vocabulary: {err}", source=source) from None
    return _vocabulary_of(text, source)


def vocabulary_file() -> Path:
    """Where the shipped vocabulary is: an L-gent manifest, so ``lgent load`` declares its
    kinds as the catalog's types."""
    return Path(str(resources.files("lgent.kinds").joinpath(VOCABULARY_FILE)))


def default_vocabulary() -> Vocabulary:
    """The vocabulary L-gent ships (``lgent/kinds/vocabulary.yaml``). Read each time it is
    called: hold on to it."""
    text = resources.files("lgent.kinds").joinpath(VOCABULARY_FILE).read_text(encoding="utf-8")
    return _vocabulary_of(text, f"lgent/kinds/{VOCABULARY_FILE}")


def _vocabulary_of(text: str, source: str) -> Vocabulary:
    problems: list[LGentError] = []
    records = list(read_yaml_records(text, source, ReadContext(problems.append), first_line=1))
    if problems:
        raise LoadError(
            str(problems[0]) + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""),
            errors=problems,
        )
    return Vocabulary.from_declarations(records, source=source)


__all__ = [
    "ANY",
    "VOCABULARY_FILE",
    "Kind",
    "Rules",
    "Vocabulary",
    "default_vocabulary",
    "load_vocabulary",
    "vocabulary_file",
]
