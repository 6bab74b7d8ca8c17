"""Constraint phrases become hard filters; bad ones raise ConstraintError naming the phrase."""

from __future__ import annotations

import pytest

from lgent.errors import ConstraintError
from lgent.fusion.constraints import parse_constraint, parse_constraints
from tests.conftest import make_entry

FAST_LOCAL = make_entry(
    "A",
    latency_ms=800,
    execution="local",
    success_rate=0.95,
    usage_count=500,
    entity_type="agent",
    contracts=["deterministic"],
    author="ToolForge",
)
SLOW_CLOUD = make_entry(
    "B", latency_ms=4000, execution="cloud", success_rate=0.4, status="deprecated"
)
UNKNOWN = make_entry("C")


@pytest.mark.parametrize(
    ("text", "admitted"),
    [
        ("latency < 2s", {"A"}),
        ("latency <= 800ms", {"A"}),
        ("Latency < 0.5 s", set()),
        ("max latency 5s", {"A", "B"}),
        ("under 1 second", {"A"}),
        ("local execution", {"A"}),
        ("local", {"A"}),
        ("execution:cloud", {"B"}),
        ("no cloud", {"A"}),
        ("runs locally", {"A"}),
        ("status:active", {"A", "C"}),
        ("status = deprecated", {"B"}),
        ("active only", {"A", "C"}),
        ("type:agent", {"A"}),
        ("agents only", {"A"}),
        ("entity_type:tool", {"B", "C"}),
        ("min success 0.9", {"A"}),
        ("success >= 0.3", {"A", "B"}),
        ("success_rate > 0.5", {"A"}),
        ("min success 90%", {"A"}),
        ("min usage 100", {"A"}),
        ("author:toolforge", {"A"}),
        ("contract:deterministic", {"A"}),
        ("deterministic", {"A"}),
    ],
)
def test_constraint_filters(text: str, admitted: set[str]) -> None:
    constraint = parse_constraint(text)
    assert {e.id for e in (FAST_LOCAL, SLOW_CLOUD, UNKNOWN) if constraint.admits(e)} == admitted
    assert constraint.description


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty constraint"),
        ("latency fast", "latency needs a comparison and a duration"),
        ("latency < 2 fortnights", "unknown time unit 'fortnights'"),
        ("status:gone", "unknown status 'gone'"),
        ("type:robot", "unknown entity type 'robot'"),
        ("min success 3", "outside 0..1"),
        ("success is nice", "success needs a number"),
        ("execution:edge", "execution must be local, cloud or hybrid"),
        ("make it snappy", "not understood; expected one of"),
    ],
)
def test_bad_constraints_name_the_phrase(text: str, message: str) -> None:
    with pytest.raises(ConstraintError) as info:
        parse_constraint(text)
    assert message in str(info.value)
    assert str(info.value).startswith(f"bad constraint {text!r}")


def test_parse_many_and_none() -> None:
    assert parse_constraints(None) == []
    assert [c.attribute for c in parse_constraints(["latency < 2s", "local execution"])] == [
        "latency_ms",
        "execution",
    ]
    with pytest.raises(ConstraintError):
        parse_constraints(["local", 42])  # type: ignore[list-item]
