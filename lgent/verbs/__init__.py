"""The facade's verbs, by what they work on: the catalog (``CatalogVerbs``) and the catalog
graph (``GraphVerbs``). ``LGent`` (``lgent/lgent.py``) is made of them, with the verbs that ask
the brains."""
