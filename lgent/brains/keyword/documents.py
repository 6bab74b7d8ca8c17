"""The tantivy document of a catalog entry, made with few Python calls and each distinct word
analyzed once per build.

Analyzed fields hold the tokens of ``lgent.analysis`` as one string, separated by single
spaces, in a field that tantivy's ``whitespace`` tokenizer reads: it gives back the same
tokens at the same positions (0, 1, 2 ... per value, as ``tokens`` numbers them) and the
same field lengths as pre-tokenized text would, without tantivy encoding every token of a
pre-tokenized value as JSON on its way into the index (which made builds several times slower).
A token never holds whitespace: it is a run of letters and digits, or a type name.
"""

from __future__ import annotations

import tantivy

from lgent.analysis.identifiers import merged_runs
from lgent.analysis.stemming import stem
from lgent.analysis.tokens import is_stop_word, tokens, word_parts, words
from lgent.brains.keyword.typefields import type_tokens
from lgent.models import CatalogEntry, author_key

TOKEN_TOKENIZER = "whitespace"
"""tantivy's built-in tokenizer of the analyzed fields: splits on whitespace, changes nothing."""
MAX_WORDS = 50_000
"""Distinct words a ``DocumentMaker`` remembers the analysis of (the first seen: a catalog's
common words come early); later ones are analyzed each time they come. About 15 MiB."""
MAX_EXACT = 20_000
"""Distinct name and keyword words it remembers the exact forms of (most names are unique)."""


Word = tuple[str, bool, tuple[str, ...]]
"""A word analyzed: its stemmed tokens joined by spaces, whether it is a stop word (dropped
where stop words are), and its lowercased identifier parts."""


class DocumentMaker:
    """Makes the tantivy documents of entries; one per build or update: it remembers the
    analysis of every word it has seen (most words of a catalog recur)."""

    def __init__(self) -> None:
        self._words: dict[str, Word] = {}
        self._exact: dict[str, tuple[str, ...]] = {}

    # -- words -----------------------------------------------------------------------------

    def word(self, word: str) -> Word:
        """``word`` analyzed (remembered)."""
        known = self._words.get(word)
        if known is None:
            parts = word_parts(word)
            known = (
                " ".join([stem(part) for part, _, _ in parts]),
                is_stop_word(parts),
                tuple([word[a:b].lower() for _, a, b in parts]),
            )
            if len(self._words) < MAX_WORDS:
                self._words[word] = known
        return known

    def exact_forms(self, word: str) -> tuple[str, ...]:
        """The exact forms of a word of a name or keyword: lowercased whole, its merged runs of
        parts and its parts (remembered)."""
        forms = self._exact.get(word)
        if forms is None:
            parts = list(self.word(word)[2])
            forms = tuple(merged_runs(word, parts).union(parts))
            if len(self._exact) < MAX_EXACT:
                self._exact[word] = forms
        return forms

    def text(self, found: list[str], *, drop_stop_words: bool) -> str:
        """The stemmed tokens of the words ``found`` in a text, joined by spaces."""
        known, learn = self._words.get, self.word
        out = []
        for word in found:
            joined, stop, _ = known(word) or learn(word)
            if joined and not (drop_stop_words and stop):
                out.append(joined)
        return " ".join(out)

    def both_texts(self, found: list[str]) -> tuple[str, str]:
        """``text(found)`` with stop words kept, and with them dropped, in one pass."""
        known, learn = self._words.get, self.word
        every, content = [], []
        for word in found:
            joined, stop, _ = known(word) or learn(word)
            if joined:
                every.append(joined)
                if not stop:
                    content.append(joined)
        return " ".join(every), " ".join(content)

    def name_forms(self, text: str, found: list[str], exact: set[str], prefixes: set[str]) -> None:
        """Add the exact forms of the words ``found`` in a name to ``exact`` and the name's
        prefixes (``name_prefixes``: the lowercased name and every run of its parts from
        the start, joined) to ``prefixes``."""
        lowered = text.lower()
        exact.add(lowered)
        prefixes.add(lowered)
        run = ""
        for word in found:
            exact.update(self._exact.get(word) or self.exact_forms(word))
            for part in self.word(word)[2]:
                run += part
                prefixes.add(run)

    # -- documents -------------------------------------------------------------------------

    def __call__(self, entry: CatalogEntry) -> tantivy.Document:
        """The tantivy document for the latest version of an entry."""
        doc = tantivy.Document()
        add = doc.add_text
        text = self.text
        name, artifact_id, keywords = entry.name, entry.id, entry.keywords
        add("id", artifact_id)
        name_words = words(name)
        name_text, name_content = self.both_texts(name_words)
        add("name", name_text)
        exact: set[str] = set()
        prefixes: set[str] = set()
        self.name_forms(name, name_words, exact, prefixes)
        if artifact_id != name:
            self.name_forms(artifact_id, words(artifact_id), exact, prefixes)
        for form in sorted(exact):
            add("name_exact", form)
        for form in sorted(prefixes):
            add("name_prefix", form)
        combined = [name_content]
        if keywords:
            keyword_forms: set[str] = set()
            for keyword in keywords:
                keyword_words = words(keyword)
                keyword_text, keyword_content = self.both_texts(keyword_words)
                add("keywords", keyword_text)
                combined.append(keyword_content)
                keyword_forms.add(keyword.lower())
                for word in keyword_words:
                    keyword_forms.update(self.exact_forms(word))
            for form in sorted(keyword_forms):
                add("keywords_exact", form)
        description = text(words(entry.description), drop_stop_words=True)
        add("description", description)
        combined.append(description)
        author = entry.author
        if author:
            add("author", author_key(author))
            add("author_text", _plain(author))
            combined.append(text(words(author), drop_stop_words=True))
        add("entity_type", entry.entity_type.value)
        add("status", entry.status.value)
        if entry.execution:
            add("execution", entry.execution.value)
        add("version", entry.version)
        for field, value in (("input", entry.input_type), ("output", entry.output_type)):
            if value:
                add(field, value.lower())
                add(f"{field}_text", _plain(value))
                add(f"{field}_names", " ".join([t.text for t in type_tokens(value)]))
                combined.append(text(words(value), drop_stop_words=True))
        # "all": name, keywords, description, author and signature, analyzed as one text
        add("all", " ".join([part for part in combined if part]))
        return doc


def _plain(text: str) -> str:
    """The unstemmed tokens of ``text`` (stop words kept), joined by spaces."""
    return " ".join(t.text for t in tokens(text, stemmed=False, drop_stop_words=False))


def entry_document(entry: CatalogEntry) -> tantivy.Document:
    """The tantivy document for the latest version of an entry (with a ``DocumentMaker`` of
    its own: use one maker for many entries)."""
    return DocumentMaker()(entry)
