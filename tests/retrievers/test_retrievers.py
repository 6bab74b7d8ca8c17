"""The LangChain and LlamaIndex retrievers, through the frameworks' own interfaces (``invoke``,
``ainvoke``, ``batch``, a runnable chain; ``retrieve``, ``aretrieve``) with the real packages."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from lgent import LGent, QueryError
from lgent.serving import PAGE_DEPTH

if TYPE_CHECKING:
    from lgent.brains.semantic.embedders import Embedder

pytestmark = pytest.mark.real_model

QUERY = "extract tables from PDF files"


@pytest.fixture(scope="module")
def lg(example_home: Path, real_embedder: Embedder) -> Iterator[LGent]:
    opened = LGent.open_sync(example_home, embedder=real_embedder)
    yield opened
    opened.close()


def ranking(lg: LGent, query: str, k: int, constraints: list[str] | None = None) -> list[str]:
    """The ids the library ranks first for ``query`` (the servers' page of the same query)."""
    response = asyncio.run(lg.query(query, constraints, None, PAGE_DEPTH, lenient=True))
    return [r.id for r in response.results[:k]]


def test_langchain_retriever_through_its_own_interface(lg: LGent) -> None:
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import RunnableLambda

    from lgent.retrievers.langchain import LGentRetriever

    retriever = LGentRetriever(lgent=lg, k=5)
    assert isinstance(retriever, BaseRetriever)
    documents = retriever.invoke(QUERY)
    assert all(isinstance(d, Document) for d in documents)
    assert [d.id for d in documents] == ranking(lg, QUERY, 5)
    first = documents[0]
    entry = asyncio.run(lg.get(first.id or ""))
    assert first.metadata["id"] == entry.id and first.metadata["version"] == entry.version
    assert first.metadata["input_type"] == entry.input_type and first.metadata["why"]
    assert entry.description in first.page_content

    assert [d.id for d in asyncio.run(retriever.ainvoke(QUERY))] == [d.id for d in documents]
    batched = retriever.batch([QUERY, "PDF -> SentimentScore"])
    assert [d.id for d in batched[1]] == ranking(lg, "PDF -> SentimentScore", 5)
    chain = retriever | RunnableLambda(lambda docs: [d.metadata["name"] for d in docs])
    assert len(chain.invoke("PDFParser")) == 5

    local = LGentRetriever(lgent=lg, k=10, constraints=["local execution"]).invoke(QUERY)
    assert local and {d.metadata["execution"] for d in local} == {"local"}
    assert [d.id for d in local] == ranking(lg, QUERY, 10, ["local execution"])
    with pytest.raises(QueryError, match=f"k must be an integer from 1 to {PAGE_DEPTH}"):
        LGentRetriever(lgent=lg, k=0)


def test_llama_index_retriever_through_its_own_interface(lg: LGent) -> None:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle

    from lgent.retrievers.llama_index import LGentRetriever

    retriever = LGentRetriever(lg, k=5)
    assert isinstance(retriever, BaseRetriever)
    nodes = retriever.retrieve(QUERY)
    assert all(isinstance(n, NodeWithScore) for n in nodes)
    assert [n.node.node_id for n in nodes] == ranking(lg, QUERY, 5)
    assert [n.node.metadata["id"] for n in nodes] == [n.node.node_id for n in nodes]
    assert all(n.score is not None and n.score > 0 for n in nodes)
    deprecated = retriever.retrieve(QueryBundle(query_str="PDFParser"))
    flagged = next(n for n in deprecated if n.node.node_id == "PDFParser")
    assert flagged.node.metadata["flags"][0] == "deprecated, use PDFParser_v2"
    assert [n.node.node_id for n in asyncio.run(retriever.aretrieve(QUERY))] == [
        n.node.node_id for n in nodes
    ]
    with pytest.raises(QueryError):
        LGentRetriever(lg, k=101)
    # checked where it is built, as LangChain's retriever is, not at the first query
    with pytest.raises(QueryError, match="lgent: expected an open LGent, got NoneType"):
        LGentRetriever(None)  # type: ignore[arg-type]
    with pytest.raises(QueryError, match=r"got the string 'local execution' \(write \["):
        LGentRetriever(lg, constraints="local execution")
    with pytest.raises(QueryError, match=r"constraints\[0\]: expected a string, got int"):
        LGentRetriever(lg, constraints=[3])  # type: ignore[list-item]


async def test_a_sync_call_from_inside_a_running_loop(lg: LGent) -> None:
    """``invoke`` and ``retrieve`` also work where an event loop already runs (a notebook)."""
    from lgent.retrievers.langchain import LGentRetriever as LangChainRetriever
    from lgent.retrievers.llama_index import LGentRetriever as LlamaRetriever

    documents = LangChainRetriever(lgent=lg, k=3).invoke(QUERY)
    nodes = LlamaRetriever(lg, k=3).retrieve(QUERY)
    assert [d.id for d in documents] == [n.node.node_id for n in nodes]
