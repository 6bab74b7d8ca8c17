"""``RUNNABLE``: a tool whose every need the request's written values supply is lifted to
``fusion.runnable``; needs most candidates share count for nothing; off, nothing moves."""

from __future__ import annotations

import json
from pathlib import Path

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.fusion.runnable import runnable_ids


def test_only_tools_the_given_values_can_run() -> None:
    def is_subkind(a: str, b: str) -> bool:
        return a == b or (a, b) == ("Date", "Text")

    ranked = [(f"z/{n}", frozenset()) for n in range(10)] + [
        ("a/free", frozenset()),
        ("a/dates", frozenset({"Date"})),
        ("a/more", frozenset({"Date", "EmailAddress"})),
        ("a/email", frozenset({"EmailAddress"})),
    ]
    assert runnable_ids(ranked, frozenset({"Date"}), is_subkind) == ["a/dates"]
    both = frozenset({"Date", "EmailAddress"})
    assert runnable_ids(ranked, both, is_subkind) == ["a/dates", "a/more", "a/email"]
    common = [(f"b/{n}", frozenset({"Date"})) for n in range(5)]
    assert runnable_ids(common, frozenset({"Date"}), is_subkind) == []  # every one needs it


SERVER = {
    "serverInfo": {"name": "calendar", "version": "1.0"},
    "tools": [
        *(
            {
                "name": f"planner_{n}",
                "description": f"Plan a trip and a meeting agenda, variant {n}.",
                "inputSchema": {"type": "object", "properties": {"topic": {"type": "string"}}},
            }
            for n in range(8)
        ),
        {
            "name": "day_events",
            "description": "Events of one day on the agenda.",
            "inputSchema": {
                "type": "object",
                "properties": {"date": {"type": "string", "format": "date"}},
                "required": ["date"],
            },
        },
    ],
}


async def test_a_dated_request_lifts_the_tool_taking_a_date(tmp_path: Path) -> None:
    source = tmp_path / "calendar.json"
    source.write_text(json.dumps(SERVER), encoding="utf-8")
    question = "plan a trip and a meeting agenda on 2024-03-01"
    orders = {}
    for position in (0, 2):
        settings = {"fusion": {"runnable": position, "companions": False}}
        async with LGent.open(None, embedder=HashingEmbedder(64), settings=settings) as lg:
            await lg.load(source)
            orders[position] = [r.id for r in (await lg.query(question, limit=20)).results]
    assert orders[0].index("calendar/day_events") > 1
    assert orders[2].index("calendar/day_events") == 1
    rest = [i for i in orders[2] if i != "calendar/day_events"]
    assert rest == [i for i in orders[0] if i != "calendar/day_events"]
