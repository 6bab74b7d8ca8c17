"""The semantic brain: intent search over entry embeddings in faiss.

Heavy packages (onnxruntime, torch, sentence-transformers, faiss) are imported inside the functions that need
them, never when this package is imported.
"""
