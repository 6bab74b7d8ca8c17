"""Graph brain at catalog scale: build time and query latency on the synthetic catalog.

    python -m benchmarks.graph_bench                  # 100k entries, 200 types
    python -m benchmarks.graph_bench --size 10000 --no-write

Entries and types come from ``benchmarks/harness/synthetic.py`` (seed 7, the catalog of the fusion
benchmark), parsed into ``CatalogEntry`` / ``TypeDecl`` and handed to ``GraphBrain().build``.
Query types are drawn from the types entries actually use (5% of them ``List[...]``); artifacts
from the catalog. Every call goes through the brain's public methods (its lock included).
Targets (issue 5): ``find_paths`` p99 <= 5 ms, ``is_subtype`` p99 <= 50 us, build "a few seconds".

Then every kind of graph question as fusion asks it (issue 6): ``classify(text, brain)`` first
(untimed), then ``GraphBrain.answer(BrainQuery(text, 50, ...))`` as fusion asks it timed, on fresh
query types and artifacts, target p99 <= 8 ms each; and ``classify`` itself on names, one-word
typos (the fuzzy name lookup) and plain words, same target. Also the objects the brain adds to
what the garbage collector tracks, and what a full collection costs with and without them.
Writes the ``Graph brain`` section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.harness import runner, synthetic
from lgent.brains.base import BrainQuery, ChangeSet
from lgent.brains.graph.brain import GraphBrain
from lgent.fusion.classify import classify
from lgent.graph.signatures import PathSearch
from lgent.models import CatalogEntry, TypeDecl

FIND_PATHS_P99_MS = 5.0
IS_SUBTYPE_P99_US = 50.0
QUESTION_P99_MS = 8.0
QUESTION_LIMIT = 50
"""What fusion asks the graph brain for at most (``limit * overfetch``, at least 30)."""

QUESTIONS = {  # kind -> text (``{a}``, ``{b}``: types; ``{x}``: an artifact id)
    "type `A -> B`": "{a} -> {b}",
    "type, input only": "tools that accept {a}",
    "type, output only": "what produces {b}",
    "composition `a path from A to B`": "a path from {a} to {b}",
    "composition, at most 2 steps": "a pipeline from {a} to {b} in two steps",
    "dependents (what depends on X)": "what depends on {x}",
    "dependencies (what does X depend on)": "what does {x} depend on",
    "downstream (what can take X's output)": "what can take {x}'s output",
    "upstream (what feeds X)": "what feeds {x}",
    "successors (successor of X)": "successor of {x}",
    "descendants (what evolved from X)": "what evolved from {x}",
    "alternatives to X": "alternatives to {x}",
    "an artifact's name": "{name}",
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--types", type=int, default=200)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    info = runner.machine_info()
    rng = random.Random(args.seed + 1)

    with runner.Timer() as t_gen:
        raw_entries, raw_types = synthetic.generate(args.size, seed=args.seed, n_types=args.types)
    with runner.Timer() as t_parse:
        entries = [CatalogEntry.parse(e) for e in raw_entries]
        types = [TypeDecl.parse(t) for t in raw_types]
    del raw_entries
    objects_before, collect_before = _gc_state()
    brain = GraphBrain()
    with runner.Timer() as t_build:
        brain.build(entries, types, 1)
    objects_after, collect_after = _gc_state()
    print(
        f"generated in {t_gen.seconds:.1f} s, parsed in {t_parse.seconds:.1f} s, built in {t_build.seconds:.2f} s"
    )
    print(
        f"objects the garbage collector tracks: {objects_before:,} before the build, "
        f"{objects_after:,} after (the brain: {objects_after - objects_before:,}); "
        f"gc.collect() {collect_before:.0f} ms before, {collect_after:.0f} ms after"
    )

    used = sorted({t for e in entries for t in (e.input_type, e.output_type) if t})
    plain = [t for t in used if "[" not in t]
    listy = [t for t in used if "[" in t] or plain

    def some_type() -> str:
        return rng.choice(listy) if rng.random() < 0.05 else rng.choice(plain)

    lattice_types = [t.type for t in types if t.params == 0]
    subtype_pairs = [(rng.choice(lattice_types), rng.choice(lattice_types)) for _ in range(20_000)]
    subtype_pairs += [(rng.choice(listy), rng.choice(listy)) for _ in range(1_000)]
    path_pairs = [(some_type(), some_type()) for _ in range(args.queries)]
    artifacts = [e.id for e in rng.sample(entries, args.queries)]
    typed = [e.id for e in entries if e.input_type and e.output_type]
    compat = rng.sample(typed, args.queries)

    rows: list[tuple[str, runner.LatencyStats, str]] = []

    def row(
        label: str, fn: Callable[[Any], object], inputs: Sequence[Any], target: str = ""
    ) -> runner.LatencyStats:
        stats = runner.time_calls(fn, inputs)
        rows.append((label, stats, target))
        print(f"{label:55s} p50 {stats.p50 * 1000:9.1f} us  p99 {stats.p99 * 1000:9.1f} us")
        return stats

    sub = row(
        "is_subtype, first pass after build", lambda p: brain.graph.is_subtype(*p), subtype_pairs
    )
    sub_warm = row(
        "is_subtype, warm",
        lambda p: brain.graph.is_subtype(*p),
        subtype_pairs,
        f"<= {IS_SUBTYPE_P99_US:.0f} us",
    )
    found = [brain.graph.find_paths(PathSearch(s, t)) for s, t in path_pairs]
    answered = [p for p in found if p]
    paths_first = row(
        "find_paths k=5, first pass",
        lambda p: brain.graph.find_paths(PathSearch(p[0], p[1])),
        [(some_type(), some_type()) for _ in range(args.queries)],
    )
    paths = row(
        "find_paths k=5 (max_length 5)",
        lambda p: brain.graph.find_paths(PathSearch(p[0], p[1])),
        path_pairs,
        f"<= {FIND_PATHS_P99_MS:.0f} ms",
    )
    row(
        "find_paths k=20",
        lambda p: brain.graph.find_paths(PathSearch(p[0], p[1], k=20)),
        path_pairs,
    )
    row(
        "find_paths k=5, include_unusable",
        lambda p: brain.graph.find_paths(PathSearch(p[0], p[1], include_unusable=True)),
        path_pairs[:100],
    )
    row("find_compatible downstream (limit 50)", brain.graph.find_compatible, compat)
    row(
        "find_compatible upstream (limit 50)",
        lambda a: brain.graph.find_compatible(a, "upstream"),
        compat,
    )
    row("lineage_of (all relations, depth unbounded)", brain.graph.lineage_of, artifacts)
    row("latest (successor chain)", brain.graph.latest, artifacts)
    texts = [
        phrase.format(a=a)
        for i, a in enumerate(artifacts)
        for phrase in (
            "what depends on {a}",
            "compatible with {a}",
            "what evolved from {a}",
            "what can receive {a}'s output",
        )[i % 4 : i % 4 + 1]
    ]
    parsed = sum(brain.interpret(t) is not None for t in texts)
    row("search: relationship text queries (parse + answer)", brain.search, texts)
    type_texts = [f"{s} -> {t}" for s, t in path_pairs]
    row("search: `A -> B` type queries", brain.search, type_texts)
    composition_texts = [f"a path from {s} to {t}" for s, t in path_pairs]
    row("search: `a path from A to B`", brain.search, composition_texts)

    # incremental: one changed entry per change set (its types re-drawn), as the change log feeds it
    by_id = {e.id: e for e in entries}
    updates = [
        ChangeSet(
            [by_id[a].model_copy(update={"input_type": some_type(), "output_type": some_type()})],
            [],
            None,
            n,
        )
        for n, a in enumerate(artifacts[:200], start=2)
    ]
    questions, asked = _question_rows(brain, entries, some_type, rng, args.queries, row)

    row("apply_changes (one entry)", brain.apply_changes, updates)
    after = row(
        "find_paths k=5 after the updates (first pass)",
        lambda p: brain.graph.find_paths(PathSearch(p[0], p[1])),
        path_pairs[:200],
    )

    table = runner.Table(
        ["operation", "n", "p50 ms", "p95 ms", "p99 ms", "max ms", "target (p99)"], digits=3
    )
    for label, stats, target in rows:
        table.add(label, stats.n, stats.p50, stats.p95, stats.p99, stats.max, target or "-")
    lengths = [len(p[-1]) for p in answered]
    question_verdicts = [
        _verdict(f"{label} p99", stats.p99, QUESTION_P99_MS, "ms") for label, stats in questions
    ]
    verdicts = [
        _verdict("find_paths p99", paths.p99, FIND_PATHS_P99_MS, "ms"),
        _verdict("is_subtype p99 (warm)", sub_warm.p99 * 1000, IS_SUBTYPE_P99_US, "us"),
        f"- is_subtype p99 on the first pass after a build (memo filling): {sub.p99 * 1000:.1f} us; "
        f"find_paths p99 on the first pass: {paths_first.p99:.2f} ms, after 200 incremental "
        f"updates: {after.p99:.2f} ms",
        f"- build: {t_build.seconds:.2f} s for {len(entries):,} entries (parsing the dicts into "
        f"CatalogEntry objects first: {t_parse.seconds:.1f} s; not part of the brain)",
        f"- garbage collection: the brain adds {objects_after - objects_before:,} tracked "
        f"objects ({objects_before:,} -> {objects_after:,}, the parsed entries included); "
        f"gc.collect() {collect_before:.0f} ms before the build, {collect_after:.0f} ms after",
    ]
    text = (
        f"{args.size:,} synthetic entries (seed {args.seed}, {len(types)} types incl. `List`), "
        f"`GraphBrain().build(entries, types, n)` in **{t_build.seconds:.2f} s** "
        f"(parsing {args.size:,} dicts into `CatalogEntry`: {t_parse.seconds:.1f} s). "
        f"Query types are the {len(plain)} plain and {len(listy)} `List[...]` types entries use; "
        f"{len(answered)}/{len(path_pairs)} `find_paths` pairs have a path (mean longest "
        f"{statistics.mean(lengths) if lengths else 0:.2f} artifacts); {parsed}/{len(texts)} "
        f"relationship texts parsed as graph questions. `is_subtype`: {len(subtype_pairs):,} "
        "pairs (5% parametric). One thread, calls through the brain's public methods.\n\n"
        + table.markdown()
        + "\n\nAcceptance (issue 5, point 3):\n\n"
        + "\n".join(verdicts)
        + f"\n\nEvery graph question as fusion asks it (`search: ...` and `classify: ...` rows; "
        f"limit {QUESTION_LIMIT}, fresh types and artifacts), issue 6 budget "
        f"p99 <= {QUESTION_P99_MS:g} ms each ({'; '.join(asked)}):\n\n"
        + "\n".join(question_verdicts)
    )
    print(text)
    if not args.no_write:
        runner.write_results("Graph brain", text, info=info)
    return 0


def _question_rows(
    brain: GraphBrain,
    entries: Sequence[CatalogEntry],
    some_type: Callable[[], str],
    rng: random.Random,
    n: int,
    row: Callable[..., runner.LatencyStats],
) -> tuple[list[tuple[str, runner.LatencyStats]], list[str]]:
    """Each kind of graph question through ``GraphBrain.search`` as fusion asks it (the
    operation ``classify`` read, limit ``QUESTION_LIMIT``), then ``classify`` itself; and, per
    kind of question, how many were read as one and how many hits they had on average."""
    found: list[tuple[str, runner.LatencyStats]] = []
    notes: list[str] = []
    pairs = [(some_type(), some_type()) for _ in range(n)]
    picked = rng.sample(list(entries), n)
    for kind, phrase in QUESTIONS.items():
        texts = [
            phrase.format(a=a, b=b, x=e.id, name=e.name)
            for (a, b), e in zip(pairs, picked, strict=True)
        ]
        readings = [(t, classify(t, brain)) for t in texts]
        asked = [
            BrainQuery(t, QUESTION_LIMIT, query_type=c.query_type, reading=c.reading)
            for t, c in readings
        ]
        stats = row(
            f"search: {kind}",
            brain.answer,
            asked,
            f"<= {QUESTION_P99_MS:g} ms",
        )
        found.append((f"search: {kind}", stats))
        hits = [len(brain.answer(q).ranking) for q in asked]
        read = sum(q.reading is not None for q in asked)
        notes.append(
            f"{kind}: {read}/{n} read as graph questions, {statistics.mean(hits):.1f} hits"
        )
    words = [
        f"{rng.choice(list(synthetic.VERBS.values())).lower()} "
        f"{rng.choice(synthetic.ADJECTIVES)} {rng.choice(synthetic.OBJECTS)}"
        for _ in range(n)
    ]
    typos = [_typo(e.name, rng) for e in picked]
    for kind, texts in (
        ("classify: an artifact's name", [e.name for e in picked]),
        ("classify: a one-word typo of a name (fuzzy lookup)", typos),
        ("classify: plain words", words),
    ):
        stats = row(kind, lambda t: classify(t, brain), texts, f"<= {QUESTION_P99_MS:g} ms")
        found.append((kind, stats))
    return found, notes


def _typo(name: str, rng: random.Random) -> str:
    """``name`` with one character replaced, deleted or doubled."""
    at = rng.randrange(len(name))
    edit = rng.choice("rdi")
    if edit == "r":
        return name[:at] + rng.choice("aeiorstx") + name[at + 1 :]
    if edit == "d" and len(name) > 1:
        return name[:at] + name[at + 1 :]
    return name[:at] + name[at] + name[at:]


def _gc_state() -> tuple[int, float]:
    """Objects the garbage collector tracks, after a full collection, and how long a full
    collection of them takes (ms)."""
    gc.collect()
    start = time.perf_counter()
    gc.collect()
    return len(gc.get_objects()), (time.perf_counter() - start) * 1000


def _verdict(what: str, value: float, target: float, unit: str) -> str:
    word = "PASS" if value <= target else "FAIL"
    return f"- {word}: {what} is {value:.2f} {unit} (target <= {target:g} {unit})"


if __name__ == "__main__":
    sys.exit(main())
