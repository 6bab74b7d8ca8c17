from dsl import E

ENTRIES = [
    E("DocumentParserSpec", "other", "1.0.0", "active", "Document -> Text",
      """Interface contract for document parsers: take a document, return its text in reading
      order, raise ParseError on encrypted or corrupt input, and never modify the source file.""",
      "interface, parser, contract, spec", "platform-core", "",
      "- 0 - - -", fmt="yaml", file="manifests/interfaces.yaml"),
    E("PDFParser", "tool", "1.3.0", "active", "PDF -> Text",
      """Pulls the text layer out of PDF files page by page using pdfminer. Single-column
      layouts only; tables come out as runs of numbers.""",
      "pdf, parser, text extraction, pdfminer", "docops-team", "deterministic",
      "0.74 9800 2024-10-02T11:05 580 local", "impl:DocumentParserSpec"),
    E("PDFParser", "tool", "1.4.2", "deprecated", "PDF -> Text",
      """Pulls the text layer out of PDF files page by page using pdfminer. Struggles with
      multi-column layouts and ignores tables. Kept only for pipelines that have not migrated
      to PDFParser_v2.""",
      "pdf, parser, text extraction, pdfminer, legacy", "docops-team", "deterministic",
      "0.68 14200 2025-08-19T16:40 620 local", "impl:DocumentParserSpec"),
    E("PDFParser_v2", "tool", "2.2.0", "active", "PDF -> Text",
      """Layout-aware PDF text extraction: reconstructs reading order across columns and keeps
      headings and list structure.""",
      "pdf, parser, text extraction, layout", "docops-team", "deterministic, idempotent",
      "0.93 21400 2026-03-30T08:12 360 local",
      "succ:PDFParser dep:DocLayoutModel impl:DocumentParserSpec"),
    E("PDFParser_v2", "tool", "2.3.1", "active", "PDF -> Text",
      """Layout-aware PDF text extraction: reconstructs reading order across columns, keeps
      headings and list structure, and falls back to OCR for pages that have no text layer.""",
      "pdf, parser, text extraction, layout, reading order", "docops-team",
      "deterministic, idempotent",
      "0.95 38750 2026-11-20T09:14 340 local",
      "succ:PDFParser dep:DocLayoutModel,OCRReader_v3 impl:DocumentParserSpec"),
    E("DocLayoutModel", "model", "3.1.0", "active", "",
      """Fine-tuned LayoutLMv3 checkpoint that labels page regions (title, paragraph, table,
      figure, footer). The parsers and the invoice reader use it to recover reading order.""",
      "layout, layoutlm, model, page regions", "vision-team", "deterministic",
      "0.97 41000 2026-11-21T07:40 95 local"),
    E("PDFTableExtractor", "tool", "1.6.0", "active", "PDF -> ExtractedTable",
      """Finds ruled and whitespace-aligned tables in PDFs and returns them as data frames with
      header detection. Merged cells are copied into every column they span.""",
      "pdf, tables, camelot, extraction", "docops-team", "deterministic",
      "0.84 9120 2026-11-02T13:05 1900 local", "dep:DocLayoutModel"),
    E("ScannedPDFTextRecovery", "pipeline", "1.2.0", "active", "ScannedPDF -> Text",
      """For PDFs that are nothing but page images: renders each page, runs OCR and stitches
      the lines back into paragraphs, repairing words hyphenated across line breaks.""",
      "scanned pdf, ocr, image pdf, pipeline", "docops-team", "",
      "0.81 6400 2026-10-28T07:51 5200 local", "dep:PDFPageRenderer,OCRReader_v3",
      name="Scanned PDF Text Recovery"),
    E("PDFPageRenderer", "tool", "2.0.4", "active", "PDF -> List[ScannedPage]",
      """Rasterises every page of a PDF to 300 dpi PNG images, ready for OCR or a vision model.""",
      "pdf, rasterize, render, png, pages", "docops-team", "deterministic, pure",
      "0.99 22100 2026-11-19T22:10 180 local"),
    E("PDFSplitter", "tool", "1.1.3", "active", "PDF -> List[PDF]",
      """Cuts one PDF into several by page ranges, bookmarks or blank separator sheets, which is
      handy for scanner batches where an empty page divides one letter from the next.""",
      "pdf, split, pages, bookmarks", "k.tanaka", "deterministic, idempotent",
      "0.97 5300 2026-09-30T11:20 90 local"),
    E("PDFMerger", "tool", "1.0.2", "active", "List[PDF] -> PDF",
      """Concatenates several PDFs into one file, rebuilding the outline and renaming clashing
      form fields so they stay independent.""",
      "pdf, merge, concatenate", "ToolForge", "deterministic",
      "0.96 2800 2025-05-06T15:02 120 local", "forge:ToolForge"),
    E("PDFRedactor", "tool", "2.1.0", "active", "PDF -> PDF",
      """Blacks out personal data (names, IBANs, phone numbers, national ID numbers) in PDFs and
      deletes the text underneath, so nothing can be copied back out of the redacted areas.""",
      "pdf, redaction, privacy, pii, gdpr", "docops-team", "deterministic",
      "0.90 4100 2026-11-11T10:45 2600 local", "dep:PIIDetector,PDFParser_v2",
      fmt="card", file="cards/pdf-redactor.md", body="""
## When to use it
Run it on any PDF that leaves the company: customer letters attached to tickets, court
bundles, exports for auditors. It finds personal data with PIIDetector, draws opaque boxes
over every hit and then removes the glyphs underneath, so copy-paste and text extraction
return nothing from the boxed areas.

## Options
- `categories`: which kinds of data to remove (default: all). Names are the noisiest
  category; switch them off for internal documents where only IDs matter.
- `keep_first_page_header`: leaves letterheads readable.
- `report`: also returns a JSON list of what was removed, page by page, for the audit trail.

## Known limits
Text inside images is only caught if the page went through OCR first (PDFParser_v2 does
that automatically for pages without a text layer). Signatures are not detected.
"""),
    E("DocumentClassifier", "tool", "1.5.0", "active", "Document -> ClassLabel",
      """Sorts incoming paperwork into contract, invoice, payslip, bank statement, letter or
      other, looking only at the first two pages.""",
      "classification, document type, routing, mailroom", "docops-team", "",
      "0.88 12750 2026-11-18T08:30 750 hybrid", "dep:PDFParser_v2"),
    E("DocumentChunker", "tool", "1.4.1", "active", "Document -> List[DocumentChunk]",
      """Splits long documents into overlapping passages of about 512 tokens along section and
      paragraph boundaries, carrying page numbers along so answers can cite them.""",
      "chunking, passages, rag, splitting, tokens", "search-relevance", "deterministic, pure",
      "0.98 30200 2026-11-20T12:00 60 local",
      fmt="card", file="cards/document-chunker.md", body="""
## What it does
Cuts a document into passages for retrieval. It prefers to cut at headings, then at
paragraph ends, and only splits a paragraph when it is longer than the budget. Each chunk
keeps `doc_id`, `page_start`, `page_end` and the heading path ("3 Results > 3.2 Latency").

## Settings that matter
- `max_tokens` (default 512) and `overlap` (default 64). For question answering over
  contracts we use 384/96; for search snippets 256/32 works better.
- `tokenizer`: must match the embedder's, or chunks will be cut off when embedded.

## Gotchas
Tables are kept whole even when they exceed `max_tokens`; the embedder will truncate them.
Run PDFTableExtractor first if tables matter for your use case.
"""),
    E("PDFMetadataReader", "tool", "1.0.0", "active", "PDF -> Record",
      """Reads title, author, creation date, producer and page count from the PDF info
      dictionary and the XMP packet.""",
      "pdf, metadata, xmp", "k.tanaka", "deterministic, pure",
      "0.99 7600 2025-07-22T09:00 25 local"),
    E("HTMLToPDF", "tool", "1.8.2", "active", "HTMLDocument -> PDF",
      """Prints web pages to PDF with a headless browser, honouring print stylesheets and
      explicit page breaks.""",
      "html, pdf, print, headless chrome", "docops-team", "",
      "0.93 3900 2026-01-28T14:33 2300 hybrid", "dep:ChromiumPool"),
    E("DocxConverter", "tool", "0.7.0", "retired", "WordDocument -> Text",
      """Old Word-to-plain-text converter built on antiword. Loses headings, lists and tables.
      Superseded by DocxToMarkdown.""",
      "docx, word, converter, legacy", "docops-team", "deterministic",
      "0.45 900 2024-06-12T10:00 800 local"),
    E("DocxToMarkdown", "tool", "2.0.1", "active", "WordDocument -> MarkdownText",
      """Turns .docx files into Markdown, keeping headings, lists, tables and footnotes. Embedded
      images are saved next to the output and linked.""",
      "docx, word, markdown, conversion", "docops-team", "deterministic",
      "0.92 5100 2026-11-03T16:12 410 local", "succ:DocxConverter"),
    E("ContractClauseExtractor", "agent", "0.9.0", "active", "PDF -> List[Record]",
      """Locates termination, liability cap, auto-renewal and governing-law clauses in
      commercial contracts and returns each with its page and paragraph number.""",
      "contracts, legal, clauses, extraction", "legal-ai", "requires_network",
      "0.79 1800 2026-10-22T13:40 6400 cloud", "dep:PDFParser_v2,ContractReviewPrompt"),
    E("ContractReviewPrompt", "prompt", "1.2.0", "active", "Text -> List[Record]",
      """System prompt for reviewing a contract: quote each risky clause verbatim, say why it
      is risky for the buyer, and propose a fallback wording. Refuses to give legal advice
      beyond the text.""",
      "prompt, contracts, legal review", "PromptSmith", "",
      "0.83 2100 2026-10-22T13:40 - cloud", "forge:PromptSmith"),
    E("ContractCorpus2025", "dataset", "2025.1.0", "active", "",
      """1,200 anonymised commercial contracts with clause-level annotations, used to evaluate
      ContractClauseExtractor and the review prompt.""",
      "dataset, contracts, annotations, evaluation", "legal-ai", "",
      "- 37 2025-11-24T10:00 - -"),
    E("PDFOutlineBuilder", "tool", "0.3.0", "experimental", "PDF -> MarkdownText",
      """Experimental: infers a heading hierarchy for PDFs that have no bookmarks and emits a
      Markdown outline with page anchors. Font-size heuristics fail on slide decks.""",
      "pdf, outline, toc, headings", "ToolForge", "",
      "0.47 140 2026-10-30T17:25 1200 local", "forge:ToolForge"),
    E("FormFieldReader", "tool", "1.1.0", "active", "PDF -> Record",
      """Reads the values of fillable AcroForm and XFA fields and returns one record keyed by
      field name.""",
      "pdf, forms, acroform, fields", "SchemaSmith", "deterministic, pure",
      "0.94 2200 2026-09-12T10:10 70 local", "forge:SchemaSmith"),
    E("PDFFormFiller", "tool", "1.0.0", "active", "Record -> PDF",
      """Fills a fillable PDF template from a record and optionally flattens it so the values
      can no longer be edited.""",
      "pdf, forms, fill, template", "ToolForge", "deterministic",
      "0.91 1300 2025-10-14T09:30 150 local", "forge:ToolForge sim:FormFieldReader"),
    E("PDFCompressor", "tool", "1.3.0", "active", "PDF -> PDF",
      """Shrinks PDFs by downsampling images and subsetting fonts; scanned files typically lose
      60 to 80 percent of their size.""",
      "pdf, compress, size, ghostscript", "k.tanaka", "deterministic",
      "0.97 4700 2026-10-17T15:45 900 local"),
    E("DocumentDeduplicator", "tool", "1.2.0", "active", "List[Document] -> List[Document]",
      """Drops near-identical documents from a batch using MinHash over word shingles, keeping
      the most recent copy of each cluster.""",
      "deduplication, minhash, near duplicates", "search-relevance", "deterministic",
      "0.96 3900 2026-11-07T06:00 1100 local"),
]
