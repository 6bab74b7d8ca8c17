from dsl import E

ENTRIES = [
    E("FinancialPDFAnalyzer", "agent", "3.0.0", "active", "PDF -> FinancialSentiment",
      """Reads annual reports and earnings releases in PDF form and extracts key financial
      metrics together with a management-tone sentiment score.""",
      "finance, pdf, sentiment, financial metrics, annual report", "quant-infra", "deterministic",
      "0.91 3100 2026-05-12T10:20 850 local",
      "dep:PDFParser_v2,PDFTableExtractor impl:SentimentScorerSpec"),
    E("FinancialPDFAnalyzer", "agent", "3.1.0", "active", "PDF -> FinancialSentiment",
      """Reads annual reports, 10-K filings and earnings releases in PDF form and extracts key
      financial metrics (revenue, margins, EPS, guidance) together with a sentiment score for
      management's tone in each section. Runs fully on-premises.""",
      "finance, pdf, sentiment, financial metrics, annual report, 10-K", "quant-infra",
      "deterministic",
      "0.94 6900 2026-11-20T17:48 800 local",
      "dep:PDFParser_v2,PDFTableExtractor,FinancialLexicon impl:SentimentScorerSpec"),
    E(("PDFSentimentQuick", "Quick PDF Sentiment"), "tool", "0.9.3", "active", "PDF -> SentimentScore",
      """Fast bag-of-words tone score for whole PDF reports. Cheap, but it misreads negations and
      numbers in tables, so most scores land near neutral.""",
      "pdf, sentiment, tone, fast", "j.lindqvist", "deterministic",
      "0.45 2600 2026-10-14T09:12 300 local", "sim:FinancialPDFAnalyzer"),
    E("ReportToneScorer", "tool", "1.2.0", "active", "PDF -> SentimentScore",
      """Sends the text of a report to a hosted language model that rates management tone from
      very negative to very positive and quotes the passages behind the rating.""",
      "pdf, tone, sentiment, llm, reports", "quant-infra", "requires_network",
      "0.86 2100 2026-11-15T11:03 5400 cloud",
      "dep:PDFParser_v2 sim:FinancialPDFAnalyzer"),
    E("QuoteFetcher", "tool", "1.2.0", "deprecated", "TickerSymbol -> StockQuote",
      """First-generation quote lookup against a single free API: prices delayed by 15 minutes
      and frequent throttling.""",
      "stocks, quotes, price, legacy", "quant-infra", "requires_network, rate_limited",
      "0.70 9000 2025-09-14T15:59 900 cloud"),
    E("StockTicker", "tool", "2.4.0", "active", "TickerSymbol -> StockQuote",
      """Returns the latest price, bid/ask and volume for a ticker from the primary exchange
      feed.""",
      "stocks, quotes, ticker, price", "quant-infra", "cached, rate_limited, requires_network",
      "0.95 26000 2026-02-27T15:59 140 cloud",
      "succ:QuoteFetcher dep:MarketDataGateway,ExchangeCalendar,QuoteCache"),
    E("StockTicker", "tool", "2.6.0", "active", "TickerSymbol -> StockQuote",
      """Returns the latest price, bid/ask, day range and volume for a ticker, merging the
      exchange feeds and falling back to a delayed source when the primary feed lags.""",
      "stocks, quotes, ticker, price, market data", "quant-infra",
      "cached, rate_limited, requires_network",
      "0.97 41200 2026-11-21T15:59 120 cloud",
      "succ:QuoteFetcher dep:MarketDataGateway,ExchangeCalendar,QuoteCache,CurrencyConverter,RateLimiter"),
    E("MarketDataGateway", "tool", "4.0.2", "active", "APIEndpoint -> Stream[StockQuote]",
      """Normalises streaming quotes from three exchange feeds into one stream with consistent
      symbols, UTC timestamps and price precision.""",
      "market data, streaming, exchange feeds, normalisation", "quant-infra",
      "streaming, requires_network",
      "0.98 38000 2026-11-21T15:59 25 cloud", fmt="json", file="manifests/market-data-gateway.json"),
    E("ExchangeCalendar", "tool", "1.9.0", "active", "",
      """Knows trading days, half days and holidays for 40 exchanges, so callers can ask whether
      a market is open at a given moment.""",
      "trading days, holidays, exchanges, market hours", "quant-infra", "deterministic, pure",
      "0.99 27500 2026-11-21T15:00 20 local"),
    E("CurrencyConverter", "tool", "2.0.0", "active", "",
      """Converts amounts between 160 currencies using ECB reference rates, with historical rates
      back to 1999.""",
      "fx, currency, exchange rates, conversion", "quant-infra", "cached",
      "0.99 18800 2026-11-21T14:10 40 cloud"),
    E("QuoteCache", "tool", "1.1.0", "active", "",
      """Redis-backed cache for quotes with per-symbol expiry tuned to market hours.""",
      "cache, redis, quotes", "quant-infra", "",
      "0.99 44000 2026-11-21T15:59 20 cloud"),
    E("PriceHistoryLoader", "tool", "2.3.0", "active", "TickerSymbol -> FinancialTimeSeries",
      """Downloads daily or intraday OHLCV history for a ticker, adjusted for splits and
      dividends.""",
      "prices, history, ohlcv, time series", "quant-infra", "cached, requires_network",
      "0.95 15300 2026-11-21T06:00 1400 cloud", "dep:MarketDataGateway,ExchangeCalendar"),
    E("VolatilityCalculator", "tool", "1.4.0", "active", "FinancialTimeSeries -> FinancialMetrics",
      """Computes realised volatility, beta against a benchmark, maximum drawdown and Sharpe
      ratio from a price series.""",
      "volatility, beta, drawdown, sharpe, risk", "quant-infra", "deterministic, pure",
      "0.99 6100 2026-11-20T18:00 80 local"),
    E("PortfolioRebalancer", "agent", "1.2.0", "active", "Portfolio -> List[Record]",
      """Proposes the trades that bring a portfolio back to its target weights while respecting
      lot sizes, a cash buffer and a turnover cap.""",
      "portfolio, rebalancing, trades, allocation", "quant-infra", "deterministic",
      "0.90 2100 2026-11-19T07:30 1900 hybrid", "dep:StockTicker"),
    E(("EarningsCallSummarizer", "Earnings Call Summarizer"), "agent", "1.5.0", "active", "Transcript -> ExecutiveSummary",
      """Condenses an earnings-call transcript into a one-page brief: guidance changes, the
      analysts' main concerns, and notable quotes from management.""",
      "earnings call, transcript, summary, investor relations", "quant-infra", "",
      "0.89 3400 2026-11-06T21:00 9000 cloud",
      "impl:SummarizerInterface dep:Summarizer_v4"),
    E("BalanceSheetExtractor", "tool", "1.1.0", "active", "FinancialPDF -> FinancialMetrics",
      """Locates the balance sheet, income statement and cash-flow statement in a filing and
      returns the line items as normalised metrics (assets, liabilities, equity, operating
      cash flow).""",
      "balance sheet, income statement, cash flow, filings", "SchemaSmith", "deterministic",
      "0.87 4300 2026-11-13T10:40 3100 local", "dep:PDFTableExtractor forge:SchemaSmith"),
    E("FilingFetcher", "tool", "1.0.4", "active", "TickerSymbol -> List[FinancialPDF]",
      """Downloads a company's recent 10-K, 10-Q and 8-K filings from EDGAR and renders them to
      PDF for the archive.""",
      "edgar, sec, filings, download", "quant-infra", "requires_network, rate_limited",
      "0.92 5200 2026-11-18T22:30 6000 cloud", "dep:WebScraper_v3,HTMLToPDF"),
    E("RiskFactorExtractor", "tool", "0.8.0", "active", "FinancialPDF -> List[Record]",
      """Pulls the Risk Factors section out of annual reports and tags each risk as regulatory,
      supply chain, currency, litigation, cyber or other.""",
      "risk factors, 10-K, classification, filings", "quant-infra", "",
      "0.83 1700 2026-10-30T16:00 2800 cloud", "dep:PDFParser_v2"),
    E("FinancialNewsSentiment", "tool", "2.0.0", "active", "NewsArticle -> FinancialSentiment",
      """Scores market-moving news for every company it mentions: each article gets a bullish or
      bearish score per ticker plus a confidence.""",
      "news, sentiment, tickers, bullish, bearish", "quant-infra", "",
      "0.88 14600 2026-11-21T13:30 260 hybrid",
      "dep:FinBERTSentiment,CompanyNameResolver impl:SentimentScorerSpec"),
    E("FinBERTSentiment", "model", "1.0.0", "active", "Text -> FinancialSentiment",
      """FinBERT checkpoint fine-tuned on analyst reports and financial headlines, with a
      three-way positive / neutral / negative head.""",
      "finbert, model, sentiment, finance", "quant-infra", "deterministic, requires_gpu",
      "0.91 22000 2026-11-21T13:30 45 local"),
    E("CompanyNameResolver", "tool", "1.3.0", "active", "Text -> List[TickerSymbol]",
      """Maps company names and aliases in text ('Alphabet', 'Google parent') to listed ticker
      symbols, preferring the primary listing.""",
      "entity resolution, tickers, companies, aliases", "quant-infra", "cached",
      "0.90 12100 2026-11-21T13:30 70 local"),
    E("FinancialLexicon", "dataset", "2026.2.0", "active", "",
      """Word lists for financial tone (positive, negative, uncertainty, litigious) in the
      Loughran-McDonald tradition, plus our own additions for crypto and ESG vocabulary.""",
      "lexicon, word lists, finance, tone", "quant-infra", "",
      "- 6900 2026-11-20T17:48 - -"),
    E("InvoiceReconciler", "agent", "1.0.0", "active", "InvoiceData -> Record",
      """Matches extracted invoices against purchase orders and bank transactions, and flags
      mismatched amounts, duplicates and invoices with no PO.""",
      "invoices, reconciliation, accounts payable, matching", "finance-ops", "",
      "0.85 3600 2026-11-20T11:20 1200 cloud", "dep:LedgerConnector"),
    E("LedgerConnector", "tool", "1.2.0", "active", "",
      """Read/write connector to the general ledger (Postgres) that refuses journal entries whose
      debits and credits do not balance.""",
      "ledger, accounting, connector, postgres", "finance-ops", "",
      "0.99 9800 2026-11-21T09:00 60 cloud", "impl:DBConnectorProtocol dep:PostgresConnector"),
    E("CryptoPriceFeed", "tool", "0.2.0", "experimental", "TickerSymbol -> Stream[StockQuote]",
      """Experimental websocket feed for crypto pairs across four exchanges, normalised into the
      same quote shape as equities.""",
      "crypto, bitcoin, websocket, prices", "j.lindqvist", "streaming, requires_network",
      "0.43 430 2026-11-02T00:00 60 cloud", "sim:MarketDataGateway"),
    E("DividendCalendar", "tool", "1.0.0", "retired", "TickerSymbol -> List[CalendarEvent]",
      """Listed upcoming ex-dividend and payment dates. The data vendor contract ended in 2024
      and the feed has returned empty results since.""",
      "dividends, ex-dividend, calendar", "quant-infra", "requires_network",
      "0.30 3300 2024-09-30T08:00 500 cloud"),
    E("EarningsCalendarFetcher", "tool", "1.1.0", "active", "TickerSymbol -> List[CalendarEvent]",
      """Upcoming earnings dates, call times and webcast links for a list of tickers, merged from
      company investor-relations pages.""",
      "earnings dates, calendar, investor relations", "quant-infra", "cached, requires_network",
      "0.89 4400 2026-11-21T05:00 1100 cloud", "dep:WebScraper_v3"),
    E("ESGScoreAggregator", "tool", "0.3.0", "experimental", "TickerSymbol -> FinancialMetrics",
      """Combines ESG ratings from three providers into one 0-100 score with a measure of how
      much they disagree. The weighting method is still under review.""",
      "esg, sustainability, ratings", "quant-infra", "requires_network",
      "0.44 380 2026-10-25T12:00 2100 cloud"),
    E("FraudSignalDetector", "tool", "2.2.0", "active", "DataFrame -> AnomalyReport",
      """Flags unusual card and wire transactions in a transactions table: velocity spikes, new
      beneficiaries and bursts of round amounts.""",
      "fraud, transactions, aml, anomalies", "risk-analytics", "",
      "0.82 8800 2026-11-21T10:00 400 hybrid"),
    E(("MarketBriefingAgent", "Market Briefing Agent"), "agent", "1.4.0", "active", "List[NewsArticle] -> ExecutiveSummary",
      """Writes the morning market briefing from overnight news and price moves, grouped by
      sector, with a watchlist of names that moved more than 3 percent.""",
      "market briefing, morning note, news, equities", "PipelineWeaver", "",
      "0.87 1900 2026-11-21T05:45 14000 cloud",
      "dep:StockTicker,FinancialNewsSentiment,Summarizer_v4 forge:PipelineWeaver"),
    E("LoanAmortizer", "tool", "1.0.0", "active", "",
      """Builds amortisation schedules for fixed and variable-rate loans, including balloon
      payments and payment holidays.""",
      "loans, amortisation, schedule, interest", "ToolForge", "deterministic, pure",
      "0.99 1100 2025-04-11T10:00 20 local", "forge:ToolForge"),
]
