"""Preference scores as pure functions: success, recency, usage and version, each in 0..1.

The version string is read only where the success rate was measured: an artifact whose success
nobody measured (everything imported) is ranked by its *fit* instead, in the version's place:
how sure, and how specific, the types it was matched by are (1 for declared types; the
confidence and specificity of inferred value kinds: ``lgent.graph``). A version number says
when a source was last released, not whether a tool does the job."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Protocol

from lgent.models import ResolutionPreferences, ScoreBreakdown
from lgent.versions import Version


def recency_score(last_used: datetime | None, now: datetime, half_life_days: float) -> float:
    """1 when used just now, halving every ``half_life_days``; 0 when never used."""
    if last_used is None:
        return 0.0
    age_days = max((now - last_used).total_seconds() / 86400.0, 0.0)
    return float(0.5 ** (age_days / half_life_days))


def usage_score(usage_count: int, saturation: int) -> float:
    """Linear up to ``saturation`` uses, then 1 (the spec's ``min(count / 100, 1)``)."""
    return min(usage_count / saturation, 1.0)


@lru_cache(maxsize=4096)
def version_score(version: str) -> float:
    """Maturity: ``1 - 0.5 ** (major + minor / 10)`` (0.x is young, 1.0 gives 0.5, 3.0 gives
    0.875), halved for a pre-release."""
    parsed = Version(version)
    maturity = 1.0 - float(0.5 ** (parsed.major + min(parsed.minor, 9) / 10))
    return maturity * (0.5 if parsed.prerelease else 1.0)


class Rankable(Protocol):
    """What preference ranking reads: a catalog entry, or the graph brain's note of one."""

    @property
    def success_rate(self) -> float | None: ...

    @property
    def usage_count(self) -> int: ...

    @property
    def last_used(self) -> datetime | None: ...

    @property
    def version(self) -> str: ...


def preference_total(
    entry: Rankable, prefs: ResolutionPreferences, now: datetime, fit: float = 1.0
) -> float:
    """``preference_score(...).total`` alone: what ranking many candidates needs."""
    return round(_parts(entry, prefs, now, fit)[5], 6)


def preference_score(
    entry: Rankable, prefs: ResolutionPreferences, now: datetime, fit: float = 1.0
) -> ScoreBreakdown:
    """The weighted score of one candidate, with every component shown (``fit``: how well its
    types fit the requirement, weighed in the version's place when success is unmeasured)."""
    success, recency, usage, version, fit, total = _parts(entry, prefs, now, fit)
    measured = entry.success_rate is not None
    return ScoreBreakdown(
        success=round(success, 6),
        recency=round(recency, 6),
        usage=round(usage, 6),
        version=round(version, 6),
        fit=round(fit, 6),
        total=round(total, 6),
        weights={
            "success": prefs.success_weight,
            "recency": prefs.recency_weight,
            "usage": prefs.usage_weight,
            "version": prefs.version_weight if measured else 0.0,
            "fit": 0.0 if measured else prefs.version_weight,
        },
    )


def _parts(
    entry: Rankable, prefs: ResolutionPreferences, now: datetime, fit: float
) -> tuple[float, float, float, float, float, float]:
    """The five components and their weighted total (the version's weight goes to the fit
    when success is unmeasured)."""
    success = entry.success_rate if entry.success_rate is not None else 0.0
    recency = recency_score(entry.last_used, now, prefs.recency_half_life_days)
    usage = usage_score(entry.usage_count, prefs.usage_saturation)
    version = version_score(entry.version)
    by_version = version if entry.success_rate is not None else fit
    total = (
        prefs.success_weight * success
        + prefs.recency_weight * recency
        + prefs.usage_weight * usage
        + prefs.version_weight * by_version
    )
    return success, recency, usage, version, fit, total
