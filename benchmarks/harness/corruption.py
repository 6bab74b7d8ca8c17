"""Corruption drills: flip random bytes in one index file, then check that ``lgent doctor`` names
the file, that the next open reports it, and that no answer is served from it.

A trial copies a home whose indexes are built, picks one file of a kind (a tantivy segment
file, the faiss vectors, a manifest ...), XORs ``flips`` random bytes with random non-zero
values, then

* runs ``check_home``: detected when the brain's finding fails and names the file;
* opens the home and asks that brain the probe queries (``LGent.search``): detected when a
  response's warnings name the file; a wrong answer is a ranking (ids, scores to 5 places)
  that differs from the one the intact home gave.
"""

from __future__ import annotations

import asyncio
import random
import shutil
from dataclasses import dataclass
from pathlib import Path

from lgent import LGent
from lgent.brains.semantic.embedders import Embedder
from lgent.doctor import check_home

PROBES = ("pdf parser", "clean up messy text", "sentiment of financial reports", "summarize html")

KINDS: dict[str, tuple[str, str]] = {
    "keyword postings (.idx)": ("keyword", "*.idx"),
    "keyword term dictionary (.term)": ("keyword", "*.term"),
    "keyword positions (.pos)": ("keyword", "*.pos"),
    "keyword doc store (.store)": ("keyword", "*.store"),
    "keyword fast fields (.fast)": ("keyword", "*.fast"),
    "keyword field norms (.fieldnorm)": ("keyword", "*.fieldnorm"),
    "keyword tantivy meta.json": ("keyword", "meta.json"),
    "keyword tantivy .managed.json": ("keyword", ".managed.json"),
    "keyword manifest.json": ("keyword", "manifest.json"),
    "semantic vectors (.faiss)": ("semantic", "vectors-*.faiss"),
    "semantic id map (ids-*.json)": ("semantic", "ids-*.json"),
    "semantic entry records (entries-*.json)": ("semantic", "entries-*.json"),
    "semantic manifest.json": ("semantic", "manifest.json"),
}
"""Each kind of file a persisted index is made of: (brain, file pattern in its folder)."""

Ranking = list[tuple[str, float]]


@dataclass(frozen=True)
class CorruptionTrial:
    kind: str
    file: str
    doctor_named_it: bool
    open_reported_it: bool
    wrong_answers: int


async def rankings(
    home: Path, brain: str, embedder: Embedder | None
) -> tuple[dict[str, Ranking], list[str]]:
    """Each probe's ranking from ``brain``, and every warning the searches gave."""
    found: dict[str, Ranking] = {}
    warnings: list[str] = []
    async with LGent.open(home, embedder=embedder) as lg:
        for probe in PROBES:
            result = await lg.search(probe, brain=brain, limit=10, lenient=True)
            found[probe] = [(h.id, round(h.score, 5)) for h in result.hits]
            warnings += result.warnings
    return found, warnings


def flip_bytes(path: Path, flips: int, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    for offset in rng.sample(range(len(data)), min(flips, len(data))):
        data[offset] ^= rng.randrange(1, 256)
    path.write_bytes(bytes(data))


def run_corruption_trial(
    base: Path,
    work: Path,
    kind: str,
    reference: dict[str, Ranking],
    rng: random.Random,
    *,
    flips: int = 20,
    embedder: Embedder | None = None,
) -> CorruptionTrial:
    """One trial on a copy of ``base`` (``reference``: the brain's intact rankings)."""
    brain, pattern = KINDS[kind]
    home = work / "home"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(base, home)
    candidates = sorted((home / "indexes" / brain).glob(pattern))
    target = rng.choice(candidates)
    flip_bytes(target, flips, rng)
    finding = next(f for f in check_home(home) if f.name == f"{brain} index")
    named = finding.level == "fail" and target.name in finding.message
    got, warnings = asyncio.run(rankings(home, brain, embedder))
    reported = any(target.name in w for w in warnings)
    wrong = sum(got[p] != reference[p] for p in PROBES)
    return CorruptionTrial(kind, target.name, named, reported, wrong)
