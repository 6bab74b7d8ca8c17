from dsl import E

ENTRIES = [
    E("SentimentScorerSpec", "other", "1.0.0", "active", "Text -> SentimentScore",
      """Interface for sentiment scorers: a score in [-1, 1], a label and a calibrated
      confidence; identical input must give identical output.""",
      "interface, sentiment, spec", "nlp-lab", "",
      "- 0 - - -", fmt="yaml", file="manifests/sentiment-scorer-spec.yaml"),
    E("LexiconSentiment", "tool", "0.4.0", "deprecated", "Text -> SentimentScore",
      """Word-list sentiment in the VADER style, used before we had trained models. Blind to
      sarcasm and to domain vocabulary.""",
      "sentiment, lexicon, vader, legacy", "nlp-lab", "deterministic, pure",
      "0.58 20300 2024-11-02T09:00 25 local", "impl:SentimentScorerSpec"),
    E("SentimentEngine", "tool", "4.1.0", "active", "Text -> SentimentScore",
      """General-purpose sentiment analysis for English text with document-level polarity and
      confidence.""",
      "sentiment, polarity, opinion, nlp", "nlp-lab", "deterministic",
      "0.90 18000 2026-02-20T10:00 160 local",
      "succ:LexiconSentiment impl:SentimentScorerSpec dep:SentimentTransformerModel"),
    E("SentimentEngine", "tool", "4.2.0", "active", "Text -> SentimentScore",
      """General-purpose sentiment analysis for English text: document- and sentence-level
      polarity with confidence, tuned on reviews, support tickets and news.""",
      "sentiment, polarity, opinion, nlp", "nlp-lab", "deterministic",
      "0.92 36400 2026-11-21T12:02 150 local",
      "succ:LexiconSentiment impl:SentimentScorerSpec dep:SentimentTransformerModel"),
    E("SentimentTransformerModel", "model", "2.0.0", "active", "",
      """RoBERTa-base checkpoint fine-tuned for three-class polarity on 1.2 million labelled
      sentences; the weights behind SentimentEngine.""",
      "roberta, model, weights, polarity", "nlp-lab", "deterministic",
      "0.96 36400 2026-11-21T12:02 60 local"),
    E("MultilingualSentiment", "tool", "1.3.0", "active", "Text -> SentimentScore",
      """Polarity scoring for 40 languages from one XLM-R model. A little less accurate than
      SentimentEngine on English, but no translation step is needed.""",
      "sentiment, multilingual, xlm-r, polarity", "nlp-lab", "",
      "0.87 9300 2026-11-20T16:45 320 cloud",
      "impl:SentimentScorerSpec sim:SentimentEngine"),
    E("SentimentLite", "tool", "0.6.0", "active", "Text -> SentimentScore",
      """Tiny distilled polarity model for edge devices and browsers. Very fast, but weak on
      anything longer than a sentence.""",
      "sentiment, distilled, edge, on-device", "j.lindqvist", "deterministic",
      "0.47 5100 2026-09-08T13:00 20 local", "sim:SentimentEngine"),
    E("EmotionClassifier", "tool", "1.0.2", "active", "Text -> EmotionProfile",
      """Detects joy, anger, fear, sadness, surprise and disgust in short texts and returns a
      probability for each.""",
      "emotion, affect, classification", "nlp-lab", "deterministic",
      "0.84 7700 2026-11-19T10:30 110 local"),
    E("AspectSentimentAnalyzer", "tool", "1.1.0", "active", "Text -> List[SentimentScore]",
      """Breaks reviews down by aspect (price, delivery, quality, support) and scores the
      opinion expressed on each one.""",
      "aspect-based sentiment, reviews, absa", "nlp-lab", "",
      "0.81 3300 2026-11-14T15:20 900 cloud", "sim:SentimentEngine"),
    E("TweetSentimentStream", "tool", "1.2.0", "active", "Stream[Tweet] -> Stream[SentimentScore]",
      """Scores a live stream of social posts as they arrive, coping with emoji, hashtags and
      slang, and emits a rolling average per topic every minute.""",
      "social media, sentiment, streaming, tweets", "nlp-lab", "streaming",
      "0.86 5200 2026-11-21T08:05 80 cloud", "dep:SentimentEngine"),
    E("NamedEntityRecognizer", "tool", "3.0.1", "active", "Text -> NamedEntities",
      """Finds people, organisations, places, dates, amounts and product names in text, using a
      large spaCy pipeline with extra labels for finance and legal documents.""",
      "ner, entities, spacy, extraction", "nlp-lab", "deterministic",
      "0.93 29000 2026-11-21T11:00 70 local", fmt="json", file="manifests/named-entity-recognizer.json"),
    E("EntityLinker", "tool", "1.2.0", "active", "NamedEntities -> KnowledgeGraph",
      """Links recognised entities to Wikidata identifiers, using the surrounding context to
      decide between candidates with the same name.""",
      "entity linking, wikidata, disambiguation", "nlp-lab", "cached, requires_network",
      "0.80 6400 2026-11-18T09:45 450 cloud", "dep:NamedEntityRecognizer"),
    E("PIIDetector", "tool", "2.4.0", "active", "Text -> NamedEntities",
      """Spots personal data such as email addresses, phone numbers, IBANs, passport and social
      security numbers, validating check digits wherever the format has them.""",
      "pii, privacy, personal data, gdpr", "nlp-lab", "deterministic",
      "0.96 17800 2026-11-21T10:10 35 local"),
    E("TextNormalizer", "tool", "1.6.0", "active", "Text -> CleanText",
      """Fixes mojibake, unifies quotes and dashes, strips control characters and normalises
      Unicode to NFC.""",
      "unicode, normalization, mojibake, cleanup", "nlp-lab", "deterministic, pure",
      "0.99 33100 2026-11-21T12:00 20 local"),
    E("TopicClassifier", "tool", "2.0.0", "active", "Text -> ClassLabel",
      """Assigns IAB content categories to articles and posts; multi-label, with a threshold you
      can tune per category.""",
      "topics, iab, categories, classification", "nlp-lab", "",
      "0.86 10400 2026-11-20T21:00 95 hybrid"),
    E("ToxicityFilter", "tool", "1.8.0", "active", "Text -> ClassLabel",
      """Scores text for insults, threats, hate and sexual content and says whether it passes
      your moderation threshold.""",
      "moderation, toxicity, abuse, safety", "trust-safety", "",
      "0.90 21000 2026-11-21T12:30 60 cloud"),
    E("KeyphraseExtractor", "tool", "1.1.0", "active", "Text -> Keyphrases",
      """Pulls the ten most characteristic phrases from a document with YAKE and a noun-phrase
      filter.""",
      "keyphrases, keywords, yake, tagging", "nlp-lab", "deterministic",
      "0.94 8800 2026-11-17T10:00 40 local"),
    E("SarcasmDetector", "tool", "0.1.0", "experimental", "Text -> ClassLabel",
      """Research prototype that guesses whether a sentence is sarcastic. Trained only on
      Reddit data, so expect surprises anywhere else.""",
      "sarcasm, irony, research", "nlp-lab", "",
      "0.48 210 2026-10-02T14:00 130 local"),
    E("IntentClassifier", "tool", "2.3.0", "active", "ChatMessage -> ClassLabel",
      """Routes support-chat messages to one of 48 intents (refund, delivery status, password
      reset, ...) with an 'unknown' fallback.""",
      "intent, support, chatbot, routing", "assistants-team", "deterministic",
      "0.91 24500 2026-11-21T12:40 50 local"),
    E(("SpeechTranscriber", "Speech Transcriber (Whisper)"), "tool", "2.0.0", "active", "AudioRecording -> Transcript",
      """Transcribes calls and meeting recordings with speaker turns and word timestamps
      (Whisper large-v3).""",
      "speech to text, asr, whisper, audio", "nlp-lab", "requires_gpu",
      "0.90 11300 2026-11-21T11:30 18000 hybrid"),
    E("SentimentPromptV1", "prompt", "1.0.0", "deprecated", "Text -> SentimentScore",
      """Zero-shot prompt asking a language model to rate sentiment from 1 to 5. Replaced by the
      trained classifier after its outputs drifted between model versions.""",
      "prompt, sentiment, zero-shot, llm", "PromptSmith", "",
      "0.46 6000 2025-04-01T12:00 1800 cloud", "forge:PromptSmith"),
    E("ReviewSentimentDataset", "dataset", "1.0.0", "active", "",
      """240k product reviews with star ratings and 12k hand-checked polarity labels, used to
      benchmark sentiment tools.""",
      "dataset, reviews, sentiment, benchmark", "nlp-lab", "",
      "- 58 2025-02-20T09:00 - -"),
    E("CoreferenceResolver", "tool", "0.4.0", "experimental", "Text -> Text",
      """Replaces pronouns with the entities they refer to, so later steps see 'Acme Corp said'
      instead of 'it said'.""",
      "coreference, pronouns, anaphora", "nlp-lab", "",
      "0.66 520 2026-11-04T10:00 700 local"),
    E("ReadabilityScorer", "tool", "1.0.0", "active", "Text -> Record",
      """Computes Flesch reading ease, grade level, sentence length and passive-voice ratio for a
      text.""",
      "readability, flesch, plain language", "ToolForge", "deterministic, pure",
      "0.99 2700 2025-06-02T09:00 25 local", "forge:ToolForge"),
    E("GrammarChecker", "tool", "2.1.0", "active", "Text -> CleanText",
      """Corrects spelling, grammar and punctuation in English and German, leaving names, code
      and URLs alone.""",
      "grammar, spelling, proofreading", "nlp-lab", "",
      "0.88 15200 2026-11-21T09:40 450 hybrid"),
    E("QuestionGenerator", "tool", "0.7.0", "experimental", "Text -> List[Question]",
      """Writes comprehension questions from a passage, for building quizzes and retrieval test
      sets.""",
      "questions, quiz, generation", "PromptSmith", "",
      "0.71 300 2026-10-12T15:00 3800 cloud", "forge:PromptSmith"),
]
