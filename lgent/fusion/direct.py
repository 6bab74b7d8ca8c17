"""A direct one-brain search (``LGent.search``, ``lgent search --brain``) explained the way
fusion explains a brain's part: the same explained hits (``results.explain_hits``), the brain's
own warnings, and the weak-match wording of ``weak.py``."""

from __future__ import annotations

from collections.abc import Sequence

from lgent.brains.base import BrainQuery, RankedAnswer
from lgent.catalog.records import Snapshot
from lgent.fusion.results import explain_hits
from lgent.fusion.weak import one_brain_warning
from lgent.models import SearchResult


def direct_result(
    asked: BrainQuery, answer: RankedAnswer, held: Snapshot, notes: Sequence[str] = ()
) -> SearchResult:
    """One brain's ``answer`` to ``asked``, its hits explained from the text of the entries the
    catalog holds (``held``: an artifact removed since is left out); ``notes`` are added to the
    warnings (problems found with the indexes, the catalog's lag)."""
    ids = [i for i, _ in answer.ranking]
    texts = {i: held.text(i) for i in ids if i in held}
    weak = (one_brain_warning(answer.weak),) if answer.weak else ()
    return SearchResult(
        query=asked.text,
        hits=tuple(explain_hits(answer, ids, texts)),
        total=answer.total,
        warnings=(*answer.warnings, *weak, *notes),
    )
