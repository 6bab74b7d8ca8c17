"""Text analysis every brain shares: words, identifier parts, stop words and stems.

One rule each, in its own module: ``tokens`` (words and analyzed tokens), ``identifiers``
(splitting ``PDFParser_v2`` into parts, merged forms), ``stopwords`` and ``stemming``.
"""
