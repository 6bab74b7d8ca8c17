// L-gent's artifact page: lays out the artifact's neighbourhood (the JSON the page embeds, as
// GET /artifacts/{id}/neighbourhood answers it) with dagre, a layered layout in which boxes never
// overlap and every edge label is placed as a box of its own, then draws it as SVG.
"use strict";

(function () {
  const holder = document.getElementById("graph");
  const source = document.getElementById("graph-data");
  if (!holder || !source || typeof dagre === "undefined") return;
  const data = JSON.parse(source.textContent);
  const NS = "http://www.w3.org/2000/svg";
  const FONT = "12px 'DejaVu Sans', Helvetica, Arial, sans-serif";
  const BOLD = "bold " + FONT;
  const MAX_LABEL = 30;
  const measure = document.createElement("canvas").getContext("2d");

  function width(text, font) {
    measure.font = font;
    return measure.measureText(text).width;
  }

  function cut(text) {
    return text.length <= MAX_LABEL ? text : text.slice(0, MAX_LABEL - 1) + "…";
  }

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "LR", nodesep: 16, ranksep: 56, edgesep: 14, marginx: 10, marginy: 10 });
  for (const node of data.nodes) {
    let lines;
    if (node.card) lines = [cut(node.card.name), cut(node.card.signature)];
    else lines = [`+${node.more} more`];
    const w = Math.max(width(lines[0], BOLD), lines.length > 1 ? width(lines[1], FONT) : 0);
    g.setNode(node.id, { node, lines, width: Math.ceil(w) + 22, height: lines.length > 1 ? 42 : 28 });
  }
  data.edges.forEach((edge, n) => {
    const w = Math.ceil(width(edge.label, FONT)) + 10;
    g.setEdge(edge.source, edge.target, { edge, width: w, height: 18, labelpos: "c" }, `e${n}`);
  });
  dagre.layout(g);

  const size = g.graph();
  const svg = el("svg", {
    class: "graph",
    role: "img",
    width: Math.ceil(size.width),
    height: Math.ceil(size.height),
    viewBox: `0 0 ${Math.ceil(size.width)} ${Math.ceil(size.height)}`,
    "font-family": "DejaVu Sans, Helvetica, Arial, sans-serif",
    "font-size": 12,
  });
  el("title", {}, svg).textContent = `${data.artifact_id}: its lineage and what it composes with`;
  const defs = el("defs", {}, svg);
  const marker = el("marker", {
    id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7,
    orient: "auto-start-reverse",
  }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#57606a" }, marker);

  // Edges are drawn orthogonally through dagre's waypoints (its label and dummy points, one per
  // layer an edge crosses): horizontal inside a layer, at the y that dagre kept free for the
  // edge there, and vertical only in the gaps between layers, where no box or label stands.
  // So no edge passes through a box or a label it does not belong to.
  const columns = new Map(); // a layer's x -> the half-width of its widest box or label
  const widen = (x, half) => {
    const key = Math.round(x);
    columns.set(key, Math.max(columns.get(key) || 0, half));
  };
  for (const id of g.nodes()) widen(g.node(id).x, g.node(id).width / 2);
  for (const e of g.edges()) {
    const laid = g.edge(e);
    widen(laid.x, laid.width / 2);
    for (const p of laid.points.slice(1, -1)) widen(p.x, 0);
  }
  const half = (x) => columns.get(Math.round(x)) || 0;

  function route(e, k) {
    const from = g.node(e.v);
    const to = g.node(e.w);
    const middle = g.edge(e).points.slice(1, -1);
    const stops = [{ x: from.x, y: from.y }, ...middle, { x: to.x, y: to.y }];
    const spread = ((k % 5) - 2) * 5;
    const out = [];
    for (let i = 0; i + 1 < stops.length; i++) {
      const a = stops[i];
      const b = stops[i + 1];
      const right = b.x >= a.x ? 1 : -1;
      const leave = a.x + right * (i === 0 ? from.width / 2 : 0);
      const arrive = b.x - right * (i + 2 === stops.length ? to.width / 2 : 0);
      const gapA = a.x + right * half(a.x);
      const gapB = b.x - right * half(b.x);
      const gap = (gapA + gapB) / 2 + spread * Math.min(1, Math.abs(gapB - gapA) / 40);
      if (i === 0) out.push([leave, a.y]);
      out.push([gap, a.y], [gap, b.y], [arrive, b.y]);
    }
    return out;
  }

  const edges = el("g", { class: "edges" }, svg);
  g.edges().forEach((e, k) => {
    const laid = g.edge(e);
    const n = e.name;
    const d = route(e, k).map((p, i) => `${i ? "L" : "M"}${p[0].toFixed(1)},${p[1].toFixed(1)}`);
    el("path", {
      class: "edge", d: d.join(" "), fill: "none", stroke: "#8c959f", "stroke-width": 1.3,
      "marker-end": "url(#arrow)", "data-source": e.v, "data-target": e.w, "data-edge": n,
    }, edges);
    const label = el("g", { class: "edge-label", "data-edge": n }, edges);
    el("rect", {
      x: (laid.x - laid.width / 2).toFixed(1), y: (laid.y - laid.height / 2).toFixed(1),
      width: laid.width, height: laid.height, rx: 3, fill: "#ffffff", stroke: "none",
    }, label);
    const text = el("text", {
      x: laid.x.toFixed(1), y: (laid.y + 4).toFixed(1), "text-anchor": "middle", fill: "#57606a",
    }, label);
    text.textContent = laid.edge.label;
  });

  const nodes = el("g", { class: "nodes" }, svg);
  for (const id of g.nodes()) {
    const laid = g.node(id);
    const { node, lines } = laid;
    const card = node.card;
    let box;
    if (node.focus) {
      box = el("g", { class: "node focus", "data-id": node.id }, nodes);
    } else if (card) {
      box = el("a", { class: "node", "data-id": node.id, href: `/artifact/${encodeURIComponent(node.id)}` }, nodes);
    } else {
      const attrs = { class: "more" };
      if (node.id === "+parts") attrs.href = "#parts";
      box = el(attrs.href ? "a" : "g", attrs, nodes);
    }
    const unusable = card && ["deprecated", "retired", "draft"].includes(card.status);
    const warned = card && card.flags.length > 0;
    el("rect", {
      x: (laid.x - laid.width / 2).toFixed(1), y: (laid.y - laid.height / 2).toFixed(1),
      width: laid.width, height: laid.height, rx: 6,
      fill: node.focus ? "#ddf4ff" : warned ? "#fff8c5" : "#ffffff",
      stroke: node.focus ? "#0969da" : warned ? "#d4a72c" : "#8c959f",
      "stroke-width": node.focus ? 2 : 1.2,
      "stroke-dasharray": unusable ? "5 3" : "none",
    }, box);
    if (card) el("title", {}, box).textContent = `${card.id} (${card.kind}, ${card.status})`;
    const top = laid.y - (lines.length > 1 ? 4 : -4);
    const name = el("text", {
      x: laid.x.toFixed(1), y: top.toFixed(1), "text-anchor": "middle", "font-weight": "bold",
      fill: "#1f2328",
    }, box);
    name.textContent = lines[0];
    if (lines.length > 1) {
      const sig = el("text", {
        x: laid.x.toFixed(1), y: (top + 15).toFixed(1), "text-anchor": "middle", fill: "#57606a",
      }, box);
      sig.textContent = lines[1];
    }
  }
  holder.replaceChildren(svg);
})();
