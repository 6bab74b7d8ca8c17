"""A deterministic synthetic catalog of any size: the same records for the same arguments.

``generate(n)`` returns plain dicts that ``CatalogEntry.parse`` / ``TypeDecl.parse`` accept:

* a type lattice of ``n_types`` declarations: a DAG five levels deep (``Document`` ->
  ``PdfDocument`` -> ``ScannedPdfDocument`` ...; some types have two parents), plus the generic
  constructor ``List`` (``{"type": "List", "params": 1}``) used as ``List[X]`` by a few entries;
* ``n`` entries with CamelCase names built from a domain vocabulary (``FastPdfTableExtractor``),
  two to four sentence descriptions, keywords, authors, a mix of entity types, statuses and
  executions, success rates, latencies and usage counts;
* relations that only point at entries generated earlier (so every target exists and the
  ``depends_on`` graph is acyclic): ``successor_to`` chains (``PdfParserV2`` -> ``PdfParser``,
  whose status may then be deprecated), ``depends_on``, ``forged_by`` (an agent) and
  ``implements`` (an interface entry of type ``other``).

One ``random.Random(seed)`` drives everything, so output depends only on the arguments.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _phrases(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in text.split(";") if p.strip())


QUALIFIERS = _words("""
    Fast Smart Multi Auto Deep Lite Pro Batch Stream Async Open Robust Simple Neural Fuzzy
    Secure Cloud Local Realtime Hybrid
""")
DOMAINS = _words("""
    Pdf News Stock Sentiment Invoice Email Image Audio Video Code Log Weather Legal Medical
    Tweet Review Resume Contract Sql Csv Json Xml Html Markdown Chart Map Calendar
    Translation Speech Patent Research Paper Crypto Market Product Customer Ticket Recipe
    Sports Music Table Form Receipt Earnings Headline Entity Keyword Topic Citation Genome
    Sensor Traffic Energy Survey Chat Web
""")
ACRONYMS = {"Pdf": "PDF", "Sql": "SQL", "Csv": "CSV", "Json": "JSON", "Xml": "XML", "Html": "HTML"}
ROLES = _words("""
    Parser Summarizer Extractor Classifier Translator Analyzer Generator Validator Converter
    Scraper Fetcher Ranker Tagger Detector Monitor Planner Router Indexer Cleaner Normalizer
    Formatter Aggregator Tracker Forecaster Reviewer Writer Retriever Embedder Visualizer
    Scheduler
""")
VERBS = dict(
    zip(
        ROLES,
        _phrases("""
    Parses; Summarizes; Extracts; Classifies; Translates; Analyzes; Generates; Validates;
    Converts; Scrapes; Fetches; Ranks; Tags; Detects anomalies in; Monitors; Plans work over;
    Routes; Indexes; Cleans; Normalizes; Formats; Aggregates; Tracks; Forecasts trends in;
    Reviews; Writes; Retrieves; Embeds; Visualizes; Schedules
"""),
        strict=True,
    )
)
OBJECTS = _words("""
    documents records articles reports tables entities headlines prices reviews messages
    transcripts files images events metrics summaries labels tickets filings pages invoices
    queries feeds snippets
""")
ADJECTIVES = _words("""
    structured noisy multilingual large streaming scanned historical real-time raw annotated
    incoming nested sparse encrypted daily
""")
OUTPUTS = _phrases("""
    JSON; CSV; Markdown; embeddings; a ranked list; a short summary; typed records; alerts;
    plain text; a dashboard; SQL rows; labelled spans
""")
TECHNIQUES = _phrases("""
    transformer models; regular expressions; BM25 ranking; rule-based heuristics;
    gradient boosting; OCR; dependency parsing; vector search; LLM prompting;
    finite-state machines; spectral clustering; time-series decomposition
""")
USE_CASES = _phrases("""
    financial analysts; newsrooms; compliance teams; research pipelines; customer support;
    data engineering; trading desks; legal review; medical coding; e-commerce catalogs;
    security operations; academic search
""")
FEATURES = _phrases("""
    batching; retries; streaming output; caching; rate limiting; schema validation;
    language detection; deduplication; incremental updates; pagination; unicode input;
    configurable thresholds
""")
QUALITIES = _phrases("low latency; high recall; graceful fallbacks; bounded memory; clear errors")
TAGS = _words("""
    nlp finance parsing ocr summarization search vision audio etl monitoring classification
    translation scraping llm embeddings analytics compliance healthcare legal devops
    forecasting chat tabular geo
""")
FIRST = _words("ada alan grace linus mira noor omar priya sofia tariq wei yuki zane ines kofi lena")
LAST = _words("lovelace turing hopper ng okafor silva kim patel novak haddad berg costa mori khan")
ORGS = _words("acme globex initech umbrella hooli stark wayne tyrell cyberdyne aperture wonka")
CONTRACTS = _words("idempotent deterministic no-network read-only pure gpu-optional")

TYPE_ROOTS = _words("Document Record Media Signal Text Dataset Message Report")
TYPE_MODIFIERS = _words("""
    Pdf Scanned Html Markdown Legal Medical Financial News Email Audio Image Video
    Structured Tabular Annotated Raw Clean Summary Ranked Tokenized Embedded Translated
    Stock Sensor Chat Code Geo Invoice Contract Weather Log Event Price Review Json Csv
