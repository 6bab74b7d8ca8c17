"""The keyword index's documents: analyzed fields index exactly the tokens of ``lgent.analysis``
(terms, positions, field lengths), whatever one ``DocumentMaker`` has seen before."""

from __future__ import annotations

from collections.abc import Iterable

import tantivy
from hypothesis import given, settings
from hypothesis import strategies as st

from lgent.analysis.identifiers import merged_forms, split_identifier
from lgent.analysis.stemming import stem
from lgent.analysis.stopwords import STOP_WORDS
from lgent.analysis.tokens import Token, name_prefixes, tokens, word_parts, words
from lgent.brains.keyword.documents import DocumentMaker, analyze_word, entry_document
from lgent.brains.keyword.index import EXACT_FIELDS, TOKEN_FIELDS, KeywordIndex, build_schema
from lgent.brains.keyword.typefields import type_tokens
from lgent.models import CatalogEntry, author_key
from tests.conftest import make_entry

ENTRIES = [
    make_entry(
        "PDFParser_v2",
        description="Extracts the tables from PDFs, and the text of scanned pages.",
        keywords=["pdf", "text extraction", "the", "OCRs-v3"],
        author="ToolForge Labs",
        input_type="List[PDFDocument]",
        output_type="Dict[str, SentimentScore]",
        execution="local",
    ),
    make_entry("html_to_markdown", name="HTML to Markdown", description="A to B and back."),
    make_entry(
        "straße-ümlaut", name="Straße Ümlaut", description="日本語ツール for ½ of Ünïcode 2²"
    ),
    make_entry("XMLsToJSON", description="", keywords=["XMLs", "json"]),
    make_entry("half", name="a½ x½y ½ Über_2²", keywords=["b½", "PDFs", "½"]),
    make_entry("long", description="word " + "x" * 300 + " after it, and " + "Ab" * 150),
    make_entry("stop-only", name="The And Of", description="the of and to it is"),
]


def reference_fields(entry: CatalogEntry) -> dict[str, list[list[Token] | str]]:
    """What the index held before documents were made by ``DocumentMaker``: ``tokens`` of each
    analyzed value (as pre-tokenized text) and each exact value, computed the plain way."""
    out: dict[str, list[list[Token] | str]] = {}

    def add(field: str, value: list[Token] | str) -> None:
        out.setdefault(field, []).append(value)

    def analyzed(field: str, text: str, stemmed: bool, stop: bool) -> None:
        add(field, tokens(text, stemmed=stemmed, drop_stop_words=stop))

    add("id", entry.id)
    analyzed("name", entry.name, True, False)
    exact = {entry.id.lower(), entry.name.lower()}
    for word in words(entry.name) + words(entry.id):
        exact.update(merged_forms(word))
        exact.update(part.lower() for part in split_identifier(word))
    out["name_exact"] = sorted(exact)  # type: ignore[assignment]
    out["name_prefix"] = sorted(name_prefixes(entry.name) | name_prefixes(entry.id))  # type: ignore[assignment]
    keyword_forms: set[str] = set()
    for keyword in entry.keywords:
        analyzed("keywords", keyword, True, False)
        keyword_forms.add(keyword.lower())
        for word in words(keyword):
            keyword_forms.update(merged_forms(word))
            keyword_forms.update(part.lower() for part in split_identifier(word))
    if keyword_forms:
        out["keywords_exact"] = sorted(keyword_forms)  # type: ignore[assignment]
    analyzed("description", entry.description, True, True)
    if entry.author:
        add("author", author_key(entry.author))
        analyzed("author_text", entry.author, False, False)
    add("entity_type", entry.entity_type.value)
    add("status", entry.status.value)
    if entry.execution:
        add("execution", entry.execution.value)
    add("version", entry.version)
    for field, value in (("input", entry.input_type), ("output", entry.output_type)):
        if value:
            add(field, value.lower())
            analyzed(f"{field}_text", value, False, False)
            add(f"{field}_names", type_tokens(value))
    signature = f"{entry.input_type or ''} {entry.output_type or ''}"
    combined = " . ".join(
        [entry.name, " ".join(entry.keywords), entry.description, entry.author or "", signature]
    )
    analyzed("all", combined, True, True)
    return out


