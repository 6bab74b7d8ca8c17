"""Print a compact one-line-per-artifact overview (a reading aid while labelling queries)."""
import sys
sys.dont_write_bytecode = True
from catalog_io import load

latest = load().latest()
for e in sorted(latest.values(), key=lambda e: e["id"].lower()):
    rel = " ".join(f"{r['type'][:4]}:{r['target']}" for r in e.get("relations", []))
    print(f"{e['id']:<28} {e.get('entity_type','tool')[:5]:<5} {e.get('status','active')[:5]:<5} "
          f"{e.get('success_rate','-')!s:<5} {e.get('input_type','-')} -> {e.get('output_type','-')} | "
          f"{e.get('author','')} | {rel}")
