// L-gent's search page. Before anything is typed it browses the catalog with facet counts
// (GET /search without q); as you type it asks GET /search (debounced). A click on a facet value
// filters by it, a click on a chosen one lets it go. A named token is kept in a cookie, which the
// page's own requests carry.
"use strict";

const PAGE = 10;
const DEBOUNCE_MS = 250;
const FACETS = ["kind", "status", "tag", "source", "owner", "input", "output"];
const TITLES = {
  kind: "Kind", status: "Status", tag: "Tags", source: "Source", owner: "Owner",
  input: "Input kind", output: "Output kind",
};

const form = document.getElementById("search");
const box = document.getElementById("q");
const execution = document.getElementById("execution");
const reading = document.getElementById("reading");
const list = document.getElementById("results");
const more = document.getElementById("more");
const suggestions = document.getElementById("suggestions");
const facetsBox = document.getElementById("facets");
const chosenBox = document.getElementById("chosen");

let timer = null;
let inFlight = null;
let asked = 0; // the number of the latest request; older answers are dropped
let nextOffset = null;
let chosen = {}; // facet name -> value

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

// Highlights are HTML from the server: the text escaped, <mark> around the matches. Any other
// tag is neutralised all the same.
function marked(text) {
  return String(text).replace(/<(?!\/?mark>)/g, "&lt;");
}

// A source is the file, API spec, server or writer that wrote an artifact: shown by its last
// two path parts, named whole on hover.
function shortLabel(facet, value) {
  if (facet !== "source") return value;
  const [kind, ...rest] = value.split(":");
  const name = rest.join(":");
  const parts = name.split("/").filter(Boolean);
  return parts.length > 1 ? parts.slice(-2).join("/") : `${kind} ${name}`.trim();
}

function params(offset) {
  const p = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  const query = box.value.trim();
  if (query) {
    p.set("q", query);
    if (execution.value) p.set("execution", execution.value);
  }
  for (const [name, value] of Object.entries(chosen)) p.set(name, value);
  if (offset === 0) p.set("facets", FACETS.join(","));
  return p;
}

function remember() {
  const p = params(0);
  for (const key of ["limit", "offset", "facets"]) p.delete(key);
  const text = p.toString();
  history.replaceState(null, "", text ? `/?${text}` : "/");
}

function card(result) {
  const li = document.createElement("li");
  li.className = "result";
  li.dataset.id = result.id;
  const highlights = result.highlights || {};
  const name = highlights.name ? marked(highlights.name) : escapeHtml(result.name);
  const id = result.name === result.id ? "" : ` <span class="muted">${escapeHtml(result.id)}</span>`;
  const flags = result.flags.map((f) => `<span class="flag">${escapeHtml(f)}</span>`).join("");
  const text = highlights.description
    ? marked(highlights.description)
    : escapeHtml(result.description);
  const by = result.owner ? ` <span class="muted">by ${escapeHtml(result.owner)}</span>` : "";
  li.innerHTML =
    `<a class="title" href="/artifact/${encodeURIComponent(result.id)}">${name}</a>${id}` +
    `<div class="meta"><span class="badge">${escapeHtml(result.kind)}</span>` +
    `<code>${escapeHtml(result.signature)}</code>${by}${flags}</div>` +
    `<p class="description">${text}</p>` +
    (result.why ? `<p class="why">why: ${escapeHtml(result.why)}</p>` : "");
  return li;
}

function showFacets(facets) {
  const sections = [];
  for (const name of FACETS) {
    const facet = facets[name];
    if (!facet) continue;
    const values = facet.values.map((v) => {
      const on = chosen[name] === v.value;
      return `<li><button type="button" class="facet-value${on ? " on" : ""}" ` +
        `data-facet="${name}" data-value="${escapeHtml(v.value)}" title="${escapeHtml(v.value)}">` +
        `<span class="label">${escapeHtml(shortLabel(name, v.value))}</span>` +
        `<span class="count">${v.count}</span></button></li>`;
    });
    if (!values.length) continue;
    const rest = facet.others ? `<li class="muted">and ${facet.others} more</li>` : "";
    sections.push(
      `<section class="facet" data-facet="${name}"><h3>${TITLES[name]}</h3>` +
      `<ul>${values.join("")}${rest}</ul></section>`,
    );
  }
  facetsBox.innerHTML = sections.join("");
}

