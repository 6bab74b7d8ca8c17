"""Graph brain: type lattice, lineage graph and composition search (pure algorithms)."""
