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

import re

import tantivy

from lgent.analysis.identifiers import ASCII_PART, merged_runs
from lgent.analysis.stemming import stem
from lgent.analysis.stopwords import STOP_WORDS
from lgent.analysis.tokens import token_texts, word_parts, words
from lgent.brains.keyword.typefields import type_tokens
from lgent.models import CatalogEntry, author_key

TOKEN_TOKENIZER = "whitespace"
"""tantivy's built-in tokenizer of the analyzed fields: splits on whitespace, changes nothing."""
MAX_WORDS = 50_000
"""Distinct words of texts a ``DocumentMaker`` remembers the analysis of (the first seen: a
catalog's common words come early); later ones are analyzed each time they come. Names are
looked up but not remembered: nearly every one is new. About 12 MiB."""
MAX_EXACT = 20_000
"""Distinct name and keyword words it remembers the exact forms of (most names are unique)."""


_ASCII_RUN = re.compile(r"[a-z]+|[0-9]+")
"""The parts of an ASCII word without capitals (``part_spans`` gives the same; the test
``test_texts_and_words_are_analyzed_as_the_analyzer_does`` holds ``analyze_word`` to it)."""

Word = tuple[str, bool, tuple[str, ...]]
"""A word analyzed: its stemmed tokens joined by spaces, whether it is a stop word (dropped
where stop words are), and its lowercased identifier parts."""


def analyze_word(word: str) -> Word:
    """``word`` analyzed (see ``Word``)."""
    if word.isascii():
        if word.islower():  # no capitals: the parts are its runs of letters and of digits
            if word.isalpha():
                return stem(word), word in STOP_WORDS, (word,)
            runs = _ASCII_RUN.findall(word)  # two or more (one run of digits is not lower)
            return " ".join([stem(run) for run in runs]), False, tuple(runs)
        if word.isalpha() and (word.istitle() or word.isupper()):  # Word, WORD: one part
            lowered = word.lower()
            return stem(lowered), lowered in STOP_WORDS, (lowered,)
        found = ASCII_PART.findall(word)  # as ``word_parts`` splits it, without the spans
        exact = tuple([part.lower() for part in found])
        analyzed = [
            part[:-1].lower() if len(part) > 2 and part[-1] == "s" and part[:-1].isupper() else low
            for part, low in zip(found, exact, strict=True)
        ]
        if len(analyzed) == 1:
            return stem(analyzed[0]), analyzed[0] in STOP_WORDS, exact
        return " ".join([stem(part) for part in analyzed]), False, exact
    parts = word_parts(word)
    if len(parts) == 1:
        part, start, end = parts[0]
        return stem(part), part in STOP_WORDS, (word[start:end].lower(),)
    return (
        " ".join([stem(part) for part, _, _ in parts]),
        False,
        tuple([word[a:b].lower() for _, a, b in parts]),
    )


