"""The benchmark harness shared by every benchmark in ``benchmarks/``.

* ``synthetic``: a deterministic synthetic catalog of any size;
* ``pypi``: the real PyPI names-and-summaries corpus, as catalog entry dicts (when present);
* ``runner``: machine description, latency statistics, tables, and ``docs/benchmarks.md``.
"""