def pre_tokenized_index(entries: Iterable[CatalogEntry]) -> tantivy.Index:
    """The reference index: the schema as it was (analyzed fields pre-tokenized)."""
    builder = tantivy.SchemaBuilder()
    for field in EXACT_FIELDS:
        builder.add_text_field(
            field, stored=field == "id", tokenizer_name="raw", index_option="basic"
        )
    for field in TOKEN_FIELDS:
        builder.add_text_field(field, tokenizer_name="raw", index_option="position")
    index = tantivy.Index(builder.build())
    writer = index.writer(heap_size=15_000_000, num_threads=1)
    for entry in entries:
        doc = tantivy.Document()
        for field, values in reference_fields(entry).items():
            for value in values:
                if isinstance(value, str):
                    doc.add_text(field, value)
                else:
                    toks = [tantivy.Token(t.text, t.position, t.start, t.end) for t in value]
                    doc.add_pre_tokenized_text(field, tantivy.PreTokenizedString("", toks))
        writer.add_document(doc)
    writer.commit()
    index.reload()
    return index


def scored(index: tantivy.Index, query: tantivy.Query) -> list[tuple[str, float]]:
    searcher = index.searcher()
    return sorted(
        (str(searcher.doc(address)["id"][0]), round(score, 5))
        for score, address in searcher.search(query, 100).hits
    )


def test_documents_hold_the_analyzer_tokens_whatever_the_maker_saw_before() -> None:
    shared = DocumentMaker()
    for entry in ENTRIES * 2:  # the second pass reads every word from the maker's memo
        made = shared(entry).to_dict()
        assert made == entry_document(entry).to_dict()
        for field, values in reference_fields(entry).items():
            expected = [v if isinstance(v, str) else " ".join(t.text for t in v) for v in values]
            assert made[field] == expected, field


def test_whitespace_fields_index_like_pre_tokenized_text() -> None:
    """Same matches and the same BM25 scores (same term frequencies, positions and field
    lengths) for every token alone and every pair of neighbouring tokens as a phrase, also
    across two values of one field (keywords)."""
    ours = KeywordIndex(None)
    ours.replace_all(ENTRIES, 1)
    reference = pre_tokenized_index(ENTRIES)
    schema = build_schema()
    checked = 0
    for entry in ENTRIES:
        for field, values in reference_fields(entry).items():
            if field not in TOKEN_FIELDS:
                continue
            texts = [t.text for value in values if not isinstance(value, str) for t in value]
            for i, text in enumerate(texts):
                query = tantivy.Query.term_query(schema, field, text)
                assert scored(ours._index, query) == scored(reference, query), (field, text)
                if i + 1 < len(texts):
                    pair: list[str | tuple[int, str]] = [text, texts[i + 1]]
                    phrase = tantivy.Query.phrase_query(schema, field, pair)
                    assert scored(ours._index, phrase) == scored(reference, phrase), (field, pair)
                checked += 1
    assert checked > 100


WORD_PIECES = ["a", "A", "s", "PDF", "Parser", "the", "The", "THE", "ANs", "IT", "x", "2", "v2"]
WORD_PIECES += ["_", "-", ".", "'", "’", "/", "+", " ", ", ", "é", "Ü", "ß", "½", "²", "日本"]
WORD_PIECES += ["车站", "カナ", "한국"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORD_PIECES), max_size=8).map("".join))
def test_texts_and_words_are_analyzed_as_the_analyzer_does(text: str) -> None:
    """Whatever the text: a description's field holds the stemmed tokens of ``tokens`` with stop
    words dropped, and every word's analysis (the fast paths included) is ``word_parts``'s."""
    maker = DocumentMaker()
    expected = " ".join(t.text for t in tokens(text, stemmed=True, drop_stop_words=True))
    assert maker.text(words(text)) == expected
    assert maker.text(words(text)) == expected  # the second time from the maker's memo
    for word in words(text):
        parts = word_parts(word)
        assert analyze_word(word) == (
            " ".join(stem(part) for part, _, _ in parts),
            len(parts) == 1 and parts[0][0] in STOP_WORDS,
            tuple(word[a:b].lower() for _, a, b in parts),
        )
