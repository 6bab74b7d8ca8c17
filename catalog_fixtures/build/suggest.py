"""Labelling aid: list type-compatible artifacts and composition paths for a type pair.

    python suggest.py compat PDF SentimentScore      # input accepts PDF, output <: SentimentScore
    python suggest.py compat PDF -                   # anything that accepts PDF
    python suggest.py compat - Summary               # anything producing a Summary
    python suggest.py paths RawHTML Summary          # chains of <= 3 active runnable artifacts

It prints candidates for a person to grade; it assigns no grades itself.
"""
import sys
sys.dont_write_bytecode = True
from catalog_io import load
from lattice import Lattice, compatible, paths

loaded = load()
lat = Lattice([t for t, _ in loaded.types])
latest = list(loaded.latest().values())
RUNNABLE = {"agent", "tool", "pipeline", "model"}


def show(e):
    return (f"{e['id']} [{e.get('entity_type')}/{e.get('status')}/{e.get('success_rate', '-')}] "
            f"{e.get('input_type')} -> {e.get('output_type')}")


mode, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
src = None if src == "-" else src
dst = None if dst == "-" else dst
if mode == "compat":
    for e in sorted(compatible(lat, latest, src, dst), key=lambda e: e["id"]):
        print(show(e))
else:
    active = [e for e in latest if e.get("status") == "active" and e.get("entity_type") in RUNNABLE]
    ps = paths(lat, active, src, dst)
    members = {}
    for p in sorted(ps, key=len):
        print(len(p), " >> ".join(f"{e['id']}({e.get('success_rate')})" for e in p))
        for e in p:
            members.setdefault(e["id"], len(p))
    print("\nmembers (shortest path length):", sorted(members.items(), key=lambda kv: (kv[1], kv[0])))
    others = [e for e in latest if e.get("status") != "active" or e.get("entity_type") not in RUNNABLE]
    print("non-active / non-runnable one-hop:", [show(e) for e in compatible(lat, others, src, dst)])
