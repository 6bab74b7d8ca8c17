"""The labeled composition benchmark over the shared ecosystem (issue 31):
``questions.jsonl`` (the judged questions), ``questions.py`` (reading them, the scoring rules)
and ``__main__.py`` (``python -m benchmarks.composition``)."""
