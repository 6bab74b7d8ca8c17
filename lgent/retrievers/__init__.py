"""Retrievers for agent frameworks over one open LGent: ``lgent.retrievers.langchain``
(``pip install 'lgent[langchain]'``) and ``lgent.retrievers.llama_index``
(``pip install 'lgent[llamaindex]'``). Each module imports its framework; this package does not.
"""
