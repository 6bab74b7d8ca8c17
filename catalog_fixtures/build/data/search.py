from dsl import E

ENTRIES = [
    E("EmbedderInterface", "other", "1.0.0", "active", "Text -> Embedding",
      """Interface for embedders: a batch of strings in, fixed-size float vectors out,
      L2-normalised; model name and dimension declared.""",
      "interface, embeddings, spec", "search-relevance", "",
      "- 0 - - -", fmt="json", file="manifests/embedder-interface.json"),
    E("EmbeddingGenerator", "tool", "1.3.0", "deprecated", "Text -> Embedding",
      """Embeds text with a 384-dimension MiniLM model on CPU. Slow on long inputs, and anything
      past 256 tokens is cut off.""",
      "embeddings, minilm, vectors", "search-relevance", "deterministic",
      "0.90 39000 2026-05-30T10:00 90 local", "impl:EmbedderInterface"),
    E("EmbeddingGenerator_v2", "tool", "2.2.0", "active", "List[DocumentChunk] -> List[Embedding]",
      """Batched embeddings for passages with a 1024-dimension multilingual model, on GPU when
      one is available, with a content-hash cache so repeated passages cost nothing.""",
      "embeddings, vectors, multilingual, batch", "search-relevance",
      "deterministic, cached, requires_gpu",
      "0.98 48200 2026-11-21T16:10 220 hybrid",
      "succ:EmbeddingGenerator impl:EmbedderInterface"),
    E("CorpusIndexer", "pipeline", "1.4.0", "active", "List[Document] -> VectorStore",
      """Chunks, embeds and loads a batch of documents into the vector store, replacing stale
      chunks when a document changes.""",
      "indexing, rag, ingestion, vector store", "search-relevance", "idempotent",
      "0.95 7300 2026-11-21T03:00 19000 hybrid",
      "dep:DocumentChunker,EmbeddingGenerator_v2,VectorStoreWriter"),
    E("VectorStoreWriter", "tool", "1.1.0", "active", "List[Embedding] -> VectorStore",
      """Upserts vectors with their metadata into pgvector or Qdrant collections and creates an
      HNSW index on first write.""",
      "pgvector, qdrant, upsert, hnsw", "search-relevance", "idempotent",
      "0.98 22000 2026-11-21T03:00 350 cloud", "impl:DBConnectorProtocol"),
    E("SemanticSearch", "tool", "2.0.0", "active", "SearchQuery -> SearchResults",
      """Finds passages by meaning: embeds the query and returns the nearest chunks with scores
      and links to their sources.""",
      "semantic search, vector search, embeddings, knowledge base", "search-relevance", "",
      "0.93 35000 2026-11-21T16:55 120 cloud", "dep:EmbeddingGenerator_v2",
      fmt="yaml", file="manifests/semantic-search.yaml"),
    E("BM25Search", "tool", "1.5.0", "active", "SearchQuery -> SearchResults",
      """Classic keyword search (BM25) over the document index, with phrase queries and field
      boosts.""",
      "bm25, keyword search, full text, lexical", "search-relevance", "deterministic",
      "0.96 29000 2026-11-21T16:55 40 local"),
    E("HybridSearch", "tool", "1.2.0", "active", "SearchQuery -> SearchResults",
      """Combines keyword and vector search with reciprocal rank fusion, then reranks the top 50
      with a cross-encoder.""",
      "hybrid search, rrf, reranking, retrieval", "search-relevance", "",
      "0.95 31500 2026-11-21T16:55 260 cloud",
      "dep:BM25Search,SemanticSearch,CrossEncoderReranker sim:SemanticSearch",
      fmt="card", file="cards/hybrid-search.md", body="""
## Why hybrid
Keyword search nails part numbers, error codes and names; vector search finds paraphrases.
HybridSearch runs both, fuses the two rankings with reciprocal rank fusion (k = 60), and
lets a cross-encoder reorder the top 50.

## Parameters
- `top_k` (default 10), `candidates` (default 50, the reranker's budget).
- `filters`: any metadata field stored with the chunks (product, language, updated_after).
- `rerank: false` skips the cross-encoder when you need answers in under 100 ms.

## Quality
On the support knowledge base it beats either search alone by 6-9 nDCG@10 points
(SearchRelevanceJudgments, October 2026 run).
"""),
    E("CrossEncoderReranker", "model", "1.0.0", "active", "SearchResults -> SearchResults",
      """Re-scores candidate passages against the query with a cross-encoder: better ordering at
      roughly 5 ms per candidate.""",
      "reranker, cross-encoder, relevance", "search-relevance", "deterministic, requires_gpu",
      "0.97 30000 2026-11-21T16:55 250 hybrid"),
    E(("RAGAnswerer", "Knowledge Base Answerer (RAG)"), "agent", "2.1.0", "active", "Question -> Answer",
      """Answers questions from the company knowledge base: retrieves passages, writes an answer
      with inline citations, and says so when the sources do not cover the question.""",
      "rag, question answering, knowledge base, citations", "search-relevance", "",
      "0.88 26500 2026-11-21T16:55 4800 cloud", "dep:HybridSearch,GroundedAnswerPrompt",
      fmt="card", file="cards/rag-answerer.md", body="""
## What to expect
Answers are short (under 150 words) and every sentence carries a citation like `[2]`
linking to the passage it came from. If the retrieved passages do not contain the answer,
it replies that the knowledge base does not cover the question instead of guessing.

## Scope
Indexed: help centre, internal wiki (public spaces), product docs. Not indexed: tickets,
Slack, anything marked confidential.

## Tuning
Low-confidence answers (reranker score < 0.3 on all passages) are routed to a person when
called from the support widget. CitationChecker runs on a 5% sample every night.
"""),
    E("GroundedAnswerPrompt", "prompt", "1.3.0", "active", "",
      """Answer only from the supplied passages, cite them as [n], and reply 'not in the
      sources' otherwise.""",
      "prompt, grounding, citations, rag", "PromptSmith", "",
      "0.89 26500 2026-11-21T16:55 - cloud", "forge:PromptSmith"),
    E("QueryRewriter", "tool", "1.0.0", "active", "SearchQuery -> SearchQuery",
      """Expands short or ambiguous search queries with synonyms and spelling fixes, and splits
      compound questions into separate queries.""",
      "query expansion, synonyms, spelling", "search-relevance", "",
      "0.85 14000 2026-11-21T16:55 600 hybrid"),
    E("FAQMatcher", "tool", "1.4.0", "active", "Question -> Answer",
      """Matches a question to the closest curated FAQ entry and returns that entry's answer if
      the similarity is high enough, otherwise nothing.""",
      "faq, matching, support, canned answers", "support-tools", "deterministic",
      "0.90 18600 2026-11-21T16:50 70 local", "dep:EmbeddingGenerator_v2"),
    E("KeywordIndexBuilder", "tool", "3.0.0", "deprecated", "List[Document] -> DocumentStore",
      """Rebuilt the old Solr keyword index every night. Replaced by the tantivy-backed index
      behind BM25Search.""",
      "solr, indexing, keyword index, legacy", "search-relevance", "",
      "0.78 3100 2025-11-05T02:00 26000 local"),
    E("SearchRelevanceJudgments", "dataset", "2026.10.0", "active", "",
      """5,000 query-document pairs graded 0 to 3 by support agents, for tuning and
      regression-testing search.""",
      "dataset, relevance judgments, evaluation, ndcg", "search-relevance", "",
      "- 64 2026-10-20T10:00 - -"),
    E("SimilarDocFinder", "tool", "1.0.0", "active", "Document -> List[Document]",
      """Given one document, finds the most similar ones in the index, for 'related articles'
      boxes and duplicate checks.""",
      "related content, similar documents, recommendations", "search-relevance", "",
      "0.92 9600 2026-11-21T16:00 300 cloud", "dep:SemanticSearch"),
    E("CitationChecker", "tool", "0.4.0", "experimental", "Answer -> Report",
      """Verifies that each cited passage really supports the sentence that cites it and flags
      unsupported claims.""",
      "citations, grounding, hallucination, verification", "search-relevance", "",
      "0.67 450 2026-11-21T02:00 3300 cloud"),
    E("ColBERTIndex", "tool", "0.2.0", "experimental", "List[DocumentChunk] -> VectorStore",
      """Late-interaction (ColBERT v2) index for better recall on long-tail queries; large on
      disk.""",
      "colbert, late interaction, retrieval", "search-relevance", "requires_gpu",
      "0.73 120 2026-11-14T10:00 5000 local"),
    E("SpellCorrector", "tool", "1.0.0", "active", "SearchQuery -> SearchQuery",
      """Fixes typos in search queries using the index vocabulary, so product names and jargon
      are corrected towards terms that actually exist.""",
      "spelling, typos, did you mean", "search-relevance", "deterministic",
      "0.94 27000 2026-11-21T16:55 20 local"),
]
