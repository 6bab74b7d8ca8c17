"""Fake brains for fusion tests: fixed rankings, no index, no model.

A ``FakeBrain`` answers every query with the ranking its ``answers`` function gives for the
query text, explains each hit with a small subtree, and records what it was asked, the way
httpx tests plug in a ``MockTransport``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from lgent.brains.base import (
    SIMILAR_RELATION,
    BrainQuery,
    BrainStatus,
    ChangeSet,
    GrammarFilter,
    HitList,
    QuestionReader,
    Reading,
)
from lgent.brains.registry import BrainContext, BrainSpec, SkipRule, Voting
from lgent.catalog.records import Snapshot
from lgent.errors import LGentError
from lgent.models import BrainHit, CatalogEntry, QueryType, TypeDecl
from tests.conftest import make_entry

Ranking = list[tuple[str, float]]
T = TypeVar("T")


SENTENCE = "something that cleans messy text scraped from web pages"
SENTENCE_ENTRIES = [
    make_entry("TextCleaner", description="Cleans messy text from scraped web pages."),
    make_entry("PageCounter", description="Counts the pages of a PDF."),
    make_entry("Unrelated", description="Resizes images."),
]
"""A plain-language query and three artifacts: one holds most of its words, one a single
word of it ("page"), one none."""


async def run(fn: Callable[[], T]) -> T:
    """Fusion's runner in tests: the sync call on the event loop itself."""
    return fn()


@dataclass
class FakeBrain:
    """A brain whose answer to a text is ``answers(text)``; ``fail`` makes it raise instead."""

    name: str
    answers: Callable[[str], Ranking]
    fail: str = ""
    asked: list[BrainQuery] = field(default_factory=list)
    change_number: int = 0

    def build(
        self, entries: Iterable[CatalogEntry], types: Sequence[TypeDecl], change_number: int
    ) -> None:
        self.change_number = change_number

    def apply_changes(self, changes: ChangeSet) -> None:
        self.change_number = changes.change_number

    def answer(self, query: BrainQuery) -> HitList:
        self.asked.append(query)
        if self.fail:
            raise LGentError(self.fail)
        ranking = self.answers(query.text)[: query.limit]
        return HitList(
            [
                BrainHit(
                    id=i,
                    score=score,
                    brain=self.name,
                    rank=rank,
                    explanation={
                        "brain": self.name,
                        "rank": rank,
                        "reason": f"{self.name} says so",
                    },
                )
                for rank, (i, score) in enumerate(ranking, start=1)
            ]
        )

    def status(self) -> BrainStatus:
        return BrainStatus(self.name, True, 0, self.change_number)

    def close(self) -> None:
        pass


@dataclass
class FakeReader(FakeBrain):
    """A fake that also reads questions: ``A -> B`` is a type question, ``after X`` a
    relationship question about X; ``known`` names the artifacts it can name."""

    known: tuple[str, ...] = ()

    def read_question(self, text: str) -> Reading | None:
        if "->" in text:
            source, target = (part.strip() for part in text.split("->", 1))
            return Reading("type", f"{source} -> {target}", source, target)
        if text.startswith("after "):
            return Reading("relationship", text, artifact=text.removeprefix("after "))
        if text.startswith("like "):
            about = text.removeprefix("like ")
            return Reading("relationship", text, artifact=about, relation=SIMILAR_RELATION)
        return None

    def artifact_id(self, text: str, *, fuzzy: bool = True) -> str | None:
        return text if text in self.known else None

    def unread(self, text: str) -> str | None:
        return None


@dataclass
class FakeGrammar(FakeBrain):
    """A fake that also applies the keyword grammar: every query matches ``matches``."""

    matches: set[str] = field(default_factory=set)

    def matching(self, text: str, artifact_ids: Sequence[str]) -> set[str]:
        return {i for i in artifact_ids if i in self.matches}


def spec(
    brain: FakeBrain,
    weights: Mapping[QueryType, float],
    *,
    skip: SkipRule = SkipRule.NEVER,
    leads: Iterable[QueryType] = (),
    honours_grammar: bool = False,
    matches_words: bool = False,
    relations: Iterable[str] | None = None,
) -> BrainSpec:
    """A registry entry whose factory hands out ``brain``."""

    def make(context: BrainContext) -> FakeBrain:
        return brain

    return BrainSpec(
        name=brain.name,
        summary=f"fake {brain.name}",
        factory=make,
        weights=dict(weights),
        voting=Voting(
            skip=skip,
            leads=frozenset(leads),
            matches_words=matches_words,
            relations=None if relations is None else frozenset(relations),
        ),
        capabilities=frozenset(
            {
                *((GrammarFilter,) if honours_grammar else ()),
                *((QuestionReader,) if isinstance(brain, QuestionReader) else ()),
            }
        ),
    )


def snapshot_of(entries: Iterable[CatalogEntry], change_number: int = 7) -> Callable[..., Snapshot]:
    """A catalog stand-in for fusion: ``snapshot(ids)`` over the given entries."""
    rows = {e.id: (e.status.value, json.dumps(e.to_record())) for e in entries}
    return lambda ids: Snapshot(change_number, {i: rows[i] for i in ids if i in rows})
