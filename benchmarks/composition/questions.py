"""The labeled composition questions (``questions.jsonl``): reading them, and the pure rules that
say whether an answer is right.

One question per line. Every question has an ``id``, a ``kind``, judged ``answers`` (artifact
ids as L-gent's importers name them), ``cross_source`` (true when answering needs artifacts of
a different server or API than the one the question starts from, or the judged answers span
several) and a ``reason`` quoted from the schema text. By kind:

=========  ======================================  =============================================
kind       asks                                     correct when
=========  ======================================  =============================================
consumers  ``artifact``: what can take its output   an answer is among the first ``top`` (10)
                                                    of ``LGent.compatible``
path       ``source`` -> ``target`` (types)         one of the first ``top`` (5) paths of
                                                    ``find_paths`` holds a judged pipeline
fill       ``pipeline`` with one ``???``            what ``fill_holes`` puts in the hole holds
                                                    an answer
resolve    ``input`` -> ``output`` (types)          an answer is the best or a runner-up among
                                                    the first ``top`` (3) of ``resolve``
toolset    ``query`` (a request needing several     every step of the judged toolset has an
           tools)                                   acceptable tool in the first ``top`` (10)
                                                    results of ``query`` (Complete@10)
=========  ======================================  =============================================

For ``path`` and ``toolset`` an answer is a list of steps, each step the acceptable ids joined
by ``|``; a pipeline is held when the path's ids contain one acceptable id of each step, in
order.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

QUESTIONS = Path(__file__).resolve().parent / "questions.jsonl"
KINDS = ("consumers", "path", "fill", "resolve", "toolset")
TOP = {"consumers": 10, "path": 5, "fill": 1, "resolve": 3, "toolset": 10}
HOLE = "???"


class QuestionError(ValueError):
    """A question line that cannot be read: names the file, line and field."""


@dataclass(frozen=True)
class Question:
    """One labeled question (see the module docstring for each kind's fields)."""

    id: str
    kind: str
    answers: tuple[Any, ...]
    cross_source: bool
    reason: str
    artifact: str = ""
    source: str = ""
    target: str = ""
    pipeline: tuple[str, ...] = ()
    query: str = ""

    @property
    def top(self) -> int:
        return TOP[self.kind]


_REQUIRED = {
    "consumers": ("artifact",),
    "path": ("source", "target"),
    "fill": ("pipeline",),
    "resolve": ("input", "output"),
    "toolset": ("query",),
}


def _problem(where: str, field: str, message: str) -> QuestionError:
    return QuestionError(f"{where}: {field}: {message}")


def parse_question(data: Any, where: str) -> Question:
    """One question from its parsed JSON line; QuestionError naming ``where`` and the field."""
    if not isinstance(data, dict):
        raise _problem(where, "(line)", "expected a JSON object")
    for field in ("id", "kind", "reason"):
        if not isinstance(data.get(field), str) or not data[field].strip():
            raise _problem(where, field, "is required (a non-empty string)")
    kind = data["kind"]
    if kind not in KINDS:
        raise _problem(where, "kind", f"{kind!r} is not one of {', '.join(KINDS)}")
    for field in _REQUIRED[kind]:
        if field not in data:
            raise _problem(where, field, f"is required for a {kind} question")
    answers = data.get("answers")
    if not isinstance(answers, list) or not answers:
        raise _problem(where, "answers", "must be a non-empty list")
    stepped = kind in ("path", "toolset")
    for index, answer in enumerate(answers):
        ok = (
            isinstance(answer, list) and answer and all(isinstance(s, str) and s for s in answer)
            if stepped
            else isinstance(answer, str) and answer
        )
        if not ok:
            shape = "a list of steps (strings)" if stepped else "an artifact id"
            raise _problem(where, f"answers.{index}", f"must be {shape}")
    if not isinstance(data.get("cross_source"), bool):
        raise _problem(where, "cross_source", "must be true or false")
    pipeline = data.get("pipeline", [])
    if kind == "fill" and (
        not isinstance(pipeline, list) or pipeline.count(HOLE) != 1 or len(pipeline) < 2
    ):
        raise _problem(where, "pipeline", f"must be a list with exactly one {HOLE!r}")
    return Question(
        id=data["id"],
        kind=kind,
        answers=tuple(tuple(a) if isinstance(a, list) else a for a in answers),
        cross_source=data["cross_source"],
        reason=data["reason"],
        artifact=str(data.get("artifact", "")),
        source=str(data.get("source", data.get("input", ""))),
        target=str(data.get("target", data.get("output", ""))),
        pipeline=tuple(str(p) for p in pipeline),
        query=str(data.get("query", "")),
    )


def load_questions(path: Path = QUESTIONS) -> list[Question]:
    """Every question of the JSONL file at ``path``; ids must be unique."""
    found: list[Question] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as err:
            raise QuestionError(f"{where}: invalid JSON: {err.msg}") from None
        question = parse_question(data, where)
        if question.id in seen:
            raise _problem(where, "id", f"{question.id!r} is used twice")
        seen.add(question.id)
        found.append(question)
    return found


def holds_pipeline(ids: Sequence[str], steps: Sequence[str]) -> bool:
    """True when ``ids`` contain, in order, one acceptable id of each step (``a|b``)."""
    position = 0
    for step in steps:
        accepted = set(step.split("|"))
        while position < len(ids) and ids[position] not in accepted:
            position += 1
        if position == len(ids):
            return False
        position += 1
    return True


def any_answer(found: Sequence[str], answers: Sequence[Any], top: int) -> bool:
    """True when one of ``answers`` is among the first ``top`` of ``found``."""
    shown = set(found[:top])
    return any(a in shown for a in answers)


def complete(found: Sequence[str], answers: Sequence[Any], top: int) -> bool:
    """True when the first ``top`` of ``found`` hold an acceptable id for every step of one of
    the judged toolsets (order free)."""
    shown = set(found[:top])
    return any(
        all(any(option in shown for option in step.split("|")) for step in toolset)
        for toolset in answers
    )


def any_path(paths: Sequence[Sequence[str]], answers: Sequence[Any], top: int) -> bool:
    """True when one of the first ``top`` paths holds one of the judged pipelines."""
    return any(holds_pipeline(ids, steps) for ids in paths[:top] for steps in answers)


__all__ = [
    "HOLE",
    "KINDS",
    "QUESTIONS",
    "TOP",
    "Question",
    "QuestionError",
    "any_answer",
    "any_path",
    "complete",
    "holds_pipeline",
    "load_questions",
    "parse_question",
]
