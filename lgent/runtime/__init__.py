"""How work runs: the brain pool (each brain opened when first needed, pinned by the queries
reading it, caught up by its own indexer), catch-up and rebuild planning, the readers-writer
lock, background priority, and the doors every call of the facade goes through."""
