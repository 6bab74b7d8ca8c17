"""The composition benchmark's questions file and its scoring rules (pure, no catalog)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks.composition.questions import (
    KINDS,
    QuestionError,
    any_answer,
    any_path,
    complete,
    holds_pipeline,
    load_questions,
    parse_question,
)


def test_the_labeled_set_is_large_enough_and_mostly_across_sources() -> None:
    questions = load_questions()
    assert len(questions) >= 40
    assert sum(q.cross_source for q in questions) * 2 >= len(questions)
    assert {q.kind for q in questions} == set(KINDS)
    assert all(q.reason for q in questions)


def test_pipelines_hold_in_order_with_alternatives() -> None:
    assert holds_pipeline(["a", "x", "b"], ["a", "b|c"])
    assert holds_pipeline(["z", "c"], ["c"])
    assert not holds_pipeline(["b", "a"], ["a", "b"])
    assert not holds_pipeline(["a"], ["a", "b"])
    assert any_path([["q"], ["a", "b"]], [["a", "b"]], top=2)
    assert not any_path([["q"], ["a", "b"]], [["a", "b"]], top=1)


def test_answers_within_the_top() -> None:
    assert any_answer(["x", "y", "z"], ["z"], top=3)
    assert not any_answer(["x", "y", "z"], ["z"], top=2)
    assert complete(["a", "b", "c"], [["a|q", "c"]], top=3)
    assert not complete(["a", "b", "c"], [["a", "d"]], top=3)
    assert not complete(["a", "b", "c"], [["a", "c"]], top=2)


def test_a_bad_line_names_its_place_and_field(tmp_path: Path) -> None:
    good: dict[str, Any] = {
        "id": "q",
        "kind": "resolve",
        "input": "A",
        "output": "B",
        "answers": ["x"],
        "cross_source": False,
        "reason": "r",
    }
    assert parse_question(good, "f:1").source == "A"
    changes: list[tuple[dict[str, Any], str]] = [
        ({"kind": "guess"}, "kind"),
        ({"answers": []}, "answers"),
        ({"answers": [["x"]]}, "answers.0"),
        ({"cross_source": "yes"}, "cross_source"),
        ({"reason": ""}, "reason"),
    ]
    for change, field in changes:
        with pytest.raises(QuestionError, match=rf"^f:1: {field}: "):
            parse_question({**good, **change}, "f:1")
    bad = {**good, "kind": "fill", "pipeline": ["A", "B"]}
    with pytest.raises(
        QuestionError, match="pipeline: must be a list with exactly one '\\?\\?\\?'"
    ):
        parse_question(bad, "f:1")
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    with pytest.raises(QuestionError, match=rf"{path}:2: id: 'q' is used twice"):
        load_questions(path)
    path.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(QuestionError, match=rf"{path}:1: invalid JSON"):
        load_questions(path)
