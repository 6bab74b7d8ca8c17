from dsl import E

ENTRIES = [
    E("TranslatorInterface", "other", "1.0.0", "active", "Text -> TranslatedText",
      """Interface for translators: source language optional (auto-detected), target language
      required, markup and placeholders such as {name} preserved.""",
      "interface, translation, spec", "localization-team", "",
      "- 0 - - -", fmt="yaml", file="manifests/translator-interface.yaml"),
    E("TranslateBot", "tool", "0.8.0", "retired", "Text -> TranslatedText",
      """Phrase-based statistical translator from the first localisation pipeline, covering six
      languages.""",
      "translation, smt, legacy", "localization-team", "deterministic",
      "0.48 17000 2024-01-19T10:00 700 cloud", "impl:TranslatorInterface"),
    E("NeuralTranslator", "tool", "5.0.0", "active", "Text -> TranslatedText",
      """Neural machine translation between 50 languages with glossary enforcement.""",
      "translation, nmt, machine translation", "localization-team", "",
      "0.92 21000 2026-03-01T10:00 700 cloud",
      "succ:TranslateBot impl:TranslatorInterface dep:LanguageDetector"),
    E("NeuralTranslator", "tool", "5.3.1", "active", "Text -> TranslatedText",
      """Neural machine translation between 50 languages with glossary enforcement and
      formality control; HTML tags and placeholders come through intact.""",
      "translation, nmt, machine translation, glossary", "localization-team", "",
      "0.94 40300 2026-11-21T16:30 650 cloud",
      "succ:TranslateBot impl:TranslatorInterface dep:LanguageDetector"),
    E("LanguageDetector", "tool", "1.2.0", "active", "Text -> LanguageCode",
      """Identifies the language of a text (170 languages, fastText) with a confidence; works
      from about 20 characters.""",
      "language identification, fasttext, detection", "localization-team", "deterministic, pure",
      "0.98 49210 2026-11-21T16:30 20 local"),
    E("LocalizationQA", "tool", "1.4.0", "active", "TranslatedText -> Report",
      """Checks translations for broken placeholders, glossary violations, UI strings that will
      overflow their space, and segments left untranslated.""",
      "localization, qa, placeholders, glossary", "localization-team", "deterministic",
      "0.96 8200 2026-11-21T15:00 200 local"),
    E("SubtitleTranslator", "tool", "1.0.0", "active", "SubtitleFile -> SubtitleFile",
      """Translates SRT and WebVTT subtitle files and re-times lines that become too long to
      read.""",
      "subtitles, srt, vtt, video", "localization-team", "",
      "0.89 2300 2026-11-18T10:00 7000 cloud", "dep:NeuralTranslator"),
    E("DocumentTranslator", "pipeline", "2.0.0", "active", "Document -> Document",
      """Translates Word, PowerPoint and PDF files while keeping layout, fonts and images where
      they were.""",
      "document translation, layout, docx, pptx, pdf", "localization-team", "",
      "0.87 6700 2026-11-21T12:00 14000 cloud", "dep:NeuralTranslator",
      fmt="json", file="manifests/document-translator.json"),
    E("GlossaryBuilder", "tool", "0.8.0", "active", "List[Document] -> Glossary",
      """Mines term pairs from existing translated documents to build a bilingual glossary for
      a terminologist to review.""",
      "terminology, glossary, term extraction", "localization-team", "",
      "0.80 700 2026-11-05T10:00 18000 cloud", "dep:TranslationMemory"),
    E("TransliterationTool", "tool", "1.0.0", "active", "Text -> Text",
      """Converts between scripts (Cyrillic, Greek, Arabic, Devanagari, Hangul to Latin and
      back) using standard romanisation schemes.""",
      "transliteration, romanisation, scripts", "localization-team", "deterministic, pure",
      "0.97 3600 2025-10-02T10:00 25 local"),
    E("UIStringTranslator", "tool", "1.2.0", "active", "JSONData -> JSONData",
      """Translates app string files key by key, leaving placeholders and ICU plural rules
      untouched.""",
      "i18n, app strings, resource files, icu", "localization-team", "",
      "0.93 5100 2026-11-21T09:00 2900 cloud", "dep:NeuralTranslator"),
    E(("LiveCaptionTranslator", "Live Caption Translator"), "tool", "0.3.0", "experimental",
      "Stream[Transcript] -> Stream[TranslatedText]",
      """Translates live meeting captions with less than two seconds of delay.""",
      "live captions, real-time, meetings", "localization-team", "streaming",
      "0.71 260 2026-11-19T15:00 1500 cloud", "dep:NeuralTranslator"),
    E("TranslationMemory", "dataset", "2026.3.0", "active", "",
      """1.8 million aligned segments from five years of approved translations, used for
      glossary mining and quality estimation.""",
      "translation memory, tmx, parallel corpus", "localization-team", "",
      "- 940 2026-11-05T10:00 - -"),
    E("MarketingTranscreationPrompt", "prompt", "1.0.0", "active", "Text -> TranslatedText",
      """Prompt for transcreating marketing copy: keep the meaning and tone, adapt idioms, and
      flag claims that may not be allowed in the target market.""",
      "prompt, transcreation, marketing copy", "PromptSmith", "",
      "0.82 900 2026-11-10T10:00 4000 cloud", "forge:PromptSmith"),
    E("QualityEstimator", "model", "1.0.0", "active", "TranslatedText -> Record",
      """Predicts a translation quality score without a reference (COMET-QE style), to decide
      which segments need human post-editing.""",
      "quality estimation, comet, post-editing", "localization-team", "requires_gpu",
      "0.90 9300 2026-11-21T15:00 250 local"),
    E("PhraseTranslatorLite", "tool", "0.5.0", "deprecated", "Text -> TranslatedText",
      """Offline dictionary-based translator for short UI labels. Deprecated because it cannot
      handle sentences.""",
      "offline, dictionary, ui labels", "localization-team", "deterministic, pure",
      "0.50 1200 2025-03-03T10:00 30 local", "impl:TranslatorInterface"),
    E("PseudoLocalizer", "tool", "1.0.0", "active", "JSONData -> JSONData",
      """Produces pseudo-localised string files (accented, 40 percent longer, bracketed) so UI
      truncation bugs show up before real translations arrive.""",
      "pseudo-localization, i18n testing", "ToolForge", "deterministic, pure",
      "0.99 1300 2025-12-04T10:00 20 local", "forge:ToolForge"),
]
