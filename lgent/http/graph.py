"""An artifact's neighbourhood drawn as SVG, on the server: no script, no library, no CDN.

The artifact sits in the middle. To its left are the artifacts that can feed it (their output fits
its input), to its right those that can take its output; above it its lineage (the generations it
succeeds and that succeed it, the interface it implements, what forged it), below it its
dependencies and the artifacts that depend on it. Every node links to its own page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Literal

from lgent.http.links import artifact_href
from lgent.serving import Card, cards_of

if TYPE_CHECKING:
    from lgent.lgent import LGent

Side = Literal["left", "right", "top", "bottom"]

PER_GROUP = 4
"""Most nodes one relation shows (the rest are counted: '+3 more')."""
PER_SIDE = 6
"""Most nodes the left and right columns show."""

NODE_H = 46
GAP_X = 14
GAP_Y = 14
GROUP_GAP = 30
CAPTION_H = 16
COLUMN_GAP = 150
ROW_GAP = 70
MARGIN = 16
MAX_LABEL = 26
MAX_ROW = 900.0
"""Rows above and below the artifact wrap at this width."""

# The relations drawn above and below the artifact: (lineage group, edge label, side).
LINEAGE: tuple[tuple[str, str, Side], ...] = (
    ("ancestors", "succeeds", "top"),
    ("descendants", "succeeded by", "top"),
    ("implements", "implements", "top"),
    ("forged_by", "forged by", "top"),
    ("dependencies", "depends on", "bottom"),
    ("dependents", "used by", "bottom"),
    ("part_of", "part of", "top"),
    ("parts", "its parts", "bottom"),
)


@dataclass
class Group:
    """Nodes in one relation to the artifact, on one side of it."""

    label: str
    side: Side
    nodes: list[Card]
    more: int = 0


@dataclass
class Neighbourhood:
    center: Card
    groups: list[Group] = field(default_factory=list)


async def neighbourhood(lg: LGent, artifact_id: str) -> Neighbourhood:
    """What surrounds one artifact: composition on the sides, lineage above and below."""
    (center,) = await cards_of(lg, [artifact_id])
    lineage = await lg.lineage(artifact_id, depth=1)
    upstream = await lg.compatible(artifact_id, direction="upstream", limit=PER_SIDE + 1)
    downstream = await lg.compatible(artifact_id, direction="downstream", limit=PER_SIDE + 1)
    groups: list[Group] = []
    wanted: list[tuple[str, Side, list[str], int]] = []
    for name, label, side in LINEAGE:
        ids = list(dict.fromkeys(h.id for h in lineage.get(name, ()) if h.id != artifact_id))
        if ids:
            wanted.append((label, side, ids[:PER_GROUP], max(0, len(ids) - PER_GROUP)))
    given, gives = center.signature.split(" -> ", 1)
    columns: tuple[tuple[str, Side, list[str]], ...] = (
        (f"feeds it ({given})", "left", [s.id for s in upstream]),
        (f"takes its output ({gives})", "right", [s.id for s in downstream]),
    )
    for label, side, ids in columns:
        if ids:
            wanted.append((label, side, ids[:PER_SIDE], max(0, len(ids) - PER_SIDE)))
    for label, side, ids, more in wanted:
        groups.append(Group(label, side, await cards_of(lg, ids), more))
    return Neighbourhood(center, groups)


@dataclass
class _Box:
    card: Card
    x: float
    y: float
    w: float


@dataclass
class _Caption:
    text: str
    x: float
    y: float


def _label(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def _width(card: Card) -> float:
    longest = max(len(_label(card.name)), len(_label(card.signature)) * 0.85)
    return max(110.0, min(230.0, longest * 7.4 + 22))


def _caption(group: Group) -> str:
    return group.label + (f" (+{group.more} more)" if group.more else "")


def _caption_width(text: str) -> float:
    return len(text) * 6.2 + 8


def _lines(groups: Sequence[Group], max_width: float) -> list[list[tuple[Group, Card, float]]]:
    """The groups' nodes in lines no wider than ``max_width``: ``(group, card, x)`` with x from
    the line's start; a group starts far enough from the one before for its caption to fit."""
    lines: list[list[tuple[Group, Card, float]]] = [[]]
    x = 0.0
    for group in groups:
        caption_end = x + _caption_width(_caption(group))
        for n, card in enumerate(group.nodes):
            w = _width(card)
            if lines[-1] and x + w > max_width:
                lines.append([])
                x, caption_end = 0.0, _caption_width(_caption(group)) if n == 0 else 0.0
            lines[-1].append((group, card, x))
            x += w + GAP_X
        x = max(x, caption_end) + GROUP_GAP
    return [line for line in lines if line]


