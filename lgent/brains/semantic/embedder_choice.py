"""The embedder the settings ask for: ``semantic.embedder`` and ``semantic.model_path``."""

from __future__ import annotations

from lgent.brains.semantic.embedders import Embedder, SentenceTransformerEmbedder
from lgent.brains.semantic.settings import SemanticSettings


def configured_embedder(settings: SemanticSettings) -> Embedder:
    """The ONNX embedder for the packaged model (unless sentence-transformers is asked for),
    sentence-transformers for a ``model_path`` folder, multilingual-e5-small for
    ``multilingual``. Nothing is loaded yet; a missing package
    or folder raises ``ModelUnavailableError`` saying what to install."""
    if settings.embedder == "multilingual":
        from lgent.brains.semantic.multilingual_embedder import MultilingualEmbedder

        return MultilingualEmbedder()
    if settings.embedder == "sentence-transformers" or settings.model_path is not None:
        return SentenceTransformerEmbedder(settings.model_path, settings.batch_size)
    from lgent.brains.semantic.onnx_embedder import OnnxEmbedder

    return OnnxEmbedder(settings.batch_size)
