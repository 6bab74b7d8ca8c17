"""A LlamaIndex retriever over an open LGent: ``LGentRetriever(lg).retrieve("...")``.

Each node's text is the artifact's name, kind, signature and description; its ``node_id`` and
``metadata["id"]`` are the artifact id, the metadata carry kind, version, status, types, owner,
health flags and why it matched, and the node's score is the fused score. Needs
``llama-index-core`` (``pip install 'lgent[llamaindex]'``).
"""

from __future__ import annotations

from collections.abc import Sequence

try:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "lgent.retrievers.llama_index needs llama-index-core: pip install 'lgent[llamaindex]'"
    ) from err

from lgent.lgent import LGent
from lgent.retrievers.found import Found, checked_arguments, find, run_sync


def _node(item: Found) -> NodeWithScore:
    node = TextNode(id_=item.id, text=item.text, metadata=item.metadata)
    return NodeWithScore(node=node, score=item.score)


class LGentRetriever(BaseRetriever):
    """The ``k`` best artifacts for a query, as LlamaIndex nodes, from an open LGent.

    ``constraints`` are hard filters on every query (``["local execution"]``). The LGent stays
    owned by the caller."""

    def __init__(self, lgent: LGent, k: int = 4, constraints: Sequence[str] = ()) -> None:
        super().__init__()
        self.constraints = checked_arguments(lgent, k, constraints)
        self.lgent = lgent
        self.k = k

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        work = find(self.lgent, query_bundle.query_str, self.k, self.constraints)
        return [_node(f) for f in run_sync(work)]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        found = await find(self.lgent, query_bundle.query_str, self.k, self.constraints)
        return [_node(f) for f in found]
