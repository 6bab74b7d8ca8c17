"""``find_compatible`` with a limit reads only the healthiest matches of each port, and answers
exactly what sorting every match would: ties in health at the cut, artifacts found through
several ports and the artifact itself left out included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.graph.composition import CompositionIndex
from lgent.graph.ports import PORT_SEP, artifact_of, distinct_signatures, first_compatible
from lgent.graph.signatures import Signature
from lgent.graph.types import TypeLattice

HEALTHS = [0.0, 0.25, 0.5, 0.5, 1.0, 1.0]  # ties likely
ARTIFACTS = [f"a{i}" for i in range(8)]


def answer(found: list[Signature], limit: int | None, leave_out: str) -> list[Signature]:
    """What ``CatalogGraph.find_compatible`` makes of the ports' matches."""
    found = sorted(found, key=lambda s: (-s.health, artifact_of(s.id)))
    return distinct_signatures(found, leave_out=leave_out)[:limit]


def port_ids() -> st.SearchStrategy[str]:
    return st.builds(
        lambda a, n: a if n == 0 else f"{a}{PORT_SEP}{n}",
        st.sampled_from(ARTIFACTS),
        st.integers(0, 2),
    )


def stream() -> st.SearchStrategy[list[Signature]]:
    """One port's matches, healthiest first then by id, as the composition index gives them."""
    one = st.builds(
        Signature,
        id=port_ids(),
        input_type=st.sampled_from(["T", "U"]),
        output_type=st.sampled_from(["T", "U"]),
        health=st.sampled_from(HEALTHS),
    )
    return st.lists(one, max_size=12, unique_by=lambda s: s.id).map(
        lambda sigs: sorted(sigs, key=lambda s: (-s.health, s.id))
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(stream(), max_size=4),
    st.one_of(st.none(), st.integers(1, 6)),
    st.sampled_from(ARTIFACTS),
)
def test_the_cut_keeps_what_sorting_every_match_keeps(
    streams: list[list[Signature]], limit: int | None, leave_out: str
) -> None:
    every = [sig for part in streams for sig in part]
    read = first_compatible([iter(part) for part in streams], limit, leave_out)
    assert answer(read, limit, leave_out) == answer(every, limit, leave_out)
    if limit is not None:  # and it stops early: nothing below the cut's health is read
        kept = answer(every, limit, leave_out)
        if len(kept) == limit:
            assert all(sig.health >= kept[-1].health for sig in read)


def test_a_limited_stream_reads_only_the_healthiest() -> None:
    lattice = TypeLattice.from_declarations([("Doc", [], 0), ("Text", [], 0)])
    index = CompositionIndex(lattice)
    index.add(Signature("source", "Doc", "Text"))
    for i in range(50):
        index.add(Signature(f"sink{i:02d}", "Text", "Doc", health=i / 50))
    every = index.find_compatible("source")
    assert [s.id for s in every[:3]] == ["sink49", "sink48", "sink47"]
    assert index.find_compatible("source", limit=3) == every[:3]
    read = first_compatible([index.compatible_stream("source")], 3, "source")
    assert [s.id for s in read] == ["sink49", "sink48", "sink47"]


def signatures() -> st.SearchStrategy[list[Signature]]:
    one = st.builds(
        Signature,
        id=st.sampled_from(ARTIFACTS),
        input_type=st.sampled_from(["T0", "T1", "T2", None]),
        output_type=st.sampled_from(["T0", "T1", "T3", None]),
        usable=st.sampled_from([True, True, False]),
        health=st.sampled_from(HEALTHS),
    )
    return st.lists(one, max_size=10, unique_by=lambda s: s.id)


@settings(max_examples=200, deadline=None)
@given(signatures(), st.lists(st.sampled_from(ARTIFACTS), max_size=3), st.booleans(), st.data())
def test_the_best_health_of_each_cell_asked_for(
    sigs: list[Signature], removed: list[str], usable: bool, data: st.DataObject
) -> None:
    lattice = TypeLattice.from_declarations([(t, [], 0) for t in ("T0", "T1", "T2", "T3")])
    index = CompositionIndex(lattice)
    for sig in sigs:
        index.add(sig)
    every = np.arange(len(index.input_names)), np.arange(len(index.output_names))
    index.best_among(*every, usable=usable)  # the cells read (and cached)
    for artifact in removed:  # a change after the cells were read
        index.remove(artifact)
    kept = [s for s in sigs if s.id not in removed]
    inputs, outputs = len(index.input_names), len(index.output_names)
    rows = np.array(data.draw(st.lists(st.integers(0, inputs - 1), unique=True)) if inputs else [])
    cols = np.array(
        data.draw(st.lists(st.integers(0, outputs - 1), unique=True)) if outputs else []
    )
    rows, cols = rows.astype(np.intp), cols.astype(np.intp)
    table = index.best_among(rows, cols, usable=usable)
    assert table.shape == (len(rows), len(cols))
    for i, s in enumerate(rows.tolist()):
        for j, u in enumerate(cols.tolist()):
            healths = [
                sig.health
                for sig in kept
                if sig.input_type == index.input_names[s]
                and sig.output_type == index.output_names[u]
                and (sig.usable or not usable)
            ]
            assert table[i, j] == max(healths, default=-1.0)
