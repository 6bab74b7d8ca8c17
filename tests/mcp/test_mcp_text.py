"""The MCP answers' text, made from the library's answers (no server, no model)."""

from __future__ import annotations

from lgent import LGent, TypeRequirement
from lgent.mcp.text import resolve_text
from lgent.models import TypeDecl
from tests.conftest import make_entry


async def test_resolve_says_which_parts_of_the_score_were_not_measured() -> None:
    async with LGent.open(None) as lg:
        await lg.register_many(
            [make_entry("imported", input_type="X", output_type="Y")],
            types=[TypeDecl(type="X"), TypeDecl(type="Y")],
        )
        said = resolve_text(await lg.resolve(TypeRequirement(input_type="X", output_type="Y")))
    assert said.startswith("Best for X -> Y: imported (")
    assert "success 0.00 (not measured)x0.4" in said
    assert "recency 0.00 (never used)x0.2" in said
    assert "usage 0.00x0.2" in said  # a count of 0 is measured
