// L-gent's search page: asks GET /search as you type (debounced) and shows the cards it answers.
"use strict";

const PAGE = 10;
const DEBOUNCE_MS = 250;

const form = document.getElementById("search");
const box = document.getElementById("q");
const filters = ["kind", "status", "execution"].map((id) => document.getElementById(id));
const reading = document.getElementById("reading");
const list = document.getElementById("results");
const more = document.getElementById("more");
const suggestions = document.getElementById("suggestions");

let timer = null;
let inFlight = null;
let asked = 0; // the number of the latest request; older answers are dropped
let nextOffset = null;

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

function params(offset) {
  const p = new URLSearchParams({ q: box.value.trim(), limit: String(PAGE), offset: String(offset) });
  for (const select of filters) {
    if (select.value) p.set(select.id, select.value);
  }
  return p;
}

function remember() {
  const p = params(0);
  p.delete("limit");
  p.delete("offset");
  const url = box.value.trim() ? `/?${p}` : "/";
  history.replaceState(null, "", url);
}

function card(result) {
  const li = document.createElement("li");
  li.className = "result";
  li.dataset.id = result.id;
  const name = result.highlights.name ? marked(result.highlights.name) : escapeHtml(result.name);
  const id = result.name === result.id ? "" : ` <span class="muted">${escapeHtml(result.id)}</span>`;
  const flags = result.flags.map((f) => `<span class="flag">${escapeHtml(f)}</span>`).join("");
  const text = result.highlights.description
    ? marked(result.highlights.description)
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

function showError(error) {
  reading.textContent = error;
  reading.classList.add("error");
}

async function run(offset) {
  const query = box.value.trim();
  remember();
  if (!query) {
    list.replaceChildren();
    reading.textContent = "";
    suggestions.textContent = "";
    more.hidden = true;
    return;
  }
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
  reading.textContent = answer.total
    ? `${answer.total} matches, ${answer.reading}. Showing 1-${shown}.${notes}`
    : `No matches (${answer.reading}).${notes}`;
  reading.title = answer.interpretation;
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

box.addEventListener("input", later);
for (const select of filters) select.addEventListener("change", () => run(0));
form.addEventListener("submit", (event) => {
  event.preventDefault();
  clearTimeout(timer);
  run(0);
});
more.addEventListener("click", () => {
  if (nextOffset !== null) run(nextOffset);
});

// A link to /?q=...&kind=... opens with that search.
const start = new URLSearchParams(location.search);
box.value = start.get("q") || "";
for (const select of filters) select.value = start.get(select.id) || "";
if (box.value) run(0);
