"""The neighbourhood SVG: well-formed, escaped, every neighbour a link, nothing overlapping."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

from lgent.http.graph import NODE_H, Group, Neighbourhood, render_svg
from lgent.serving import Card

SVG = "{http://www.w3.org/2000/svg}"


def card(artifact_id: str, *, name: str | None = None, status: str = "active") -> Card:
    return Card(
        id=artifact_id,
        name=name or artifact_id,
        kind="tool",
        signature="A -> B",
        owner=None,
        status=status,
        flags=("deprecated",) if status == "deprecated" else (),
        description="",
    )


def hood() -> Neighbourhood:
    return Neighbourhood(
        card("Center", name="Tom & <Jerry>"),
        [
            Group("succeeds", "top", [card("Old", status="deprecated")]),
            Group("implements", "top", [card("Spec")]),
            Group("feeds it (A)", "left", [card(f"In{n}") for n in range(6)], more=2),
            Group("takes its output (B)", "right", [card("Out/1")]),
            Group("depends on", "bottom", [card(f"Dep{n}") for n in range(4)]),
            Group("used by", "bottom", [card(f"User{n}", name="U" * 40) for n in range(4)], 7),
        ],
    )


def test_the_svg_is_well_formed_escaped_and_links_every_neighbour() -> None:
    svg = render_svg(hood())
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    links = root.findall(f".//{SVG}a")
    ids = [a.get("data-id") for a in links]
    assert ids.count("Center") == 0 and len(ids) == 1 + 1 + 6 + 1 + 4 + 4
    assert {a.get("href") for a in links} >= {"/artifact/Out%2F1", "/artifact/In0"}
    (focus,) = [g for g in root.iter(f"{SVG}g") if g.get("class") == "node focus"]
    assert "Tom & <Jerry>" in "".join(focus.itertext())
    captions = [
        "".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "caption"
    ]
    assert "used by (+7 more)" in captions and captions.count("used by (+7 more)") == 1
    assert "feeds it (A) (+2 more)" in captions
    deprecated = next(a for a in links if a.get("data-id") == "Old")
    assert deprecated.find(f"{SVG}rect").get("stroke-dasharray")  # type: ignore[union-attr]


async def test_a_server_or_an_api_is_drawn_with_its_parts() -> None:
    from lgent import LGent
    from lgent.http.graph import neighbourhood
    from tests.conftest import make_entry

    parts = [
        make_entry(f"srv/tool{n}", relations=[{"type": "part_of", "target": "srv"}])
        for n in range(3)
    ]
    async with LGent.open(None) as lg:
        await lg.register_many([make_entry("srv"), *parts])
        whole = await neighbourhood(lg, "srv")
        part = await neighbourhood(lg, "srv/tool0")
    assert [(g.label, g.side, [c.id for c in g.nodes]) for g in whole.groups] == [
        ("its parts", "bottom", ["srv/tool0", "srv/tool1", "srv/tool2"])
    ]
    assert [(g.label, [c.id for c in g.nodes]) for g in part.groups] == [("part of", ["srv"])]


def test_no_two_nodes_overlap_and_all_fit_in_the_picture() -> None:
    crowded = hood()
    crowded.groups.append(Group("its parts", "bottom", [card(f"Part{n}") for n in range(6)], 9))
    crowded.groups.append(Group("part of", "top", [card("Whole")]))
    for each in (hood(), crowded):
        _no_overlap(each)


def _no_overlap(drawn: Neighbourhood) -> None:
    root = ET.fromstring(render_svg(drawn))
    width, height = float(root.get("width", 0)), float(root.get("height", 0))
    boxes = [
        (float(r.get("x", 0)), float(r.get("y", 0)), float(r.get("width", 0)))
        for r in root.iter(f"{SVG}rect")
    ]
    for x, y, w in boxes:
        assert x >= 0 and x + w <= width and y >= 0 and y + NODE_H <= height
    for (x1, y1, w1), (x2, y2, w2) in itertools.combinations(boxes, 2):
        apart = x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + NODE_H <= y2 or y2 + NODE_H <= y1
        assert apart, ((x1, y1, w1), (x2, y2, w2))
