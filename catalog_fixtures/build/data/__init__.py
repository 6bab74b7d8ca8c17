"""Hand-written catalog data, one module per domain (module name = artifacts/<domain>.jsonl)."""

DOMAINS = [
    "documents",
    "web",
    "finance",
    "nlp",
    "summarization",
    "formats",
    "databases",
    "code",
    "vision",
    "scheduling",
    "messaging",
    "translation",
    "search",
    "monitoring",
    "platform",
]