""")

TYPE_DEPTH = 5  # levels 0..4: roots, then four levels of refinement

ENTITY_TYPES = (
    ("tool", 45),
    ("agent", 20),
    ("pipeline", 10),
    ("prompt", 10),
    ("model", 7),
    ("dataset", 5),
    ("other", 3),
)
STATUSES = (("active", 70), ("experimental", 15), ("deprecated", 10), ("retired", 5))
EXECUTIONS = (("local", 40), ("cloud", 35), ("hybrid", 15), (None, 10))
_EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


def _weighted(pairs: Sequence[tuple[Any, int]]) -> tuple[list[Any], list[int]]:
    values = [v for v, _ in pairs]
    cum, total = [], 0
    for _, weight in pairs:
        total += weight
        cum.append(total)
    return values, cum


def _kebab(name: str) -> str:
    out: list[str] = []
    for i, ch in enumerate(name):
        if (
            ch.isupper()
            and i
            and (name[i - 1].islower() or (i + 1 < len(name) and name[i + 1].islower()))
        ):
            out.append("-")
        out.append(ch.lower())
    return "".join(out).replace("_", "-")


def generate_types(n_types: int, rng: random.Random) -> list[dict[str, Any]]:
    """``n_types`` type declarations (``List`` included): a DAG of depth ``TYPE_DEPTH``."""
    if n_types < 1:
        return []
    types: list[dict[str, Any]] = [
        {"type": "List", "params": 1, "description": "An ordered sequence of values of one type."}
    ]
    remaining = n_types - 1
    n_roots = min(len(TYPE_ROOTS), max(1, remaining // 10), remaining)
    levels: list[list[str]] = [list(TYPE_ROOTS[:n_roots])]
    used = set(levels[0]) | {"List"}
    for name in levels[0]:
        types.append({"type": name, "description": f"Any {name.lower()} handled by the catalog."})
    remaining -= n_roots
    # share the rest between levels 1..4, more types at deeper levels
    shares = [1, 2, 3, 4][: TYPE_DEPTH - 1]
    counts = [remaining * s // sum(shares) for s in shares]
    counts[-1] += remaining - sum(counts)
    for count in counts:
        parents_pool = levels[-1]
        level: list[str] = []
        for _ in range(count):
            parent = rng.choice(parents_pool)
            name = ""
            for _attempt in range(8):
                modifier = rng.choice(TYPE_MODIFIERS)
                candidate = modifier + parent
                if modifier not in parent and candidate not in used:
                    name = candidate
                    break
            if not name:  # vocabulary exhausted for this parent: number it
                name = f"{rng.choice(TYPE_MODIFIERS)}{parent[:60]}{len(used)}"
            used.add(name)
            parents = [parent]
            if len(parents_pool) > 1 and rng.random() < 0.15:  # a second parent makes a DAG
                other = rng.choice(parents_pool)
                if other != parent:
                    parents.append(other)
            level.append(name)
            types.append(
                {
                    "type": name,
                    "subtype_of": parents,
                    "description": f"A {parent} refined as {name}.",
                }
            )
        if level:
            levels.append(level)
    return types


def generate(
    n: int, seed: int = 0, n_types: int = 200
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``n`` catalog entry dicts and ``n_types`` type dicts, identical for identical arguments."""
    rng = random.Random(seed)
    types = generate_types(n_types, rng)
    plain_types = [t["type"] for t in types if t["type"] != "List"]
    authors = sorted({f"{f}-{ln}" for f in FIRST for ln in LAST} | {f"{o}-labs" for o in ORGS})
    authors = rng.sample(authors, min(300, len(authors)))
    ent_values, ent_cum = _weighted(ENTITY_TYPES)
    st_values, st_cum = _weighted(STATUSES)
    ex_values, ex_cum = _weighted(EXECUTIONS)

    entries: list[dict[str, Any]] = []
    used_ids: set[str] = set()
    agents: list[str] = []
    interfaces: list[str] = []
    generation: dict[int, int] = {}  # entry index -> its version number in a successor chain
    base_name: dict[int, str] = {}
    rand = rng.random
    choice = rng.choice

    def type_name() -> str | None:
        roll = rand()
        if not plain_types or roll < 0.1:
            return None
        name = choice(plain_types)
        return f"List[{name}]" if roll > 0.95 else name

    for i in range(n):
        relations: list[dict[str, str]] = []
        predecessor = int(rand() * i) if i and rand() < 0.08 else -1
        if predecessor >= 0:
            gen = generation.get(predecessor, 1) + 1
            root = base_name[predecessor]
            name = f"{root}V{gen}" if rand() < 0.7 else f"{root}_v{gen}"
            prev = entries[predecessor]
            relations.append({"type": "successor_to", "target": prev["id"]})
            if prev["status"] == "active" and rand() < 0.5:
                prev["status"] = "deprecated"
            generation[i] = gen
            base_name[i] = root
            version = f"{gen}.{int(rand() * 5)}.0"
            domain = choice(DOMAINS)
            role = next((r for r in ROLES if root.endswith(r)), choice(ROLES))
        else:
            domain = choice(DOMAINS)
            role = choice(ROLES)
            parts = []
            if rand() < 0.4:
                parts.append(choice(QUALIFIERS))
            parts.append(ACRONYMS.get(domain, domain) if rand() < 0.15 else domain)
            if rand() < 0.3:
                parts.append(choice(DOMAINS))
            parts.append(role)
            name = "".join(parts)
            base_name[i] = name
            version = f"{int(rand() * 3)}.{int(rand() * 10)}.{int(rand() * 20)}"
            if rand() < 0.05:
                version += choice(("-beta.1", "-rc.2", "-alpha"))

        author = choice(authors)
        artifact_id = f"{author.split('-')[0]}/{_kebab(name)}"
        if artifact_id in used_ids:
            artifact_id = f"{artifact_id}-{i}"
        used_ids.add(artifact_id)

        entity_type = ent_values[_pick(ent_cum, rand)]
        obj, obj2 = choice(OBJECTS), choice(OBJECTS)
        sentences = [
            f"{VERBS[role]} {choice(ADJECTIVES)} {domain.lower()} {obj} "
            f"and returns {choice(OUTPUTS)}."
        ]
        for _ in range(1 + int(rand() * 3)):
            roll = rand()
            if roll < 0.25:
                sentences.append(f"Built for {choice(USE_CASES)} working with {obj2}.")
            elif roll < 0.5:
                first, second = rng.sample(FEATURES, 2)
                sentences.append(f"Supports {first} and {second}.")
            elif roll < 0.75:
                sentences.append(f"Uses {choice(TECHNIQUES)} to handle {choice(ADJECTIVES)} input.")
            else:
                sentences.append(f"Designed for {choice(QUALITIES)} on {domain.lower()} {obj2}.")
        keywords = list(
            dict.fromkeys(
                [domain.lower(), role.lower(), *(choice(TAGS) for _ in range(1 + int(rand() * 4)))]
            )
        )
        entry: dict[str, Any] = {
            "id": artifact_id,
            "name": name,
            "entity_type": entity_type,
            "version": version,
            "description": " ".join(sentences),
            "keywords": keywords,
            "author": author,
            "status": st_values[_pick(st_cum, rand)],
            "usage_count": int(rng.paretovariate(1.2)) - 1,
        }
        if rand() < 0.85:
            entry["success_rate"] = round(0.5 + 0.5 * rand() ** 0.5, 3)
        if rand() < 0.8:
            entry["latency_ms"] = round(rng.lognormvariate(4.0, 1.0), 1)
        execution = ex_values[_pick(ex_cum, rand)]
        if execution is not None:
            entry["execution"] = execution
        if rand() < 0.7:
            when = _EPOCH + timedelta(seconds=int(rand() * 730 * 86400))
            entry["last_used"] = when.isoformat()
        for key in ("input_type", "output_type"):
            value = type_name()
            if value is not None:
                entry[key] = value
        if rand() < 0.15:
            entry["contracts"] = sorted({choice(CONTRACTS) for _ in range(1 + int(rand() * 2))})
        if i and rand() < 0.3:
            targets = {entries[int(rand() * i)]["id"] for _ in range(1 + int(rand() * 3))}
            relations += [{"type": "depends_on", "target": t} for t in sorted(targets)]
        if agents and rand() < 0.1:
            relations.append({"type": "forged_by", "target": choice(agents)})
        if interfaces and entity_type != "other" and rand() < 0.1:
            relations.append({"type": "implements", "target": choice(interfaces)})
        if relations:
            entry["relations"] = relations
        if entity_type == "agent":
            agents.append(artifact_id)
        elif entity_type == "other":
            interfaces.append(artifact_id)
        entries.append(entry)
    return entries, types


def _pick(cumulative: Sequence[int], rand: Any) -> int:
    roll = rand() * cumulative[-1]
    for index, bound in enumerate(cumulative):
        if roll < bound:
            return index
    return len(cumulative) - 1


def write_jsonl(
    path: Path | str, entries: Sequence[dict[str, Any]], types: Sequence[dict[str, Any]]
) -> None:
    """One JSON object a line: the type declarations first, then the entries."""
    with Path(path).open("w", encoding="utf-8") as out:
        for record in [*types, *entries]:
            out.write(json.dumps(record, ensure_ascii=False))
            out.write("\n")
