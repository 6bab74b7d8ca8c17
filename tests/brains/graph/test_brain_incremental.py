"""GraphBrain.apply_changes: after any sequence of changes the brain equals a fresh build, and a
one-entry change never walks the whole catalog."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.brains.base import ChangeSet
from lgent.brains.graph.brain import GraphBrain
from lgent.graph.artifacts import ArtifactTable
from lgent.graph.signatures import PathSearch
from lgent.models import CatalogEntry, TypeDecl
from tests.conftest import make_entry
from tests.examples import examples

TYPES = [
    TypeDecl.parse({"type": "T0"}),
    TypeDecl.parse({"type": "T1", "subtype_of": ["T0"]}),
    TypeDecl.parse({"type": "T2", "subtype_of": ["T1"]}),
    TypeDecl.parse({"type": "T3", "subtype_of": ["T0"]}),
    TypeDecl.parse({"type": "L", "params": 1}),
]
OTHER_TYPES = [*TYPES[:3], TypeDecl.parse({"type": "T3", "subtype_of": ["T2"]}), TYPES[4]]

IDS = ["a1", "a2", "b1", "B1", "b-1", "pdf_parser", "PDFParser", "summarizer"]
NAMES = ["Summarizer", "PDF Parser", "pdf-parser", "B 1", "Tool", "tool", "a2", "Sumarizer v2"]
SIG_TYPES = [None, "T0", "T1", "T2", "T3", "L[T1]", "L", "Any", "L[T1, T2]", "Unknown"]
STATUSES = ["active", "active", "experimental", "deprecated", "retired"]
RELATIONS = ["successor_to", "depends_on", "forged_by", "implements", "similar_to"]


@st.composite
def entries(draw: st.DrawFn) -> CatalogEntry:
    relations = draw(
        st.lists(
            st.tuples(st.sampled_from(RELATIONS), st.sampled_from(IDS)),
            max_size=3,
            unique=True,
        )
    )
    return make_entry(
        draw(st.sampled_from(IDS)),
        name=draw(st.sampled_from(NAMES)),
        input_type=draw(st.sampled_from(SIG_TYPES)),
        output_type=draw(st.sampled_from(SIG_TYPES)),
        status=draw(st.sampled_from(STATUSES)),
        success_rate=draw(st.sampled_from([None, 0.0, 0.5, 0.9, 1.0])),
        relations=[{"type": kind, "target": target} for kind, target in relations],
    )


change = st.one_of(
    st.tuples(st.just("upsert"), entries()),
    st.tuples(st.just("remove"), st.sampled_from(IDS)),
    st.tuples(st.just("types"), st.sampled_from([TYPES, OTHER_TYPES])),
)

QUERIES = [
    "summarizer",
    "Sumarizer",
    "pdf parser",
    "PDFParserr",
    "b1",
    "tool",
    "a path from T2 to T0",
    "T1 -> T0",
    "T2 to T3",
    "input: L[T2]",
]


def snapshot(brain: GraphBrain) -> dict[str, Any]:
    """Everything the brain holds, and its answers to a fixed set of questions."""
    graph = brain.graph  # its tables are compared whole, privately
    ids = sorted(graph._info)
    pairs = [(a, b) for a in ("T0", "T1", "T2", "L[T2]", "Any") for b in ("T0", "T3", "L")]
    return {
        "info": dict(sorted(graph._info.items())),
        "names": graph._names.state(),
        "relations": graph.lineage.relations(),
        "signatures": graph._composition.signatures(),
        "problems": graph.problems(),
        "lookups": [brain.artifact_id(q) for q in [*QUERIES, *IDS, *NAMES]],
        "paths": [
            graph.find_paths(PathSearch(a, b, 3, 10, include_unusable=True)) for a, b in pairs
        ],
        "compatible": [
            graph.find_compatible(i, direction, include_unusable=True)
            for i in ids
            for direction in ("downstream", "upstream")
        ],
        "search": [brain.search(q, None, 20).hits for q in QUERIES],
        "relationships": [
            brain.search(f"{phrase} {i}", None, 20).hits
            for i in ids
            for phrase in ("alternatives to", "what depends on", "what replaced")
        ],
    }


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(entries(), max_size=8), st.lists(change, max_size=12))
def test_any_sequence_of_changes_equals_a_fresh_build(
    initial: list[CatalogEntry], changes: list[tuple[str, Any]]
) -> None:
    current = {e.id: e for e in initial}
    types = TYPES
    brain = GraphBrain()
    brain.build(current.values(), types, 1)
    for number, (kind, value) in enumerate(changes, start=2):
        snapshot(brain)  # warm every cache, so stale ones would show
        if kind == "upsert":
            current[value.id] = value
            brain.apply_changes(ChangeSet([value], [], None, number))
        elif kind == "remove":
            current.pop(value, None)
            brain.apply_changes(ChangeSet([], [value], None, number))
        else:
            types = value
            brain.apply_changes(ChangeSet([], [], value, number))
    fresh = GraphBrain()
    fresh.build(sorted(current.values(), key=lambda e: e.id), types, len(changes) + 1)
    assert snapshot(brain) == snapshot(fresh)
    assert brain.change_number == len(changes) + 1 if changes else 1


class _Untouchable(ArtifactTable):
    """A table that refuses to be walked while ``walled``: a whole-catalog pass during a change
    fails the test (``keys``, ``values`` and ``items`` all walk through ``__iter__``)."""

    walled = True

    def __iter__(self) -> Iterator[str]:
        if self.walled:
            raise AssertionError("apply_changes walked every artifact")
        return super().__iter__()


def test_a_one_entry_change_touches_only_that_entry() -> None:
    catalog = [
        make_entry(f"tool{i}", name=f"Tool {i}", input_type="T1", output_type="T0")
        for i in range(300)
    ]
    brain = GraphBrain()
    brain.build(catalog, TYPES, 1)
    brain.search("a path from T2 to T0")  # type tables and per-type lists built
    walled = _Untouchable()
    for info in brain.graph._info.values():
        walled.add(info)
    brain.graph._info = walled
    renamed = catalog[7].model_copy(update={"name": "Renamed Tool", "output_type": "T3"})
    brain.apply_changes(ChangeSet([renamed], ["tool8"], None, 2))
    walled.walled = False
    assert brain.artifact_id("renamed tool") == "tool7"
    assert brain.artifact_id("Tool 8", fuzzy=False) is None
    assert brain.artifact_id("tool 7", fuzzy=False) == "tool7"  # the id still names it
    fresh = GraphBrain()
    fresh.build([renamed, *(e for e in catalog if e.id not in ("tool7", "tool8"))], TYPES, 2)
    assert snapshot(brain) == snapshot(fresh)
