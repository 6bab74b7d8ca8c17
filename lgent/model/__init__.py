"""Where L-gent's models are defined, by family: the strict base (``strict``), catalog entries
(``entries``) and type declarations (``type_decls``). Import them from ``lgent.models``, the
one public door, which also holds the query, search and resolution answers."""
