"""L-gent's JSON HTTP API: ``lgent serve --http`` (see ``lgent.http.app``).

Importing this package loads nothing heavy; ``lgent.http.app`` imports FastAPI.
"""
