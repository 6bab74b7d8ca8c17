"""``PARTS_FIRST`` on a small catalog: a server whose text sums up its tools ranks below
them for a tool question, each of its tools saying whose it is; a question asking for a
server, an entity-type constraint or the rule turned off leave the ranking as it was."""

from __future__ import annotations

from pathlib import Path

from lgent import LGent
from lgent.brains.semantic.embedders import HashingEmbedder
from lgent.models import CatalogEntry
from tests.conftest import make_entry

SERVER = make_entry(
    "files",
    name="files",
    entity_type="other",
    description="Read files, write files, list files in folders and move files.",
)
TOOLS = [
    make_entry(
        f"files/{name}",
        name=name,
        description=text,
        relations=[{"type": "part_of", "target": "files"}],
    )
    for name, text in (
        ("read_file", "Read the contents of a file."),
        ("write_file", "Write text to a file."),
        ("list_folder", "List the files in a folder."),
    )
]
OTHER = make_entry("weather", description="Get the weather forecast for a city.")
CATALOG: list[CatalogEntry] = [SERVER, *TOOLS, OTHER]


async def ranked(home: Path, question: str, **settings: object) -> list[str]:
    async with LGent.open(home, embedder=HashingEmbedder(64), settings={"fusion": settings}) as lg:
        return [r.id for r in (await lg.query(question, limit=10)).results]


async def test_tools_rank_above_their_server_and_name_it(tmp_path: Path) -> None:
    async with LGent.open(tmp_path, embedder=HashingEmbedder(64)) as lg:
        await lg.register_many(CATALOG)
        response = await lg.query("read files and list files in folders", limit=10)
    ids = [r.id for r in response.results]
    assert "files" in ids and ids.index("files") > max(
        ids.index(t.id) for t in TOOLS if t.id in ids
    )
    notes = {r.id: r.notes for r in response.results}
    first_tool = next(i for i in ids if i.startswith("files/"))
    assert any("part of files" in n and "more of its tools match" in n for n in notes[first_tool])
    unruled = await ranked(tmp_path, "read files and list files in folders", parts_first=False)
    assert unruled.index("files") < ids.index("files")  # the rule moved it


async def test_asking_for_a_server_leaves_the_order(tmp_path: Path) -> None:
    async with LGent.open(tmp_path, embedder=HashingEmbedder(64)) as lg:
        await lg.register_many(CATALOG)
    question = "a server to read files and list files in folders"
    assert await ranked(tmp_path, question) == await ranked(tmp_path, question, parts_first=False)
    constrained = "read files and list files in folders, type:other"
    assert await ranked(tmp_path, constrained) == ["files"]
