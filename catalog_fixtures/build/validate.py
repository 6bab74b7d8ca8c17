"""Validate the example catalog and its labeled queries; print a summary.

    .venv/bin/python catalog_fixtures/build/validate.py

Reads the files themselves (not the generator's data), so it checks what ships. Exit code 1
when any check fails.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))

from catalog_io import ROOT, load, load_queries, semver_key  # noqa: E402
from lattice import Lattice, compatible, paths  # noqa: E402

ALLOWED_KEYS = {
    "id", "name", "entity_type", "version", "description", "keywords", "author", "status",
    "input_type", "output_type", "contracts", "success_rate", "usage_count", "last_used",
    "latency_ms", "execution", "relations",
}
ENTITY_TYPES = {"agent", "tool", "prompt", "pipeline", "dataset", "model", "other"}
STATUSES = {"active", "experimental", "deprecated", "retired"}
CONTRACTS = {"deterministic", "idempotent", "pure", "streaming", "stateless", "cached",
             "rate_limited", "requires_network", "requires_gpu"}
EXECUTIONS = {"local", "cloud", "hybrid"}
RELATIONS = {"successor_to", "depends_on", "forged_by", "implements", "similar_to"}
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/+\-]*$")
QUERY_CLASSES = ["exact_name", "keyword_syntax", "semantic_intent", "type_compat", "relationship", "composition"]
QUERY_KEYS = {"qid", "class", "query", "relevant", "notes", "constraints"}
TYPE_KEYS = {"type", "subtype_of", "params", "description"}

errors: list[str] = []


def fail(msg: str) -> None:
    errors.append(msg)


def need(cond: bool, msg: str) -> None:
    if not cond:
        fail(msg)


def check_entry(rec: dict, src: str, lat: Lattice) -> None:
    rid = rec.get("id")
    where = f"{src} [{rid}]"
    for k in set(rec) - ALLOWED_KEYS:
        fail(f"{where}: unknown key {k!r}")
    need(isinstance(rid, str) and bool(ID_RE.match(rid)), f"{where}: bad id")
    need(isinstance(rec.get("name"), str) and rec["name"].strip() != "", f"{where}: name required")
    need(rec.get("entity_type", "tool") in ENTITY_TYPES, f"{where}: bad entity_type")
    need(rec.get("status", "active") in STATUSES, f"{where}: bad status")
    need(bool(SEMVER.match(str(rec.get("version", "0.1.0")))), f"{where}: version not semver")
    need(isinstance(rec.get("description", ""), str), f"{where}: description must be a string")
    kws = rec.get("keywords", [])
    need(isinstance(kws, list) and all(isinstance(k, str) and k for k in kws), f"{where}: keywords")
    for c in rec.get("contracts", []):
        need(c in CONTRACTS, f"{where}: unknown contract {c!r}")
    if "success_rate" in rec:
        sr = rec["success_rate"]
        need(isinstance(sr, (int, float)) and 0 <= sr <= 1, f"{where}: success_rate out of 0..1")
    if "usage_count" in rec:
        uc = rec["usage_count"]
        need(isinstance(uc, int) and not isinstance(uc, bool) and uc >= 0, f"{where}: usage_count")
    if "latency_ms" in rec:
        need(isinstance(rec["latency_ms"], (int, float)) and rec["latency_ms"] >= 0, f"{where}: latency_ms")
    if "last_used" in rec:
        try:
            datetime.fromisoformat(str(rec["last_used"]).replace("Z", "+00:00"))
        except ValueError:
            fail(f"{where}: last_used not ISO 8601")
    if "execution" in rec:
        need(rec["execution"] in EXECUTIONS, f"{where}: bad execution")
    for key in ("input_type", "output_type"):
        if key in rec:
            for p in lat.undeclared(rec[key]):
                fail(f"{where}: {key} {rec[key]!r}: {p}")
    for r in rec.get("relations", []):
        need(set(r) == {"type", "target"}, f"{where}: relation keys {sorted(r)}")
        need(r.get("type") in RELATIONS, f"{where}: bad relation type {r.get('type')!r}")


def main() -> int:
    loaded = load()
    errors.extend(loaded.problems)

    # ---- types
    decls = [t for t, _ in loaded.types]
    for t, src in loaded.types:
        for k in set(t) - TYPE_KEYS:
            fail(f"{src}: type {t.get('type')}: unknown key {k!r}")
        need(t.get("type") != "Any", f"{src}: 'Any' must not be declared")
    names = [t["type"] for t in decls]
    for n, c in Counter(names).items():
        need(c == 1, f"type {n} declared {c} times")
    lat = Lattice(decls)
    for t in decls:
        for p in t.get("subtype_of", []):
            need(p in lat.params, f"type {t['type']}: undeclared supertype {p!r}")
    cycle = lat.find_cycle()
    need(cycle is None, f"subtype cycle: {' -> '.join(cycle or [])}")
    multi = [t["type"] for t in decls if len(t.get("subtype_of", [])) > 1]
    depth3 = [n for n in lat.params if len(lat.ancestors(n)) >= 3]
    ctors = [t["type"] for t in decls if t.get("params")]

    # ---- entries
    for rec, src in loaded.entries:
        check_entry(rec, src, lat)
    pairs = Counter((r["id"], r.get("version", "0.1.0")) for r, _ in loaded.entries)
    for (i, v), c in pairs.items():
        need(c == 1, f"({i}, {v}) appears {c} times")
    # version histories: same id more than once -> older version first, same file
    where_by_id: dict[str, list] = defaultdict(list)
    for rec, src in loaded.entries:
        where_by_id[rec["id"]].append((src, rec.get("version", "0.1.0")))
    multi_version = {i: w for i, w in where_by_id.items() if len(w) > 1}
    for i, w in multi_version.items():
        files = {s.split(":")[0] for s, _ in w}
        need(len(files) == 1, f"{i}: versions spread over files {sorted(files)}")
        vs = [semver_key(v) for _, v in w]
        need(vs == sorted(vs), f"{i}: versions not oldest-first: {[v for _, v in w]}")

    latest = loaded.latest()
    ids = set(latest)
    for rec, src in loaded.entries:
        for r in rec.get("relations", []):
            need(r["target"] in ids, f"{src} [{rec['id']}]: relation target {r['target']!r} missing")
            need(r["target"] != rec["id"], f"{src} [{rec['id']}]: relation to itself")

    L = list(latest.values())
    n = len(L)
    status = Counter(e.get("status", "active") for e in L)
    kinds = Counter(e.get("entity_type", "tool") for e in L)
    execs = Counter(e.get("execution") for e in L if e.get("execution"))
    low = [e["id"] for e in L if e.get("success_rate") is not None and e["success_rate"] <= 0.5]
    lats = [e["latency_ms"] for e in L if "latency_ms" in e]
    uses = [e.get("usage_count", 0) for e in L]
    years = Counter(e["last_used"][:4] for e in L if "last_used" in e)
    named = [e["id"] for e in L if e["name"] != e["id"]]

    edges = defaultdict(list)
    for e in L:
        for r in e.get("relations", []):
            edges[r["type"]].append((e["id"], r["target"]))
    for src_id, tgt in edges["forged_by"]:
        need(latest[tgt].get("entity_type") == "agent", f"{src_id}: forged_by {tgt} which is not an agent")
    for src_id, tgt in edges["implements"]:
        need(latest[tgt].get("entity_type") in ("other", "prompt"), f"{src_id}: implements {tgt} (not other/prompt)")

    # successor chains: maximal chains following successor_to backwards from heads
    succ_of = defaultdict(list)  # old -> [new]
    pred = {}
    for new, old in edges["successor_to"]:
        succ_of[old].append(new)
        pred[new] = old
    chains = []
    for head in ids:
        if head in pred and head not in succ_of:  # newest generation
            chain = [head]
            while chain[-1] in pred:
                chain.append(pred[chain[-1]])
            chains.append(list(reversed(chain)))
    long_chains = [c for c in chains if len(c) >= 3]
    for c in chains:
        for old in c[:-1]:
            need(latest[old].get("status") in ("deprecated", "retired"),
                 f"chain {' -> '.join(c)}: {old} is superseded but {latest[old].get('status')}")

    # per-domain (JSONL files under artifacts/)
    per_domain: dict[str, set] = defaultdict(set)
    for rec, src in loaded.entries:
        if src.startswith("artifacts/"):
            per_domain[Path(src.split(":")[0]).stem].add(rec["id"])
    manifests = {s for _, s in loaded.entries if s.startswith("manifests/")}
    manifest_entries = [r for r, s in loaded.entries if s.startswith("manifests/")]
    card_entries = [r for r, s in loaded.entries if s.startswith("cards/")]

    need(n >= 320, f"only {n} unique artifacts (need >= 320)")
    need(len(per_domain) >= 10, f"only {len(per_domain)} domain files")
    for d, s in per_domain.items():
        need(len(s) >= 12, f"domain {d} has only {len(s)} artifacts")
    need(len(decls) >= 45, f"only {len(decls)} types")
    need(len(multi) >= 3, "need a few multiple-inheritance types")
    need(len(manifest_entries) >= 12, f"only {len(manifest_entries)} manifest entries")
    need(len(card_entries) >= 12, f"only {len(card_entries)} card entries")
    need(len(multi_version) >= 10, f"only {len(multi_version)} ids with several versions")
    frac = {k: status[k] / n for k in STATUSES}
    need(0.06 <= frac["deprecated"] <= 0.11, f"deprecated {frac['deprecated']:.1%} (want ~8%)")
    need(0.03 <= frac["retired"] <= 0.06, f"retired {frac['retired']:.1%} (want ~4%)")
    need(0.06 <= frac["experimental"] <= 0.11, f"experimental {frac['experimental']:.1%} (want ~8%)")
    need(0.08 <= len(low) / n <= 0.13, f"success<=0.5: {len(low) / n:.1%} (want ~10%)")
    need(min(lats) <= 25 and max(lats) >= 25000 and max(lats) <= 30000, f"latency range {min(lats)}..{max(lats)}")
    need(max(uses) <= 50000 and min(uses) == 0 and max(uses) >= 45000, f"usage range {min(uses)}..{max(uses)}")
    need(all(years[y] for y in ("2024", "2025", "2026")), f"last_used years {dict(years)}")
    need(len(execs) == 3, f"execution kinds {dict(execs)}")
    need(len(chains) >= 15, f"only {len(chains)} successor chains")
    need(len(long_chains) >= 3, f"only {len(long_chains)} chains of length >= 3")
    need(len(edges["depends_on"]) >= 60, f"only {len(edges['depends_on'])} depends_on edges")
    need(len(edges["forged_by"]) >= 25, f"only {len(edges['forged_by'])} forged_by edges")
    need(len(edges["implements"]) >= 15, f"only {len(edges['implements'])} implements edges")
    need(len(edges["similar_to"]) >= 5, f"only {len(edges['similar_to'])} similar_to edges")

    # ---- seed scenario
    def get(i):
        e = latest.get(i)
        need(e is not None, f"seed artifact {i} missing")
        return e or {}

    fpa = get("FinancialPDFAnalyzer")
    need(fpa.get("entity_type") == "agent" and fpa.get("status") == "active", "FinancialPDFAnalyzer: active agent")
    need(fpa.get("input_type") in ("PDF", "FinancialPDF"), "FinancialPDFAnalyzer input")
    need(lat.is_subtype(fpa.get("output_type", "Any"), "SentimentScore"), "FinancialPDFAnalyzer output <: SentimentScore")
    need(fpa.get("execution") == "local" and "deterministic" in fpa.get("contracts", []), "FinancialPDFAnalyzer local+deterministic")
    need(fpa.get("success_rate", 0) >= 0.9 and 500 <= fpa.get("latency_ms", 0) <= 1200, "FinancialPDFAnalyzer health")
    need(get("PDFParser").get("status") == "deprecated", "PDFParser deprecated")
    p2 = get("PDFParser_v2")
    need(p2.get("status") == "active" and (p2.get("input_type"), p2.get("output_type")) == ("PDF", "Text")
         and ("PDFParser_v2", "PDFParser") in edges["successor_to"], "PDFParser_v2")
    se = get("SentimentEngine")
    need((se.get("input_type"), se.get("output_type")) == ("Text", "SentimentScore"), "SentimentEngine types")
    need(("Summarizer_v4", "Summarizer_v3") in edges["successor_to"], "Summarizer_v4 successor_to Summarizer_v3")
    npz = get("NewsParser")
    need(npz.get("input_type") in ("RawHTML", "HTMLDocument") and npz.get("output_type") == "NewsArticle", "NewsParser types")
    need(sum(1 for s, _ in edges["depends_on"] if s == "StockTicker") >= 3, "StockTicker needs several depends_on")
    need(any(t == "BaseScraper" for _, t in edges["successor_to"]), "BaseScraper needs descendants")
    active = [e for e in L if e.get("status", "active") == "active"]
    def shortest(src, dst):
        ps = paths(lat, active, src, dst)
        return sorted({len(p) for p in ps})
    r2s = shortest("RawHTML", "Summary")
    need(2 in r2s and 3 in r2s, f"RawHTML -> Summary path lengths {r2s}")
    p2s = shortest("PDF", "SentimentScore")
    need(1 in p2s and 2 in p2s, f"PDF -> SentimentScore path lengths {p2s}")
    d2d = shortest("DataSource", "Database")
    need(1 in d2d and 2 in d2d, f"DataSource -> Database path lengths {d2d}")
    pdf_sent = compatible(lat, active, "PDF", "SentimentScore")
    need(any(e.get("success_rate", 1) <= 0.5 for e in pdf_sent) and len(pdf_sent) >= 2,
         "need near-duplicate PDF->SentimentScore competitors with different health")

    # ---- queries
    queries = load_queries()
    qids = Counter(q.get("qid") for q in queries)
    for q, c in qids.items():
        need(c == 1, f"qid {q} used {c} times")
    for q in queries:
        w = f"query {q.get('qid')}"
        for k in set(q) - QUERY_KEYS:
            fail(f"{w}: unknown key {k!r}")
        need(q.get("class") in QUERY_CLASSES, f"{w}: bad class {q.get('class')!r}")
        need(isinstance(q.get("query"), str) and q["query"].strip() != "", f"{w}: empty query")
        rel = q.get("relevant")
        need(isinstance(rel, dict) and len(rel) >= 1, f"{w}: relevant must be a non-empty mapping")
        for rid, g in (rel or {}).items():
            need(rid in ids, f"{w}: relevant id {rid!r} not in catalog")
            need(g in (1, 2, 3), f"{w}: grade {g!r} for {rid}")
        need(any(g == 3 for g in (rel or {}).values()), f"{w}: no grade-3 artifact")
        if q.get("class") in ("type_compat", "composition"):
            for rid, g in (rel or {}).items():
                if rid in latest and latest[rid].get("status") in ("deprecated", "retired"):
                    need(g <= 1, f"{w}: {rid} is {latest[rid]['status']} but graded {g} (max 1)")
        if "constraints" in q:
            need(isinstance(q["constraints"], list) and all(isinstance(c, str) for c in q["constraints"]),
                 f"{w}: constraints must be a list of strings")
    per_class = Counter(q.get("class") for q in queries)
    need(len(queries) >= 160, f"only {len(queries)} queries")
    for c in QUERY_CLASSES:
        need(per_class[c] >= 25, f"class {c}: only {per_class[c]} queries")
    texts = Counter(q.get("query", "").strip().lower() for q in queries)
    for t, c in texts.items():
        need(c == 1, f"query text repeated {c} times: {t!r}")

    # ---- report
    print("catalog_fixtures summary")
    print(f"  files read: {len(loaded.files)}  (manifest files {len(manifests)}, manifest entries "
          f"{len(manifest_entries)}, cards {len(card_entries)})")
    print(f"  artifacts: {n} unique ids, {len(loaded.entries)} entry versions, "
          f"{len(multi_version)} ids with version history")
    print(f"  domains ({len(per_domain)}): " + ", ".join(f"{d}={len(s)}" for d, s in sorted(per_domain.items())))
    print(f"  entity types: {dict(kinds.most_common())}")
    print("  status: " + ", ".join(f"{k}={status[k]} ({status[k] / n:.1%})" for k in
                                   ("active", "experimental", "deprecated", "retired")))
    print(f"  success_rate <= 0.5: {len(low)} ({len(low) / n:.1%}); latency {min(lats)}..{max(lats)} ms; "
          f"usage {min(uses)}..{max(uses)}; execution {dict(execs)}; last_used years {dict(sorted(years.items()))}")
    print(f"  names differing from id: {len(named)}")
    print(f"  types: {len(decls)} ({len(ctors)} constructors, {len(multi)} with multiple supertypes, "
          f"{len(depth3)} at depth >= 2)")
    print(f"  relations: " + ", ".join(f"{k}={len(v)}" for k, v in sorted(edges.items())))
    print(f"  successor chains: {len(chains)} ({len(long_chains)} of length >= 3: "
          + "; ".join(" -> ".join(c) for c in sorted(long_chains)) + ")")
    print(f"  composition path lengths: RawHTML->Summary {r2s}, PDF->SentimentScore {p2s}, "
          f"DataSource->Database {d2d}")
    print(f"  queries: {len(queries)} " + str({c: per_class[c] for c in QUERY_CLASSES}))
    if errors:
        print(f"\n{len(errors)} problem(s):")
        for e in errors:
            print("  - " + e)
        return 1
    print("\nall checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
