"""The labeled composition set names artifacts that exist, with the ids the importers give
them; benchmarks/ecosystem_tools.py names tools as the importers do."""

from __future__ import annotations

import asyncio
from pathlib import Path

import benchmarks.ecosystem_tools as eco
from benchmarks.composition.questions import HOLE, load_questions
from lgent import LGent


def referenced(answer: object) -> list[str]:
    if isinstance(answer, tuple):
        return [i for step in answer for i in step.split("|")]
    return str(answer).split("|")


def test_every_question_names_real_artifacts(
    mcp_tools: Path, swagger_specs: Path, openapi3_examples: Path
) -> None:
    known = {t.id for t in eco.mcp_tools(mcp_tools)}
    known |= {t.id for t in eco.swagger_operations(swagger_specs)}
    known |= {t.id for t in eco.openapi3_operations(openapi3_examples)}
    for q in load_questions():
        ids = [i for a in q.answers for i in referenced(a)]
        ids += [q.artifact] if q.artifact else []
        ids += [p for p in q.pipeline if p != HOLE and "/" in p]
        assert set(ids) <= known, (q.id, set(ids) - known)


def test_tool_ids_are_the_importers(mcp_tools: Path) -> None:
    async def imported() -> set[str]:
        async with LGent.open(None) as lg:
            await lg.load(mcp_tools)
            return {e.id for e in await lg.list_entries({"entity_type": "tool"}, limit=1000)}

    assert {t.id for t in eco.mcp_tools(mcp_tools)} == asyncio.run(imported())
