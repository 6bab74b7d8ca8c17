from dsl import E

ENTRIES = [
    E("OCREngineSpec", "other", "1.0.0", "active", "ScannedPage -> Text",
      """Interface for OCR engines: a page image goes in, text with per-word boxes and
      confidences comes out; languages are declared up front.""",
      "interface, ocr, spec", "vision-team", "",
      "- 0 - - -", fmt="yaml", file="manifests/ocr-engine-spec.yaml"),
    E("OCRReader", "tool", "1.0.0", "retired", "ScannedPage -> Text",
      """Tesseract 3 wrapper from the first document pipeline. English only, no layout.""",
      "ocr, tesseract, legacy", "vision-team", "deterministic",
      "0.47 30000 2024-10-01T10:00 2500 local", "impl:OCREngineSpec"),
    E("OCRReader_v2", "tool", "2.1.0", "deprecated", "ScannedPage -> Text",
      """Tesseract 4 LSTM engine with deskewing and binarisation; 12 languages.""",
      "ocr, tesseract, lstm", "vision-team", "deterministic",
      "0.81 39000 2026-04-22T10:00 1900 local", "succ:OCRReader impl:OCREngineSpec"),
    E("OCRReader_v3", "tool", "3.0.0", "active", "ScannedPage -> Text",
      """Transformer OCR for printed text on page images in 30 languages.""",
      "ocr, transformer, text recognition", "vision-team", "requires_gpu",
      "0.93 20100 2026-06-01T10:00 1200 hybrid",
      "succ:OCRReader_v2 impl:OCREngineSpec dep:DocLayoutModel"),
    E("OCRReader_v3", "tool", "3.1.0", "active", "ScannedPage -> Text",
      """Transformer OCR for printed text on page images in 30 languages, now returning line
      bounding boxes.""",
      "ocr, transformer, text recognition", "vision-team", "requires_gpu",
      "0.94 31800 2026-08-15T10:00 1150 hybrid",
      "succ:OCRReader_v2 impl:OCREngineSpec dep:DocLayoutModel"),
    E("OCRReader_v3", "tool", "3.2.0", "active", "ScannedPage -> Text",
      """Transformer OCR that reads printed and handwritten text on page images in 30 languages
      and returns lines with bounding boxes and confidences.""",
      "ocr, transformer, text recognition, handwriting", "vision-team", "requires_gpu",
      "0.95 44200 2026-11-21T15:10 1100 hybrid",
      "succ:OCRReader_v2 impl:OCREngineSpec dep:DocLayoutModel"),
    E("InvoiceScanner", "tool", "1.3.0", "deprecated", "ScannedPage -> InvoiceData",
      """Template-based invoice reader: one template per supplier, so every new supplier needed
      a developer.""",
      "invoices, templates, ocr, legacy", "vision-team", "deterministic",
      "0.48 8200 2025-12-18T10:00 1500 local", "dep:OCRReader_v2"),
    E("InvoiceOCRExtractor", "tool", "2.0.0", "active", "InvoicePDF -> InvoiceData",
      """Reads supplier invoices, scanned or digital, and returns supplier, invoice number,
      dates, line items, tax and totals without any per-supplier templates.""",
      "invoices, ocr, accounts payable, extraction", "vision-team", "",
      "0.92 16400 2026-11-21T11:20 2700 hybrid",
      "succ:InvoiceScanner dep:OCRReader_v3,DocLayoutModel", name="Invoice OCR Extractor"),
    E("ReceiptReader", "tool", "1.4.0", "active", "Photo -> ReceiptData",
      """Reads photographed till receipts (merchant, date, items, VAT and total), tolerant of
      crumpled paper and faded thermal print.""",
      "receipts, expenses, ocr, mobile", "vision-team", "",
      "0.86 9100 2026-11-21T12:15 1700 hybrid", "dep:OCRReader_v3",
      fmt="card", file="cards/receipt-reader.md", body="""
## Typical use
The expenses app sends the photo straight from the phone camera. ReceiptReader returns
merchant, date, line items, VAT rate and amount, and the total, each with a confidence.
Anything under 0.8 is shown to the user for confirmation.

## Photo tips that matter
- Whole receipt in frame; a dark background helps edge detection.
- Long receipts: two photos are fine, pass them in order and they are stitched.

## Known weak spots
Hand-written tips on card slips, and receipts in Thai or Arabic script (support planned).
Totals are cross-checked against the sum of the lines; a mismatch is reported rather than
silently corrected.
"""),
    E("ImageCaptioner", "tool", "2.0.0", "active", "Image -> ImageCaption",
      """Writes a one-sentence alt text for an image, or a longer description on request.""",
      "alt text, captioning, accessibility", "vision-team", "",
      "0.90 12700 2026-11-21T10:40 900 cloud"),
    E("ObjectDetector", "model", "8.1.0", "active", "Image -> DetectedObjects",
      """Finds and boxes the 80 everyday object classes of COCO in images; YOLO-based and runs
      on a CPU in about 200 ms.""",
      "object detection, yolo, coco, bounding boxes", "vision-team", "deterministic",
      "0.91 18000 2026-11-21T09:30 210 local"),
    E("ChartDataExtractor", "tool", "0.3.0", "experimental", "Chart -> ExtractedTable",
      """Reads bar and line charts back into the numbers behind them. Mistakes in reading axis
      labels still happen.""",
      "charts, plots, digitise, data recovery", "vision-team", "",
      "0.44 470 2026-11-10T10:00 3400 cloud"),
    E("ScreenshotDiff", "tool", "1.1.0", "active", "List[Screenshot] -> Report",
      """Compares two screenshots and highlights the regions that changed, for visual
      regression tests.""",
      "visual regression, screenshots, diff, testing", "devex-team", "deterministic",
      "0.97 6800 2026-11-21T16:50 350 local"),
    E("HandwritingRecognizer", "tool", "0.5.0", "experimental", "ScannedPage -> Text",
      """Reads cursive handwriting on forms and letters; a separate model from the main OCR
      engine that copes better with messy script.""",
      "handwriting, cursive, htr", "vision-team", "requires_gpu",
      "0.64 1300 2026-11-17T10:00 2200 cloud", "sim:OCRReader_v3"),
    E("PageDeskewer", "tool", "1.2.0", "active", "ScannedPage -> ScannedPage",
      """Straightens rotated or skewed scans, crops dark borders and removes punch-hole shadows
      before OCR.""",
      "deskew, scan cleanup, preprocessing", "vision-team", "deterministic, pure",
      "0.98 21000 2026-11-21T15:10 120 local"),
    E("FaceBlurrer", "tool", "1.0.0", "active", "Photo -> Photo",
      """Detects faces and licence plates in photos and blurs them before the images are stored
      or shared.""",
      "privacy, anonymisation, faces, licence plates", "vision-team", "deterministic",
      "0.95 4400 2026-11-19T10:00 600 local"),
    E("ImageDeduplicator", "tool", "1.0.1", "active", "List[Image] -> List[Image]",
      """Removes duplicate and near-duplicate images using perceptual hashes.""",
      "duplicates, perceptual hash, images", "ToolForge", "deterministic",
      "0.99 3200 2025-08-08T10:00 90 local", "forge:ToolForge"),
    E(("IDCardVerifier", "ID Card Verifier"), "agent", "1.3.0", "active", "Photo -> Record",
      """Checks photographed identity documents: reads the machine-readable zone, validates its
      check digits and compares the portrait with a selfie.""",
      "kyc, identity, passport, mrz, verification", "risk-analytics", "requires_network",
      "0.88 5700 2026-11-21T13:00 4100 cloud"),
    E("ScanQualityGate", "tool", "1.0.0", "active", "ScannedPage -> ClassLabel",
      """Rejects scans that are too blurry, too dark or cut off before they reach OCR, and says
      which of those problems it saw.""",
      "scan quality, blur, preprocessing, gate", "ToolForge", "deterministic",
      "0.93 7300 2026-11-21T15:10 60 local", "forge:ToolForge"),
    E(("VisionQAAgent", "Vision Q&A Agent"), "agent", "0.2.0", "experimental", "Image -> Text",
      """Answers free-form questions about an image (what is on this shelf, what does this error
      dialog say) with a multimodal model.""",
      "multimodal, vqa, image questions", "vision-team", "requires_network",
      "0.69 820 2026-11-20T10:00 6200 cloud"),
    E("BarcodeReader", "tool", "2.0.0", "active", "Image -> Record",
      """Decodes QR, EAN-13, Code 128 and DataMatrix codes from images.""",
      "barcode, qr code, ean, datamatrix", "vision-team", "deterministic, pure",
      "0.98 8900 2026-11-21T08:00 45 local"),
    E("ScannedFormsBenchmark", "dataset", "1.0.0", "active", "",
      """3,400 scanned forms with ground-truth transcriptions and field boxes, for comparing OCR
      engines and layout models.""",
      "dataset, ocr, forms, benchmark", "vision-team", "",
      "- 95 2025-03-14T10:00 - -"),
    E("ScanToSearchablePDF", "pipeline", "1.1.0", "active", "List[ScannedPage] -> PDF",
      """Bundles page scans into one PDF with an invisible OCR text layer, so the scan becomes
      searchable and copyable.""",
      "searchable pdf, ocr, scanning, archive", "docops-team", "",
      "0.93 5300 2026-11-20T17:00 8800 hybrid", "dep:OCRReader_v3,PageDeskewer",
      fmt="card", file="cards/scan-to-searchable-pdf.md", body="""
## Why
Scans from the mail room are images; nobody can search or copy from them. This pipeline
deskews each page, runs OCR and writes a PDF/A with the recognised words placed invisibly
under the image, so the file looks identical but behaves like a text PDF.

## Input
Page images in order (PNG, JPEG or TIFF). Multi-page TIFFs are split automatically.

## Output
A PDF/A-2b file. Pages where OCR confidence averages below 0.6 are listed in the result's
`low_confidence_pages` so someone can check them.

## Throughput
About 1.5 s per page on the shared GPU pool; batches of 200+ pages are queued.
"""),
    E("ThumbnailGenerator", "tool", "1.0.0", "active", "Image -> Image",
      """Produces web-sized thumbnails with smart cropping that keeps faces and text in frame.""",
      "thumbnails, resize, crop", "ToolForge", "deterministic, pure",
      "0.99 28000 2026-11-21T16:00 70 local", "forge:ToolForge"),
]
