"""Score the labeled composition set on the shared ecosystem, per kind of question.

    python -m benchmarks.composition                       # print the table
    python -m benchmarks.composition --verbose             # and every question's verdict
    python -m benchmarks.composition --write               # also update docs/quality.md
    python -m benchmarks.composition --home /tmp/ecohome   # keep the home (and its embeddings)

Loads the 70 MCP servers, the OpenAPI 3 examples and the 567 Swagger specs of
``../shared/ecosystem`` (or ``$LGENT_ECOSYSTEM_DATA``) into a home (a temporary one unless
``--home``), asks every question of ``benchmarks/composition/questions.jsonl`` through the
public API (``compatible``, ``find_paths``, ``fill_holes``, ``resolve``, ``query``) and scores
it by its kind's rule (``benchmarks/composition/questions.py``). A question whose call raises
an L-gent error (an unknown type, no candidate) is wrong, and says why.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.composition.questions import (
    KINDS,
    QUESTIONS,
    Question,
    any_answer,
    any_path,
    complete,
    load_questions,
)
from benchmarks.ecosystem_tools import MCP_TOOLS, OPENAPI3, unpacked_specs
from benchmarks.harness.runner import machine_info, write_results
from lgent import LGent, LGentError, TypeRequirement

REPORT = Path(__file__).resolve().parents[2] / "docs" / "quality.md"
SECTION = "Composition on the real catalogs (labeled set)"
MAX_PATH_LENGTH = 4


@dataclass(frozen=True)
class Verdict:
    question: Question
    correct: bool
    found: tuple[str, ...]
    note: str = ""


async def ask(lg: LGent, q: Question) -> Verdict:
    """Ask one question through the public API and judge the answer."""
    try:
        if q.kind == "consumers":
            found = [s.id for s in await lg.compatible(q.artifact, limit=q.top)]
            return Verdict(q, any_answer(found, q.answers, q.top), tuple(found))
        if q.kind == "path":
            paths = await lg.find_paths(q.source, q.target, max_length=MAX_PATH_LENGTH, k=q.top)
            ids = [list(p.ids) for p in paths]
            shown = tuple(" > ".join(p) for p in ids)
            return Verdict(q, any_path(ids, q.answers, q.top), shown)
        if q.kind == "fill":
            filled = await lg.fill_holes(list(q.pipeline))
            found = [i for step in filled.steps if step.given is None for i in step.filled_with]
            return Verdict(q, any_answer(found, q.answers, len(found)), tuple(found))
        if q.kind == "resolve":
            resolution = await lg.resolve(
                TypeRequirement(input_type=q.source, output_type=q.target)
            )
            found = [resolution.best.id, *(r.entry.id for r in resolution.runners_up)]
            return Verdict(q, any_answer(found, q.answers, q.top), tuple(found[: q.top]))
        response = await lg.query(q.query, limit=q.top)
        found = [r.id for r in response.results]
        return Verdict(q, complete(found, q.answers, q.top), tuple(found))
    except LGentError as err:
        return Verdict(q, False, (), f"{type(err).__name__}: {err}"[:200])


def table(verdicts: Sequence[Verdict]) -> str:
    """The per-kind table: questions and correct answers, all and across sources."""

    def cell(items: Sequence[Verdict]) -> str:
        if not items:
            return "-"
        right = sum(v.correct for v in items)
        return f"{right}/{len(items)} ({right / len(items):.0%})"

    rows = ["| kind | correct | across sources |", "|---|---:|---:|"]
    for kind in KINDS:
        mine = [v for v in verdicts if v.question.kind == kind]
        cross = [v for v in mine if v.question.cross_source]
        rows.append(f"| {kind} | {cell(mine)} | {cell(cross)} |")
    cross = [v for v in verdicts if v.question.cross_source]
    rows.append(f"| **all** | **{cell(verdicts)}** | **{cell(cross)}** |")
    return "\n".join(rows)


def details(verdicts: Sequence[Verdict]) -> str:
    lines = []
    for v in verdicts:
        mark = "right" if v.correct else "wrong"
        said = v.note or (", ".join(v.found[:5]) if v.found else "nothing")
        lines.append(f"- {v.question.id} ({v.question.kind}) {mark}: {said}")
    return "\n".join(lines)


async def run(home: Path, questions: Sequence[Question]) -> tuple[list[Verdict], float]:
    started = time.perf_counter()
    async with LGent.open(home) as lg:
        await lg.load(MCP_TOOLS)
        await lg.load(OPENAPI3)
        with unpacked_specs() as specs:
            await lg.load(specs)
        loaded = time.perf_counter() - started
        verdicts = [await ask(lg, q) for q in questions]
    return verdicts, loaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--home", type=Path, help="use (and keep) this home")
    parser.add_argument("--verbose", action="store_true", help="print every verdict")
    parser.add_argument("--write", action="store_true", help="update docs/quality.md")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    questions = load_questions(args.questions)
    info = machine_info()
    if args.home is not None:
        verdicts, loaded = asyncio.run(run(args.home, questions))
    else:
        with tempfile.TemporaryDirectory(prefix="lgent-composition-") as work:
            verdicts, loaded = asyncio.run(run(Path(work) / "home", questions))
    crossing = sum(q.cross_source for q in questions)
    markdown = (
        f"`python -m benchmarks.composition`: the {len(questions)} labeled questions of "
        f"`benchmarks/composition/questions.jsonl` ({crossing} across sources) asked through "
        "the public API of a home holding the shared ecosystem (70 MCP servers, 567 Swagger "
        f"specs, the OpenAPI 3 examples; loaded in {loaded:.0f} s).\n\n{table(verdicts)}\n"
    )
    if args.verbose:
        markdown += f"\n{details(verdicts)}\n"
    if args.write:
        write_results(SECTION, markdown, path=REPORT, info=info, header=None)
    else:
        print(markdown)


if __name__ == "__main__":
    main()
