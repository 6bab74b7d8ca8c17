"""Timing of the graph brain's algorithms on synthetic data (no assertions; prints numbers).

    .venv/bin/python benchmarks/graph_bench.py [--signatures 100000] [--types 200]

Lattice: a random DAG of ``--types`` names (each with up to 2 parents among earlier names) plus
``List`` (1 parameter) and ``Dict`` (2). Signatures: random input/output types, 10% of them
``List[T]``, random health, 5% unusable.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any

from lgent.brains.graph.compose import CompositionIndex, Signature
from lgent.brains.graph.types import TypeLattice


def make_lattice(n_types: int, rng: random.Random) -> tuple[TypeLattice, list[str]]:
    names = [f"T{i:03d}" for i in range(n_types)]
    decls: list[tuple[str, list[str], int]] = [("Sequence", [], 1), ("List", ["Sequence"], 1)]
    decls.append(("Dict", [], 2))
    for i, name in enumerate(names):
        parents = rng.sample(names[:i], k=min(i, rng.choice([0, 1, 1, 2])))
        decls.append((name, parents, 0))
    return TypeLattice.from_declarations(decls), names


def some_type(names: list[str], rng: random.Random) -> str:
    name = rng.choice(names)
    return f"List[{name}]" if rng.random() < 0.1 else name


def percentiles(samples_ns: list[int]) -> str:
    us = sorted(s / 1000 for s in samples_ns)
    p50 = statistics.median(us)
    p99 = us[int(len(us) * 0.99) - 1]
    return f"p50 {p50:8.2f} us   p99 {p99:8.2f} us   max {us[-1]:9.2f} us   (n={len(us)})"


def timed(call: Callable[..., object], argsets: Iterable[tuple[Any, ...]], **kw: Any) -> list[int]:
    """Nanoseconds taken by ``call(*args, **kw)`` for each argument tuple."""
    out = []
    for args in argsets:
        start = time.perf_counter_ns()
        call(*args, **kw)
        out.append(time.perf_counter_ns() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--signatures", type=int, default=100_000)
    parser.add_argument("--types", type=int, default=200)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lattice, names = make_lattice(args.types, rng)

    pairs = [(some_type(names, rng), some_type(names, rng)) for _ in range(20_000)]
    for a, b in pairs:
        lattice.is_subtype(a, b)
    print("is_subtype (strings, warm)    ", percentiles(timed(lattice.is_subtype, pairs)))
    lattice.add_type("Extra")  # invalidates every cache
    print("is_subtype (strings, cold)    ", percentiles(timed(lattice.is_subtype, pairs)))

    sigs = [
        Signature(
            f"a{i:06d}",
            some_type(names, rng),
            some_type(names, rng),
            usable=rng.random() > 0.05,
            health=round(rng.random(), 3),
        )
        for i in range(args.signatures)
    ]
    start = time.perf_counter()
    index = CompositionIndex(lattice, sigs)
    print(f"index build: {time.perf_counter() - start:.2f} s for {len(sigs)} signatures")
    start = time.perf_counter()
    CompositionIndex(lattice, sigs[:1000]).warm()  # separate: the timed index warms lazily
    small = time.perf_counter() - start
    print(f"(build + warm of 1000 signatures: {small:.2f} s)")

    queries = [(some_type(names, rng), some_type(names, rng)) for _ in range(args.queries)]
    paths = index.find_paths
    print("find_paths k=5 (first run)    ", percentiles(timed(paths, queries)))
    print("find_paths k=5 (warm)         ", percentiles(timed(paths, queries)))
    lengths = [len(found[-1]) for found in (paths(s, t) for s, t in queries) if found]
    mean = statistics.mean(lengths)
    print(f"   answered {len(lengths)}/{len(queries)}; mean longest path {mean:.2f}")
    print("find_paths k=20 (warm)        ", percentiles(timed(paths, queries, k=20)))
    print(
        "find_paths include_unusable   ",
        percentiles(timed(paths, queries[:50], include_unusable=True)),
    )
    targets = [(sig,) for sig in sigs[:300]]
    compatible = index.find_compatible
    print("find_compatible downstream    ", percentiles(timed(compatible, targets)))
    print(
        "find_compatible upstream      ",
        percentiles(timed(compatible, targets, direction="upstream")),
    )
    print(
        "find_compatible up, limit=20  ",
        percentiles(timed(compatible, targets, direction="upstream", limit=20)),
    )
    changes = [
        (Signature(f"a{i:06d}", some_type(names, rng), some_type(names, rng), health=0.5),)
        for i in range(200)
    ]
    print("index update (one signature)  ", percentiles(timed(index.update, changes)))
    print("find_paths after the updates  ", percentiles(timed(paths, queries[:50])))
    print("find_paths warm again         ", percentiles(timed(paths, queries[:50])))
    start = time.perf_counter()
    index.warm()
    print(f"warm() after the updates: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
