"""The public keyword search on the example catalog, pinned: for a fixed set of queries, the ids,
scores, matched fields and highlights of the top ten must stay exactly what they were when the
golden file was written. A change to analysis, documents, scoring or highlighting that moves an
answer fails here, naming the query; if the change is meant, rewrite the file with
``python -m tests.brains.keyword.test_search_golden`` and review its diff."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lgent import LGent
from tests.conftest import FIXTURES

GOLDEN = Path(__file__).parent / "golden" / "search.json"
QUERIES = [
    # grammar: fields, wildcards, fuzzy, phrases, boolean operators, negation
    "name:pdf*",
    "pars~1",
    "author:ToolForge",
    '"news parser"',
    "keywords:pdf AND status:active",
    "PDF*",
    "summar*",
    "NewsParser~2",
    "input:PDF",
    "output:SentimentScore",
    "(pdf OR html) parser",
    "sentiment -twitter",
    'description:"financial"',
    "tag:nlp",
    "execution:local pdf",
    "type:agent",
    "version:2.*",
    "id:PDFParser_v2",
    "keywords:sentiment*",
    "clean~1 text",
    # names, identifiers and plain words
    "PDFParser_v2",
    "html_to_markdown",
    "PDFs",
    "OCR",
    "web scraper",
    "summarizer v4",
    "Invoice OCR Extractor",
    "financial sentiment",
    "pdf text extraction",
    "translate documents",
    "something that cleans up messy text",
    "a the of",
    "stock ticker prices",
]


async def _answers(home: Path) -> dict[str, Any]:
    async with LGent.open(home) as lg:
        out: dict[str, Any] = {}
        for query in QUERIES:
            found = await lg.search(query, brain="keyword", limit=10, lenient=True)
            out[query] = {
                "total": found.total,
                "hits": [
                    [h.id, round(h.score, 4), list(h.matched_fields), h.highlights]
                    for h in found.hits
                ],
            }
        return out


def _loaded_home(folder: Path) -> Path:
    home = folder / "home"

    async def load() -> None:
        async with LGent.open(home) as lg:
            await lg.load(FIXTURES)

    asyncio.run(load())
    return home


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    yield asyncio.run(_answers(_loaded_home(tmp_path_factory.mktemp("golden"))))


@pytest.mark.parametrize("query", QUERIES)
def test_keyword_search_answers_as_recorded(answers: dict[str, Any], query: str) -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert answers[query] == golden[query]


def test_the_golden_file_holds_every_query() -> None:
    assert sorted(json.loads(GOLDEN.read_text(encoding="utf-8"))) == sorted(QUERIES)


if __name__ == "__main__":  # rewrite the golden file from the code as it is
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        written = asyncio.run(_answers(_loaded_home(Path(tmp))))
    lines = []
    for query, found in written.items():
        hits = ",\n    ".join(json.dumps(hit, ensure_ascii=False) for hit in found["hits"])
        lines.append(
            f'  {json.dumps(query)}: {{"total": {found["total"]}, "hits": [\n    {hits}\n  ]}}'
        )
    GOLDEN.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {GOLDEN} ({len(written)} queries)")