def _line_width(line: list[tuple[Group, Card, float]]) -> float:
    _, card, x = line[-1]
    return x + _width(card)


def render_svg(hood: Neighbourhood) -> str:
    """The neighbourhood as one standalone SVG document (nodes are links to /artifact/ID)."""
    laid = _layout(hood)
    width, height, middle = laid.width, laid.height, laid.middle
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" role="img" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">',
        f"<title>{escape(hood.center.id)}: its lineage and what it composes with</title>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#6e7781"/></marker></defs>',
    ]
    parts += [_edge(group, box, middle) for group, box in laid.boxes]
    parts += [
        f'<text x="{c.x:.0f}" y="{c.y:.0f}" font-size="10.5" fill="#57606a" class="caption">'
        f"{escape(c.text)}</text>"
        for c in laid.captions
    ]
    parts += [_node(box, group.label) for group, box in laid.boxes]
    parts.append(_node(middle, "", focus=True))
    parts.append("</svg>")
    return "\n".join(parts)


@dataclass(frozen=True, slots=True)
class _Layout:
    width: float
    height: float
    boxes: list[tuple[Group, _Box]]
    captions: list[_Caption]
    middle: _Box


def _layout(hood: Neighbourhood) -> _Layout:
    """Where each box and caption goes: the groups above and below in rows, those beside in
    columns left and right of the centre."""
    center = hood.center
    sides: dict[Side, list[Group]] = {"left": [], "right": [], "top": [], "bottom": []}
    for group in hood.groups:
        sides[group.side].append(group)
    left = [(g, c) for g in sides["left"] for c in g.nodes]
    right = [(g, c) for g in sides["right"] for c in g.nodes]
    top, bottom = _lines(sides["top"], MAX_ROW), _lines(sides["bottom"], MAX_ROW)

    left_w = max((_width(c) for _, c in left), default=0.0)
    right_w = max((_width(c) for _, c in right), default=0.0)
    center_w = _width(center) + 20
    middle_w = (
        (left_w + COLUMN_GAP if left else 0) + center_w + (COLUMN_GAP + right_w if right else 0)
    )
    rows_w = max((_line_width(line) for line in top + bottom), default=0.0)
    width = max(middle_w, rows_w, 360) + 2 * MARGIN
    line_h = CAPTION_H + NODE_H + GAP_Y
    column_h = max(len(left), len(right), 1) * (NODE_H + GAP_Y) - GAP_Y

    boxes: list[tuple[Group, _Box]] = []
    captions: list[_Caption] = []

    def place_lines(lines: list[list[tuple[Group, Card, float]]], y: float) -> float:
        seen: set[int] = set()
        for line in lines:
            x0 = (width - _line_width(line)) / 2
            for group, card, x in line:
                if id(group) not in seen:
                    seen.add(id(group))
                    captions.append(_Caption(_caption(group), x0 + x, y + CAPTION_H - 5))
                boxes.append((group, _Box(card, x0 + x, y + CAPTION_H, _width(card))))
            y += line_h
        return y

    y = place_lines(top, MARGIN)
    if top:
        y += ROW_GAP - GAP_Y
    middle_top = y + CAPTION_H
    x0 = (width - middle_w) / 2
    cx = x0 + (left_w + COLUMN_GAP if left else 0)
    middle = _Box(center, cx, middle_top + (column_h - NODE_H) / 2, center_w)
    columns: tuple[tuple[list[tuple[Group, Card]], Side, float], ...] = (
        (left, "left", x0),
        (right, "right", cx + center_w + COLUMN_GAP),
    )
    for items, side, x in columns:
        ys = middle_top + (column_h - (len(items) * (NODE_H + GAP_Y) - GAP_Y)) / 2
        if items:
            caption = "; ".join(_caption(g) for g in sides[side])
            cap_x = x + left_w - _caption_width(caption) if side == "left" else x
            captions.append(_Caption(caption, max(MARGIN / 2, cap_x), ys - 6))
        for group, card in items:
            w = _width(card)
            bx = x + (left_w - w if side == "left" else 0)
            boxes.append((group, _Box(card, bx, ys, w)))
            ys += NODE_H + GAP_Y
    y = middle_top + column_h
    if bottom:
        y = place_lines(bottom, y + ROW_GAP - CAPTION_H)
    return _Layout(width, y + MARGIN, boxes, captions, middle)