class DocumentMaker:
    """Makes the tantivy documents of entries; one per build or update: it remembers the
    analysis of the words of texts it has seen (most words of a catalog's texts recur; the
    words of names mostly do not, and are not remembered)."""

    def __init__(self) -> None:
        self._words: dict[str, Word] = {}
        self._content: dict[str, str] = {}
        """word -> its stemmed tokens joined, "" for a stop word (for texts)"""
        self._exact: dict[str, tuple[str, ...]] = {}

    # -- words -----------------------------------------------------------------------------

    def word(self, word: str) -> Word:
        """``word`` analyzed (remembered while there is room)."""
        known = self._words.get(word)
        if known is None:
            known = analyze_word(word)
            if len(self._words) < MAX_WORDS:
                self._words[word] = known
        return known

    def exact_forms(self, word: str, parts: tuple[str, ...] | None = None) -> tuple[str, ...]:
        """The exact forms of a word of a name or keyword: lowercased whole, its merged runs of
        parts and its parts (``parts``: its lowercased parts, if known; remembered)."""
        forms = self._exact.get(word)
        if forms is None:
            if parts is None:
                parts = self.word(word)[2]
            if len(parts) == 1:
                lowered = word.lower()
                forms = (lowered,) if parts[0] == lowered else (lowered, parts[0])
            else:
                forms = tuple(merged_runs(word, list(parts)).union(parts))
            if len(self._exact) < MAX_EXACT:
                self._exact[word] = forms
        return forms

    def text(self, found: list[str]) -> str:
        """The stemmed tokens of the words ``found`` in a text, stop words dropped, joined by
        spaces (the words looked up in one pass; the misses analyzed and remembered)."""
        tokens = list(map(self._content.get, found))
        if None in tokens:
            tokens = [
                self._learn(w) if t is None else t for w, t in zip(found, tokens, strict=True)
            ]
        return " ".join(filter(None, tokens))

    def _learn(self, word: str) -> str:
        """The stemmed tokens of ``word``, "" for a stop word (remembered while there is room)."""
        joined, stop, _ = self._words.get(word) or analyze_word(word)
        tokens = "" if stop else joined
        if len(self._content) < MAX_WORDS:
            self._content[word] = tokens
        return tokens

    def both_texts(self, found: list[str]) -> tuple[str, str]:
        """``text(found)`` with stop words kept, and with them dropped, in one pass."""
        return self._both([self.word(word) for word in found])

    @staticmethod
    def _both(analyzed: list[Word]) -> tuple[str, str]:
        every = [joined for joined, _, _ in analyzed if joined]
        if len(every) == len(analyzed) and not any(stop for _, stop, _ in analyzed):
            text = " ".join(every)
            return text, text
        content = [joined for joined, stop, _ in analyzed if joined and not stop]
        return " ".join(every), " ".join(content)

    def name_forms(
        self,
        text: str,
        found: list[str],
        exact: set[str],
        prefixes: set[str],
        analyzed: list[Word] | None = None,
    ) -> None:
        """Add the exact forms of the words ``found`` in a name to ``exact`` and the name's
        prefixes (``name_prefixes``: the lowercased name and every run of its parts from
        the start, joined) to ``prefixes`` (``analyzed``: the words analyzed, if known)."""
        if analyzed is None:
            analyzed = [self.word(word) for word in found]
        lowered = text.lower()
        exact.add(lowered)
        prefixes.add(lowered)
        run = ""
        for word, (_, _, parts) in zip(found, analyzed, strict=True):
            exact.update(self.exact_forms(word, parts))
            for part in parts:
                run += part
                prefixes.add(run)

    def _name_words(self, found: list[str]) -> list[Word]:
        """The words of a name analyzed, without remembering them (names rarely repeat)."""
        known = self._words.get
        return [known(word) or analyze_word(word) for word in found]

    # -- documents -------------------------------------------------------------------------

    def __call__(self, entry: CatalogEntry) -> tantivy.Document:
        """The tantivy document for the latest version of an entry."""
        doc = tantivy.Document()
        add = doc.add_text
        text = self.text
        name, artifact_id, keywords = entry.name, entry.id, entry.keywords
        add("id", artifact_id)
        name_words = words(name)
        name_analyzed = self._name_words(name_words)
        name_text, name_content = self._both(name_analyzed)
        add("name", name_text)
        exact: set[str] = set()
        prefixes: set[str] = set()
        self.name_forms(name, name_words, exact, prefixes, name_analyzed)
        if artifact_id != name:
            id_words = words(artifact_id)
            self.name_forms(artifact_id, id_words, exact, prefixes, self._name_words(id_words))
        for form in sorted(exact):
            add("name_exact", form)
        for form in sorted(prefixes):
            add("name_prefix", form)
        combined = [name_content]
        if keywords:
            keyword_forms: set[str] = set()
            for keyword in keywords:
                keyword_words = words(keyword)
                keyword_analyzed = [self.word(word) for word in keyword_words]
                keyword_text, keyword_content = self._both(keyword_analyzed)
                add("keywords", keyword_text)
                combined.append(keyword_content)
                keyword_forms.add(keyword.lower())
                for word, (_, _, parts) in zip(keyword_words, keyword_analyzed, strict=True):
                    keyword_forms.update(self.exact_forms(word, parts))
            for form in sorted(keyword_forms):
                add("keywords_exact", form)
        description = text(words(entry.description))
        add("description", description)
        combined.append(description)
        author = entry.author
        if author:
            add("author", author_key(author))
            add("author_text", _plain(author))
            combined.append(text(words(author)))
        add("entity_type", entry.entity_type)  # a StrEnum member is its value
        add("status", entry.status)
        if entry.execution:
            add("execution", entry.execution)
        add("version", entry.version)
        for field, value in (("input", entry.input_type), ("output", entry.output_type)):
            if value:
                add(field, value.lower())
                add(f"{field}_text", _plain(value))
                add(f"{field}_names", " ".join([t.text for t in type_tokens(value)]))
                combined.append(text(words(value)))
        # "all": name, keywords, description, author and signature, analyzed as one text
        add("all", " ".join([part for part in combined if part]))
        return doc


def _plain(text: str) -> str:
    """The unstemmed tokens of ``text`` (stop words kept), joined by spaces."""
    return " ".join(token_texts(text, stemmed=False, drop_stop_words=False))


def entry_document(entry: CatalogEntry) -> tantivy.Document:
    """The tantivy document for the latest version of an entry (with a ``DocumentMaker`` of
    its own: use one maker for many entries)."""
    return DocumentMaker()(entry)
