"""CatalogGraph: the catalog as a graph, shared by everything that reasons about connections.

It holds the type lattice, the lineage graph, the composition index, the artifact table and the
name index, all in memory, built from the catalog's entries and kept current from its changes.
The graph brain answers questions from it; the resolver, hole filling, fusion's lineage order
and suggestions, and serving read it through its public methods (``GraphReader``,
``lgent/graph/protocol.py``), each of which holds the graph's lock: a read never sees half of a
change, and the composition index's lazily built tables are never built twice at once.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence

from lgent.errors import BuildStoppedError, NotFoundError, TypeLatticeError
from lgent.graph import links, paths, spread
from lgent.graph.artifacts import ArtifactInfo, ArtifactTable, Fitness, artifact_info
from lgent.graph.composition import CompositionIndex
from lgent.graph.deferred import DeferredTables
from lgent.graph.facts import ArtifactFacts, facts_of
from lgent.graph.lineage import LineageGraph, LineageHit, bfs
from lgent.graph.names import NameIndex, normalized
from lgent.graph.ports import (
    PORT_SEP,
    Ports,
    artifact_groups,
    artifact_members,
    artifact_of,
    distinct_paths,
    distinct_signatures,
    first_compatible,
)
from lgent.graph.sides import Port, sides_of
from lgent.graph.signatures import CompositionPath, Direction, PathSearch, Ranked, Signature
from lgent.graph.type_words import type_words, words_of_text
from lgent.graph.types import TypeLattice
from lgent.limits import MAX_LIMIT
from lgent.models import CatalogEntry, SearchFilters, TypeDecl
from lgent.typeexpr import canonical

CANCEL_EVERY = 1000
"""A build asks whether to stop (and gives way to queries) every this many entries."""
BROAD_KIND = 3
"""A type with this many subtypes or more is broad (``Text``): an inferred port of it counts
0.6, one of a type with fewer subtypes 0.85, one of a leaf type 1."""


class CatalogGraph(DeferredTables):
    """The catalog's graph (in memory; ``change_number`` -1 until built). Thread-safe: every
    public method holds the graph's re-entrant lock."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._change_number = -1
        self._reset([])

    def __getstate__(self) -> dict[str, object]:
        """What ``lgent.graph.image`` keeps: everything but the lock (caches are dropped by the
        parts that hold them; ``lgent.graph.deferred``: the tables read when first used)."""
        with self._lock:
            return self.image_state({k: v for k, v in self.__dict__.items() if k != "_lock"})

    def __setstate__(self, state: dict[str, object]) -> None:
        self.restore_state(state)
        self._lock = threading.RLock()

    def _reset(self, types: Sequence[TypeDecl]) -> None:
        self._declarations = tuple(types)
        self._lattice = _lattice(types)
        self._lineage = LineageGraph()
        self._composition = CompositionIndex(self._lattice)
        self._info = ArtifactTable()
        self._names = NameIndex()
        self._ports = Ports()
        self._facts: dict[str, ArtifactFacts] = {}
        self._index_type_names()

    # -- building --------------------------------------------------------------------------

    @property
    def change_number(self) -> int:
        """The catalog change number the graph reflects (-1: never built)."""
        return self._change_number

    def build(
        self,
        entries: Iterable[CatalogEntry],
        types: Sequence[TypeDecl],
        change_number: int,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> None:
        """Replace the graph with ``entries`` and ``types``. ``cancelled()`` is asked every
        ``CANCEL_EVERY`` entries (true: ``BuildStoppedError``, the graph is left unbuilt)."""
        self.build_from(map(facts_of, entries), types, change_number, cancelled)

    def build_from(
        self,
        facts: Iterable[ArtifactFacts],
        types: Sequence[TypeDecl],
        change_number: int,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> None:
        """``build`` from what the graph keeps of each entry (``facts``, as ``facts()`` gives
        them): no entry is read or validated again."""
        with self._lock:
            self._reset(types)
            self._change_number = -1
            declared: dict[str, tuple[tuple[str, str], ...]] = {}
            for n, fact in enumerate(facts, start=1):
                self._add(fact)
                declared[fact.id] = fact.relations
                if n % CANCEL_EVERY == 0 and cancelled():
                    self._reset(types)
                    raise BuildStoppedError(f"the graph build stopped after {n} entries")
            self._lineage = LineageGraph.of(
                (source, relation, target)
                for source, pairs in declared.items()
                for relation, target in pairs
            )
            self._names = NameIndex.of(self._info.names())
            self._composition.warm()
            self._change_number = change_number

    def declarations(self) -> list[TypeDecl]:
        """The type declarations the lattice was made of."""
        with self._lock:
            return list(self._declarations)

    def facts(self) -> list[ArtifactFacts]:
        """What the graph keeps of every artifact, by id (``build_from`` rebuilds it)."""
        with self._lock:
            return [self._facts[i] for i in sorted(self._facts)]

    def apply(
        self,
        upserts: Sequence[CatalogEntry],
        removals: Sequence[str],
        types: Sequence[TypeDecl] | None,
        change_number: int,
    ) -> None:
        """Apply a batch of catalog changes (``types``: the whole type list when one changed);
        each entry costs what its own names, relations and type group cost, never a pass over
        the catalog (new type declarations rebuild the lattice, the type tables and every
        artifact's ports, which depend on which types are primitive)."""
        with self._lock:
            if types is not None:
                self._declarations = tuple(types)
                kept = [f for i, f in self._facts.items() if i not in {e.id for e in upserts}]
                self._lattice = _lattice(types)
                self._composition.set_lattice(self._lattice)
                self._index_type_names()
                for fact in kept:  # ports again, under the new lattice
                    self._drop_ports(fact.id)
                    self._add(fact)
            for artifact_id in removals:
                self._remove(artifact_id)
            for entry in upserts:
                fact = facts_of(entry)
                self._remove(entry.id)
                self._add(fact)
                self._lineage.set_relations(entry.id, list(fact.relations))
                self._names.add(entry.id, entry.name)
            self._change_number = change_number

    def _add(self, fact: ArtifactFacts) -> None:
        """Index ``fact`` (its names and relations are indexed by the caller: in bulk by
        ``build_from``): one signature per (input, output) port pair (``sides.py``)."""
        sides = sides_of(fact, self._lattice.is_primitive)
        info = artifact_info(fact, sides)
        self._facts[fact.id] = fact
        self._info.add(info)
        made: list[tuple[str, float]] = []
        for n, (takes, gives) in enumerate(sides.pairs()):
            port_id = fact.id if n == 0 else f"{fact.id}{PORT_SEP}{n}"
            fit = self._fit(takes) * self._fit(gives)
            # a malformed type matches nothing; problems() lists it
            with contextlib.suppress(TypeLatticeError):
                self._composition.add(
                    Signature(
                        port_id,
                        None if takes is None else takes.type,
                        None if gives is None else gives.type,
                        info.usable,
                        info.health * fit,
                    )
                )
                made.append((port_id, fit))
        self._ports.set(fact.id, made)

    def _fit(self, port: Port | None) -> float:
        """How much an inferred port counts: its confidence times the specificity of its
        type (a kind with many subkinds, such as ``Text``, says less); 1 for a declared one."""
        if port is None or port.declared:
            return 1.0
        return port.confidence * self._specificity(port.type)

    def _specificity(self, type_name: str) -> float:
        found = self._specific.get(type_name)
        if found is None:
            try:
                below = len(self._lattice.subtypes(type_name)) - 1  # itself is listed
            except TypeLatticeError:
                below = 0
            found = 1.0 if below <= 0 else 0.85 if below < BROAD_KIND else 0.6
            self._specific[type_name] = found
        return found

    def _remove(self, artifact_id: str) -> None:
        info = self._info.remove(artifact_id)
        self._facts.pop(artifact_id, None)
        if info is not None:
            self._names.remove(artifact_id, info.name)
            self._lineage.remove_relations_of(artifact_id)
            self._drop_ports(artifact_id)

    def _drop_ports(self, artifact_id: str) -> None:
        for port_id in self._ports.pop(artifact_id):
            self._composition.remove(port_id)

    def _index_type_names(self) -> None:
        self._type_names = {t.lower(): t for t in self._lattice.types()}
        self._type_names["any"] = "Any"
        self._type_words = type_words(self._lattice.types())
        self._specific: dict[str, float] = {}

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Hold the graph still across several reads (for the graph brain's lazy answers)."""
        with self._lock:
            yield

    # -- size and health of the graph itself -----------------------------------------------

    def __len__(self) -> int:
        return len(self._info)

    def describe(self) -> str:
        """``"N types, M relations"``."""
        with self._lock:
            return f"{len(self._lattice)} types, {len(self._lineage)} relations"

    def problems(self) -> list[str]:
        """What is wrong with the indexed types under the lattice, one line per type."""
        with self._lock:
            return self._composition.problems()

    def prepare(self) -> None:
        """Build the composition tables a first path or type question would (a server warming
        up, so that no query pays for it). Not the names' trigram index, which only a fuzzy
        lookup needs: 0.4 s to build, but 77 MiB resident on the 17k ecosystem home and 153 MiB
        at 100k entries."""
        with self._lock:
            self._composition.prepare()

    # -- names -----------------------------------------------------------------------------

    def type_name(self, text: str) -> str | None:
        """The declared type ``text`` names (case-insensitive; parametric forms checked)."""
        with self._lock:
            return self._type_name(text.strip())

    def _type_name(self, text: str) -> str | None:
        direct = self._type_names.get(text.lower())
        if direct is not None:
            return direct
        if "[" not in text:  # plain words: "a web page URL" names WebPageURL
            return self._type_words.get(words_of_text(text))
        try:
            expr = canonical(text)
        except TypeLatticeError:
            return None
        head = self._type_names.get(expr.split("[", 1)[0].lower())
        if head is None:
            return None
        args = re.findall(r"[A-Za-z_][\w.\-]*", expr)[1:]
        fixed = [self._type_names.get(a.lower()) for a in args]
        if not all(fixed):
            return None
        rebuilt = expr
        for raw, good in zip(args, fixed, strict=True):
            rebuilt = re.sub(rf"\b{re.escape(raw)}\b", str(good), rebuilt, count=1)
        return head + rebuilt[len(expr.split("[", 1)[0]) :]

    def require_type(self, text: str) -> str:
        """The declared type ``text`` names; ``TypeLatticeError`` with suggestions if none."""
        name = self.type_name(text)
        if name is None:
            raise TypeLatticeError(self.unknown_type_message(text))
        return name

    def unknown_type_message(self, text: str) -> str:
        close = self.close_types(text)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return f"unknown type {text!r}{hint}"

    def close_types(self, text: str) -> list[str]:
        """Up to three declared types whose names are closest to ``text``: suggestions."""
        with self._lock:
            return difflib.get_close_matches(text, self._lattice.types(), n=3, cutoff=0.6)

    def artifact_id(self, text: str, *, fuzzy: bool = True) -> str | None:
        """The artifact ``text`` names: by id or name, ignoring case and punctuation (an id wins
        over a look-alike name, then the smallest id); then, if ``fuzzy``, the closest name or
        id by ``difflib`` ratio (at least 0.88, keys of 5 characters or more; see ``names``)."""
        with self._lock:
            return self._names.lookup(text, fuzzy=fuzzy)

    def closest_names(self, text: str, n: int = 3) -> list[str]:
        """Up to ``n`` artifact names or ids closest to ``text``: suggestions."""
        with self._lock:
            return self._names.closest(text, n)

    def namesakes(self, name: str) -> tuple[str, ...]:
        """The ids of every artifact named ``name`` (ignoring case and punctuation)."""
        with self._lock:
            return self._names.namesakes(normalized(name))

    # -- artifacts -------------------------------------------------------------------------

    def knows(self, artifact_id: str) -> bool:
        """Whether ``artifact_id`` is in the graph (the catalog may be ahead of it)."""
        with self._lock:
            return artifact_id in self._info

    def artifact(self, artifact_id: str) -> ArtifactInfo | None:
        """What the graph knows of ``artifact_id`` besides its edges, or None."""
        with self._lock:
            return self._info.get(artifact_id)

    def types_of(self, artifact_id: str) -> tuple[str | None, str | None]:
        """``(input type, output type)`` of an artifact the graph knows."""
        with self._lock:
            return self._info.types(artifact_id)

    def admits(self, artifact_id: str, filters: SearchFilters | None) -> bool:
        """Whether the artifact passes ``filters`` (status, entity type, execution...)."""
        with self._lock:
            return self._info.admits(artifact_id, filters)

    def signature(self, artifact_id: str) -> Signature | None:
        """The artifact's signature in the composition index, by its first ports (None: no
        type, or unknown)."""
        with self._lock:
            return self._composition.get(artifact_id)

    def signatures_of(self, artifact_id: str) -> list[Signature]:
        """Every signature the artifact is registered with, one per port pair, best first."""
        with self._lock:
            found = (self._composition.get(p) for p in self._ports.of(artifact_id))
            return [s for s in found if s is not None]

    def undeclared_side(self, artifact_id: str, direction: Direction) -> str | None:
        """Why nothing composes with ``artifact_id`` in ``direction`` when it declares no type
        on that side (its output downstream, its input upstream); None when it does."""
        me = self.artifact(artifact_id)
        if me is None:
            return None
        side, typed = side_type(me, direction)
        return None if typed else undeclared(artifact_id, side)

    # -- types -----------------------------------------------------------------------------

    def is_subtype(self, a: str, b: str) -> bool:
        with self._lock:
            return self._lattice.is_subtype(a, b)

    def is_primitive(self, type_name: str) -> bool:
        """Whether ``type_name`` is a primitive (``TypeLatticeError`` if malformed)."""
        with self._lock:
            return self._lattice.is_primitive(type_name)

    def compose_check(self, first: str, second: str) -> bool:
        """True when ``first``'s output fits ``second``'s input."""
        with self._lock:
            a, b = self._info.get(first), self._info.get(second)
            if a is None or b is None or a.output_type is None or b.input_type is None:
                return False
            return self._lattice.is_subtype(a.output_type, b.input_type)

    def matching(self, takes: str | None, gives: str | None, *, only: bool = False) -> list[Ranked]:
        """The artifacts whose input accepts ``takes`` and whose output fits ``gives``, grouped
        (see ``CompositionIndex.matching``; an artifact once per group, at its best port)."""
        with self._lock:
            return artifact_groups(self._composition.matching(takes, gives, only=only))

    def neighbours(self, target: Signature, direction: Direction) -> list[Ranked]:
        """The groups of artifacts that can follow (downstream) or precede ``target`` through
        any of its ports."""
        with self._lock:
            found: list[Ranked] = []
            for sig in self._port_signatures(target):
                found += self._composition.neighbours(sig, direction)
            return artifact_groups(found)

    def _port_signatures(self, target: Signature) -> list[Signature]:
        ports = [self._composition.get(p) for p in self._ports.of(target.id)]
        found = [s for s in ports if s is not None]
        return found if found and target.id in self._info else [target]

    def type_candidates(self, input_type: str, output_type: str) -> list[Fitness]:
        """Artifacts (usable or not) whose input accepts ``input_type`` and whose output fits
        ``output_type``, in no particular order (the resolver ranks them by its own score),
        each with the fit of its best port that does."""
        with self._lock:
            best: dict[str, float] = {}
            for port_id in self._composition.fitting_ids(input_type, output_type):
                artifact = artifact_of(port_id)
                best[artifact] = max(best.get(artifact, 0.0), self._ports.fit(port_id))
            return [
                self._info.fitness(i)._replace(fit=fit)
                for i, fit in best.items()
                if i in self._info
            ]

    def accepting(self, type_name: str, limit: int | None = None) -> list[ArtifactInfo]:
        """Artifacts (usable or not) whose input accepts ``type_name``, healthiest first."""
        return self._one_side(Signature("\0query", None, type_name), "downstream", limit)

    def producing(self, type_name: str, limit: int | None = None) -> list[ArtifactInfo]:
        """Artifacts (usable or not) whose output is ``type_name`` or a subtype, healthiest
        first."""
        return self._one_side(Signature("\0query", type_name, None), "upstream", limit)

    def _one_side(
        self, pseudo: Signature, direction: Direction, limit: int | None
    ) -> list[ArtifactInfo]:
        with self._lock:
            sigs = self._composition.find_compatible(
                pseudo, direction, include_unusable=True, limit=None, chain=False
            )
            found = distinct_signatures(sigs)
            return [self._info[s.id] for s in found[:limit] if s.id in self._info]

    # -- composition -----------------------------------------------------------------------

    def find_paths(self, search: PathSearch) -> list[CompositionPath]:
        """The pipelines ``search`` asks for (``lgent.graph.paths.find_paths``); its types are
        read as ``type_name`` reads them, and an unknown one is a ``TypeLatticeError``."""
        with self._lock:
            source, target = self.require_type(search.source), self.require_type(search.target)
            wider = min(search.k * 3, MAX_LIMIT) if self._ports.any() else search.k
            checked = dataclasses.replace(
                search, source=source, target=target, k=wider, allowed=_of_ports(search.allowed)
            )
            typed = distinct_paths(paths.find_paths(self._composition, checked), search.k)
            made = links.linked_paths(
                links.feeds_pairs(self._lineage),
                self._info.get,
                self._types_of,
                self._fits,
                source,
                target,
                include_unusable=search.include_unusable,
                allowed=search.allowed,
            )
            return links.merged(typed, made, search.k) if made else typed

    def _types_of(self, artifact_id: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """An artifact's input types (needs included) and output types, over all its ports."""
        sigs = [self._composition.get(p) for p in self._ports.of(artifact_id)]
        info = self._info.get(artifact_id)
        needs = info.needs if info is not None else ()
        takes = {s.input_type for s in sigs if s is not None and s.input_type} | set(needs)
        gives = {s.output_type for s in sigs if s is not None and s.output_type}
        return tuple(sorted(takes)), tuple(sorted(gives))

    def linked(self, artifact_id: str, direction: Direction) -> list[str]:
        """The artifacts ``artifact_id`` feeds (downstream) or that feed it (upstream) through
        a ``feeds`` relation (``lgent.graph.links``), by id."""
        with self._lock:
            return [
                i for i in links.linked(self._lineage, artifact_id, direction) if i in self._info
            ]

    def members(
        self,
        source: str,
        target: str,
        max_length: int,
        *,
        include_unusable: bool = False,
        known: Sequence[CompositionPath] = (),
        allowed: Callable[[str], bool] | None = None,
    ) -> Iterator[tuple[str, CompositionPath]]:
        """Every artifact on a pipeline from ``source`` to ``target`` with its best pipeline,
        lazily (``lgent.graph.paths.members``); iterate it inside ``reading()``."""
        return artifact_members(
            paths.members(
                self._composition,
                source,
                target,
                max_length,
                include_unusable=include_unusable,
                known=known,
                allowed=_of_ports(allowed),
            )
        )

    def find_compatible(
        self,
        artifact_id: str,
        direction: Direction = "downstream",
        limit: int | None = 50,
        include_unusable: bool = False,
        *,
        chain: bool = True,
    ) -> list[Signature]:
        """Artifacts that can follow (downstream) or precede (upstream) ``artifact_id``,
        healthiest first (health x the port's fit), then those needing least else, sources
        taking turns (``graph.spread``); linked ones (``graph.links``) before all;
        ``NotFoundError`` for an artifact the graph does not know;
        ``chain=False`` links through primitive types too (as plain subtyping would)."""
        with self._lock:
            self._require_artifact(artifact_id)
            streams = [
                self._composition.compatible_stream(
                    port_id,
                    direction,
                    include_unusable=include_unusable,
                    chain=chain,
                    every=limit is None,
                )
                for port_id in self._ports.of(artifact_id)
                if port_id in self._composition
            ]
            wide = None if limit is None else limit * spread.WIDTH  # sources take turns in it
            found = first_compatible(streams, wide, artifact_id)
            joined = links.linked_signatures(
                self._lineage, self._info.get, artifact_id, direction, include_unusable
            )
            if artifact_id not in self._composition and not found and not joined:
                raise NotFoundError(artifact_id)  # as the index says of an untyped artifact
            gives = self._types_of(artifact_id)[1] if direction == "downstream" else ()
            found.sort(key=lambda s: (-s.health, self._unmet(s.id, gives), artifact_of(s.id)))
            typed = distinct_signatures(found, leave_out=artifact_id)
            typed = spread.taking_turns(typed, self._source_of)
            return distinct_signatures([*joined, *typed], leave_out=artifact_id)[:limit]

    def _unmet(self, port_id: str, gives: Sequence[str]) -> int:
        """How many needs of the port's artifact ``gives`` leaves unmet (``graph.spread``)."""
        needs = self._info.needs(artifact_of(port_id))  # no ArtifactInfo made per candidate
        return 0 if needs is None or not gives else spread.unmet(needs, gives, self._fits)

    def _source_of(self, artifact_id: str) -> str:
        """The server or API an artifact is part of, else the artifact itself."""
        return next(
            (whole for _, whole in self._lineage.outgoing("part_of")(artifact_id)), artifact_id
        )

    def signatures(self) -> list[Signature]:
        """Every artifact's signature in the composition index (by its first ports), by id."""
        with self._lock:
            return [s for s in self._composition.signatures() if PORT_SEP not in s.id]

    def runnable_with(self, have: Sequence[str], limit: int | None = 50) -> list[ArtifactInfo]:
        """Artifacts every need of which one of the ``have`` types satisfies (a subtype of it):
        what can run with what the caller has. Those that use more of what was given first,
        then the healthiest, then by id; artifacts that need nothing are left out. A ``have``
        is read as ``type_name`` reads it (``TypeLatticeError`` when it names no type)."""
        with self._lock:
            given = [self.require_type(h) for h in have]
            candidates: set[str] = set()
            for h in given:
                for group in self._composition.matching(h, None):
                    candidates.update(artifact_of(i) for i in group.ids)
            found: list[tuple[int, float, str]] = []
            for artifact_id in candidates:
                info = self._info.get(artifact_id)
                if info is None or not info.needs:
                    continue
                used = {h for n in info.needs for h in given if self._fits(h, n)}
                if all(any(self._fits(h, n) for h in given) for n in info.needs):
                    found.append((-len(used), -info.health, artifact_id))
            found.sort()
            return [self._info[i] for _, _, i in found[:limit]]

    def _fits(self, given: str, need: str) -> bool:
        try:
            return self._lattice.is_subtype(given, need)
        except TypeLatticeError:
            return False

    # -- lineage ---------------------------------------------------------------------------

    @property
    def lineage(self) -> LineageGraph:
        """The lineage graph (read it inside ``reading()``)."""
        return self._lineage

    def lineage_of(self, artifact_id: str, depth: int | None = None) -> dict[str, list[LineageHit]]:
        """Ancestors, descendants, dependencies, dependents, forging, implementations,
        alternatives and parts of one artifact (``NotFoundError`` if unknown)."""
        with self._lock:
            self._require_artifact(artifact_id)
            g = self._lineage
            return {
                "ancestors": g.ancestors(artifact_id, depth),
                "descendants": g.descendants(artifact_id, depth, include_implementers=False),
                "dependencies": g.dependencies(artifact_id, depth or 1),
                "dependents": g.dependents(artifact_id, depth or 1),
                "forged_by": g.forger(artifact_id),
                "forged": g.forged(artifact_id),
                "implements": list(bfs(artifact_id, g.outgoing("implements"), 1)),
                "implementers": g.implementers(artifact_id),
                "similar": g.similar(artifact_id),
                "part_of": list(bfs(artifact_id, g.outgoing("part_of"), 1)),
                "parts": list(bfs(artifact_id, g.incoming("part_of"), 1)),
            }

    def wholes(self, ids: Sequence[str]) -> dict[str, tuple[str, int]]:
        """For each of ``ids`` that is part of another artifact (a tool of a server, an
        operation of an API): that artifact's id and how many parts it has."""
        with self._lock:
            up, down = self._lineage.outgoing("part_of"), self._lineage.incoming("part_of")
            found: dict[str, tuple[str, int]] = {}
            for artifact_id in ids:
                for _, whole in up(artifact_id):
                    found[artifact_id] = (whole, sum(1 for _ in down(whole)))
                    break
            return found

    def part_counts(self, ids: Sequence[str]) -> dict[str, int]:
        """Of ``ids``, those other artifacts are part of, with how many parts each has."""
        with self._lock:
            down = self._lineage.incoming("part_of")
            counts = {i: sum(1 for _ in down(i)) for i in ids}
            return {i: n for i, n in counts.items() if n}

    def latest(self, artifact_id: str) -> str:
        """The newest usable generation of ``artifact_id`` along successor links (itself if
        none)."""
        with self._lock:
            hits = self._lineage.descendants(artifact_id, depth=None, include_implementers=False)
            usable = [h for h in hits if self._usable(h.id)]
            if not usable:
                return artifact_id
            return max(usable, key=lambda h: (h.depth, h.id)).id

    def successor_of(self, artifact_id: str) -> str | None:
        """The usable artifact that directly or eventually replaced ``artifact_id``, if any."""
        newest = self.latest(artifact_id)
        return None if newest == artifact_id else newest

    def _usable(self, artifact_id: str) -> bool:
        info = self._info.get(artifact_id)
        return info is not None and info.usable

    def _require_artifact(self, artifact_id: str) -> None:
        if artifact_id not in self._info:
            raise NotFoundError(artifact_id)


def _relations(entry: CatalogEntry) -> list[tuple[str, str]]:
    """The ``(relation, target)`` pairs ``entry`` declares."""
    return [(r.type.value, r.target) for r in entry.relations]


def _of_ports(allowed: Callable[[str], bool] | None) -> Callable[[str], bool] | None:
    """``allowed``, which reads artifact ids, over the composition index's port ids."""
    if allowed is None:
        return None
    return lambda port_id: allowed(artifact_of(port_id))


def _lattice(types: Sequence[TypeDecl]) -> TypeLattice:
    """The lattice of the catalog's declarations (which the catalog keeps acyclic)."""
    lattice = TypeLattice()
    lattice.add_types((t.type, t.subtype_of, t.params, bool(t.primitive)) for t in types)
    return lattice


def undeclared(artifact_id: str, side: str) -> str:
    """Why nothing composes with ``artifact_id`` on its ``side`` ("input", "output")."""
    return f"{artifact_id} declares no {side} type, so nothing composes with it there"


def side_type(me: ArtifactInfo, direction: Direction) -> tuple[str, str | None]:
    """The side of ``me`` a composition in ``direction`` goes through, and its type there."""
    return ("output", me.output_type) if direction == "downstream" else ("input", me.input_type)