def _edge(group: Group, box: _Box, middle: _Box) -> str:
    """An arrow in the direction the relation reads: into the artifact from what feeds it and
    from what uses it, out of it to everything else."""
    if group.side == "left":
        x1, y1 = box.x + box.w, box.y + NODE_H / 2
        x2, y2 = middle.x, middle.y + NODE_H / 2
    elif group.side == "right":
        x1, y1 = middle.x + middle.w, middle.y + NODE_H / 2
        x2, y2 = box.x, box.y + NODE_H / 2
    elif group.side == "top":
        x1, y1 = middle.x + middle.w / 2, middle.y
        x2, y2 = box.x + box.w / 2, box.y + NODE_H
    else:
        x1, y1 = middle.x + middle.w / 2, middle.y + NODE_H
        x2, y2 = box.x + box.w / 2, box.y
    if group.label == "used by":
        x1, y1, x2, y2 = x2, y2, x1, y1
    return (
        f'<line class="edge" x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
        f'stroke="#8c959f" stroke-width="1.3" marker-end="url(#arrow)"/>'
    )


def _node(box: _Box, relation: str, *, focus: bool = False) -> str:
    card = box.card
    unusable = card.status in ("deprecated", "retired")
    fill = "#0969da" if focus else ("#f6f8fa" if unusable else "#ffffff")
    stroke = "#0969da" if focus else "#bf8700" if card.flags else "#8c959f"
    dash = ' stroke-dasharray="4 3"' if unusable else ""
    ink = "#ffffff" if focus else ("#6e7781" if unusable else "#1f2328")
    sub = "#dbe9ff" if focus else "#57606a"
    tip = f"{card.id}: {card.kind}, {card.signature}" + (
        f" ({'; '.join(card.flags)})" if card.flags else ""
    )
    if relation:
        tip = f"{relation}: {tip}"
    inner = (
        f'<rect x="{box.x:.0f}" y="{box.y:.0f}" width="{box.w:.0f}" height="{NODE_H}" rx="7" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="1.4"{dash}/>'
        f'<text x="{box.x + box.w / 2:.0f}" y="{box.y + 19:.0f}" text-anchor="middle" '
        f'font-weight="600" fill="{ink}">{escape(_label(card.name))}</text>'
        f'<text x="{box.x + box.w / 2:.0f}" y="{box.y + 35:.0f}" text-anchor="middle" '
        f'font-size="10" fill="{sub}">{escape(_label(card.signature))}</text>'
        f"<title>{escape(tip)}</title>"
    )
    if focus:
        return f'<g class="node focus" data-id="{escape(card.id)}">{inner}</g>'
    href = escape(artifact_href(card.id))
    return f'<a href="{href}" class="node" data-id="{escape(card.id)}">{inner}</a>'