function showChosen() {
  chosenBox.innerHTML = Object.entries(chosen).map(([name, value]) =>
    `<button type="button" class="chip" data-facet="${name}" title="${escapeHtml(value)}">` +
    `${escapeHtml(name)}: ${escapeHtml(shortLabel(name, value))} ×</button>`).join(" ");
}

function showError(error) {
  reading.textContent = error;
  reading.classList.add("error");
}

async function run(offset) {
  const query = box.value.trim();
  remember();
  showChosen();
  if (inFlight) inFlight.abort();
  inFlight = new AbortController();
  const mine = ++asked;
  let answer;
  try {
    const response = await fetch(`/search?${params(offset)}`, { signal: inFlight.signal });
    answer = await response.json();
    if (mine !== asked) return;
    if (!response.ok) {
      if (offset === 0) list.replaceChildren();
      more.hidden = true;
      showError(answer.error ? answer.error.message : `error ${response.status}`);
      return;
    }
  } catch (err) {
    if (err.name !== "AbortError" && mine === asked) showError(String(err));
    return;
  }
  reading.classList.remove("error");
  const shown = offset + answer.results.length;
  const notes = answer.warnings.map((w) => ` Note: ${w}`).join("");
  if (!query) {
    reading.textContent = `${answer.total} artifacts, ${answer.reading}. Showing 1-${shown}.`;
  } else {
    reading.textContent = answer.total
      ? `${answer.total} matches, ${answer.reading}. Showing 1-${shown}.${notes}`
      : `No matches (${answer.reading}).${notes}`;
  }
  reading.title = answer.interpretation;
  if (offset === 0) showFacets(answer.facets);
  const cards = answer.results.map(card);
  if (offset === 0) list.replaceChildren(...cards);
  else list.append(...cards);
  nextOffset = answer.next_offset;
  more.hidden = nextOffset === null;
  suggestions.textContent = answer.suggestions.length
    ? `Also consider: ${answer.suggestions.slice(0, 3).join(" · ")}`
    : "";
}

function later() {
  clearTimeout(timer);
  timer = setTimeout(() => run(0), DEBOUNCE_MS);
}

function toggle(name, value) {
  if (chosen[name] === value) delete chosen[name];
  else chosen[name] = value;
  run(0);
}

box.addEventListener("input", later);
execution.addEventListener("change", () => run(0));
form.addEventListener("submit", (event) => {
  event.preventDefault();
  clearTimeout(timer);
  run(0);
});
more.addEventListener("click", () => {
  if (nextOffset !== null) run(nextOffset);
});
facetsBox.addEventListener("click", (event) => {
  const button = event.target.closest("button.facet-value");
  if (button) toggle(button.dataset.facet, button.dataset.value);
});
chosenBox.addEventListener("click", (event) => {
  const chip = event.target.closest("button.chip");
  if (chip) toggle(chip.dataset.facet, chosen[chip.dataset.facet]);
});

// Who the page reads as: a named token, kept in a cookie its own requests carry.
async function whoami() {
  const caller = document.getElementById("caller");
  try {
    const response = await fetch("/whoami");
    const me = await response.json();
    if (!response.ok) {
      caller.textContent = me.error ? me.error.message : `error ${response.status}`;
      return;
    }
    caller.textContent = me.name ? `reading as ${me.name}` : "reading as the home's owner";
  } catch (err) {
    caller.textContent = String(err);
  }
}
document.getElementById("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const token = document.getElementById("token").value.trim();
  document.cookie = `lgent_token=${encodeURIComponent(token)}; path=/; SameSite=Strict`;
  location.reload();
});
document.getElementById("signout").addEventListener("click", () => {
  document.cookie = "lgent_token=; path=/; max-age=0; SameSite=Strict";
  location.reload();
});

// A link to /?q=...&tag=... opens with that search (or that browse).
const start = new URLSearchParams(location.search);
box.value = start.get("q") || "";
execution.value = start.get("execution") || "";
for (const name of FACETS) {
  if (start.get(name)) chosen[name] = start.get(name);
}
whoami();
run(0);
