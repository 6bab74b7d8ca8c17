"""The catalog graph model: type lattice, lineage, composition tables and the artifact table
(``CatalogGraph``), read through ``GraphReader``; path search as free functions (``paths``).

The graph brain (``lgent/brains/graph``) answers questions from it; the resolver, fusion and
serving read it through ``GraphReader``, never through the brain."""
