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

from lgent.analysis.identifiers import merged_forms, split_identifier
from lgent.analysis.stemming import stem
from lgent.analysis.tokens import is_stop_word, tokens, word_parts, words
from lgent.brains.keyword.typefields import type_tokens
from lgent.models import CatalogEntry, author_key

TOKEN_TOKENIZER = "whitespace"
"""tantivy's built-in tokenizer of the analyzed fields: splits on whitespace, changes nothing."""
MAX_REMEMBERED = 500_000
"""Distinct words a ``DocumentMaker`` remembers (per memo); later ones are analyzed each time
they come (a bound on its memory for very large catalogs)."""


class DocumentMaker:
    """Makes the tantivy documents of entries; one per build or update: it remembers the
    analysis of every word it has seen (most words of a catalog recur)."""

    def __init__(self) -> None:
        self._stems: dict[str, tuple[str, bool]] = {}
        self._names: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}

    # -- words -----------------------------------------------------------------------------

    def stemmed(self, word: str) -> tuple[str, bool]:
        """A word's stemmed tokens joined by spaces, and whether it is a stop word."""
        known = self._stems.get(word)
        if known is None:
            parts = word_parts(word)
            known = (" ".join(stem(part) for part, _, _ in parts), is_stop_word(parts))
            if len(self._stems) < MAX_REMEMBERED:
                self._stems[word] = known
        return known

    def name_word(self, word: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """A word of a name or keyword: its lowercased identifier parts (for the name's
        prefixes) and its exact forms (lowercased whole, merged runs of parts, parts)."""
        known = self._names.get(word)
        if known is None:
            parts = tuple(part.lower() for part in split_identifier(word))
            known = (parts, tuple({*merged_forms(word), *parts}))
            if len(self._names) < MAX_REMEMBERED:
                self._names[word] = known
        return known

    def text(self, found: list[str], *, drop_stop_words: bool) -> str:
        """The stemmed tokens of the words ``found`` in a text, joined by spaces."""
        out = []
        for word in found:
            joined, stop = self._stems.get(word) or self.stemmed(word)
            if joined and not (drop_stop_words and stop):
                out.append(joined)
        return " ".join(out)

    # -- documents -------------------------------------------------------------------------

    def __call__(self, entry: CatalogEntry) -> tantivy.Document:
        """The tantivy document for the latest version of an entry."""
        doc = tantivy.Document()
        add = doc.add_text
        name, artifact_id, keywords = entry.name, entry.id, entry.keywords
        add("id", artifact_id)
        name_words = words(name)
        add("name", self.text(name_words, drop_stop_words=False))
        name_word = self.name_word
        exact_names = {artifact_id.lower(), name.lower()}
        prefixes = self._prefixes(name, name_words)
        for word in name_words:
            exact_names.update(name_word(word)[1])
        if artifact_id != name:
            id_words = words(artifact_id)
            for word in id_words:
                exact_names.update(name_word(word)[1])
            prefixes |= self._prefixes(artifact_id, id_words)
        for form in sorted(exact_names):
            add("name_exact", form)
        for form in sorted(prefixes):
            add("name_prefix", form)
        combined = [self.text(name_words, drop_stop_words=True)]
        if keywords:
            keyword_forms: set[str] = set()
            for keyword in keywords:
                keyword_words = words(keyword)
                add("keywords", self.text(keyword_words, drop_stop_words=False))
                combined.append(self.text(keyword_words, drop_stop_words=True))
                keyword_forms.add(keyword.lower())
                for word in keyword_words:
                    keyword_forms.update(name_word(word)[1])
            for form in sorted(keyword_forms):
                add("keywords_exact", form)
        description = self.text(words(entry.description), drop_stop_words=True)
        add("description", description)
        combined.append(description)
        author = entry.author
        if author:
            add("author", author_key(author))
            add("author_text", _plain(author))
            combined.append(self.text(words(author), drop_stop_words=True))
        add("entity_type", entry.entity_type.value)
        add("status", entry.status.value)
        if entry.execution:
            add("execution", entry.execution.value)
        add("version", entry.version)
        for field, value in (("input", entry.input_type), ("output", entry.output_type)):
            if value:
                add(field, value.lower())
                add(f"{field}_text", _plain(value))
                add(f"{field}_names", " ".join(t.text for t in type_tokens(value)))
                combined.append(self.text(words(value), drop_stop_words=True))
        # "all": name, keywords, description, author and signature, analyzed as one text
        add("all", " ".join(part for part in combined if part))
        return doc

    def _prefixes(self, text: str, found: list[str]) -> set[str]:
        """``name_prefixes(text)`` from its words ``found``: the lowercased text and every run
        of its parts from the start, joined."""
        out = {text.lower()}
        run = ""
        for word in found:
            for part in self.name_word(word)[0]:
                run += part
                out.add(run)
        return out


def _plain(text: str) -> str:
    """The unstemmed tokens of ``text`` (stop words kept), joined by spaces."""
    return " ".join(t.text for t in tokens(text, stemmed=False, drop_stop_words=False))


def entry_document(entry: CatalogEntry) -> tantivy.Document:
    """The tantivy document for the latest version of an entry (with a ``DocumentMaker`` of
    its own: use one maker for many entries)."""
    return DocumentMaker()(entry)
