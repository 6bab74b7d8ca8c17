"""A LangChain retriever over an open LGent: ``LGentRetriever(lgent=lg).invoke("...")``.

Each document's ``page_content`` is the artifact's name, kind, signature and description; its
``id`` and ``metadata["id"]`` are the artifact id, and the metadata carry kind, version, status,
types, owner, health flags, why it matched and the fused score. Needs ``langchain-core``
(``pip install 'lgent[langchain]'``).
"""

from __future__ import annotations

from pydantic import ConfigDict, Field, field_validator

try:
    from langchain_core.callbacks import (
        AsyncCallbackManagerForRetrieverRun,
        CallbackManagerForRetrieverRun,
    )
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "lgent.retrievers.langchain needs langchain-core: pip install 'lgent[langchain]'"
    ) from err

from lgent.lgent import LGent
from lgent.retrievers.found import Found, check_k, find, run_sync


def _document(item: Found) -> Document:
    return Document(id=item.id, page_content=item.text, metadata=item.metadata)


class LGentRetriever(BaseRetriever):
    """The ``k`` best artifacts for a query, as LangChain documents, from an open LGent.

    ``constraints`` are hard filters on every query (``["local execution"]``). The LGent stays
    owned by the caller (open it with ``LGent.open_sync`` or ``async with LGent.open``)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    lgent: LGent
    k: int = 4
    constraints: list[str] = Field(default_factory=list)

    @field_validator("k")
    @classmethod
    def _k_in_range(cls, k: int) -> int:
        check_k(k)
        return k

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return [_document(f) for f in run_sync(find(self.lgent, query, self.k, self.constraints))]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        return [_document(f) for f in await find(self.lgent, query, self.k, self.constraints)]
