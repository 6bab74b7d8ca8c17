from dsl import E

ENTRIES = [
    E("ScraperProtocol", "other", "1.1.0", "active", "URL -> RawHTML",
      """What every scraper must honour: identify itself with a contact user agent, obey
      robots.txt, back off on 429 and 503 responses, and return the response body together
      with the final URL after redirects.""",
      "interface, scraping, protocol, politeness", "web-data-team", "",
      "- 0 - - -", fmt="yaml", file="manifests/interfaces.yaml"),
    E("BaseScraper", "tool", "0.9.4", "retired", "URL -> RawHTML",
      """The original requests-based page fetcher: one GET with three retries and a fixed user
      agent. No JavaScript, no cookies, no politeness delays.""",
      "scraper, fetch, http, requests, legacy", "web-data-team", "requires_network",
      "0.72 48000 2025-01-15T04:10 700 local", "impl:ScraperProtocol"),
    E("WebScraper_v2", "tool", "2.4.0", "deprecated", "URL -> RawHTML",
      """Second-generation fetcher: per-domain rate limits, cookie jars and a robots.txt cache.
      Synchronous, so large crawls need many workers.""",
      "scraper, fetch, http, crawler", "web-data-team", "requires_network, rate_limited",
      "0.83 31000 2025-12-02T23:50 900 local",
      "succ:BaseScraper impl:ScraperProtocol dep:RobotsPolicyChecker"),
    E("WebScraper_v3", "tool", "3.0.0", "active", "URL -> RawHTML",
      """Async fetcher with HTTP/2 and per-host concurrency budgets.""",
      "scraper, fetch, http, async, crawler", "web-data-team", "requires_network, rate_limited",
      "0.94 12800 2026-04-11T10:00 700 local",
      "succ:WebScraper_v2 impl:ScraperProtocol dep:RobotsPolicyChecker"),
    E("WebScraper_v3", "tool", "3.1.2", "active", "URL -> RawHTML",
      """Async fetcher with HTTP/2, per-host concurrency budgets, conditional requests
      (ETag / Last-Modified) and retries with jittered backoff.""",
      "scraper, fetch, http, async, crawler", "web-data-team", "requires_network, rate_limited",
      "0.96 45100 2026-11-21T06:31 650 local",
      "succ:WebScraper_v2 impl:ScraperProtocol dep:RobotsPolicyChecker,RateLimiter"),
    E(("HeadlessBrowserScraper", "Headless Browser Scraper"), "tool", "1.7.0", "active", "URL -> RawHTML",
      """Loads pages in headless Chromium so that JavaScript-rendered content is present, waits
      for the network to go idle, then returns the DOM serialised back to HTML.""",
      "scraper, headless, chromium, javascript, spa", "web-data-team", "requires_network",
      "0.89 12800 2026-11-19T18:02 4200 cloud",
      "impl:ScraperProtocol dep:ChromiumPool sim:WebScraper_v3"),
    E("ChromiumPool", "tool", "2.2.0", "active", "",
      """Keeps a warm pool of sandboxed headless Chromium instances and leases them to callers;
      a browser is recycled after 50 pages or on any crash.""",
      "browser, chromium, pool, infrastructure", "web-data-team", "",
      "0.98 49800 2026-11-21T08:00 35 cloud", fmt="json", file="manifests/chromium-pool.json"),
    E("SitemapCrawler", "tool", "1.3.0", "active", "URL -> List[URL]",
      """Reads sitemap.xml files and sitemap indexes, gzipped or not, and lists every page URL
      with its lastmod date.""",
      "sitemap, crawler, urls, discovery", "web-data-team", "requires_network",
      "0.97 4200 2026-11-14T02:00 1500 local", "dep:WebScraper_v3"),
    E("LinkExtractor", "tool", "1.0.5", "active", "RawHTML -> List[URL]",
      """Collects absolute links from a page: resolves relative hrefs against the base URL and
      drops mailto:, javascript: and fragment-only links.""",
      "links, href, urls, crawler", "web-data-team", "deterministic, pure",
      "0.99 16700 2026-11-20T23:11 30 local"),
    E("HTMLStripper", "tool", "1.2.0", "active", "RawHTML -> CleanText",
      """Removes tags, scripts, styles and boilerplate markup from HTML and collapses
      whitespace, leaving the readable text.""",
      "html, strip tags, plain text, cleanup", "web-data-team", "deterministic, pure",
      "0.97 27400 2026-11-21T05:20 40 local"),
    E("BoilerplateRemover", "tool", "0.8.1", "deprecated", "RawHTML -> CleanText",
      """Heuristic main-text extraction based on link density and block length. Often keeps
      cookie notices and drops short articles entirely.""",
      "boilerplate, main content, html, legacy", "p.sharma", "deterministic",
      "0.63 8900 2025-09-27T12:00 120 local", "sim:HTMLStripper,ReadabilityExtractor"),
    E("DOMParser", "tool", "2.0.0", "active", "RawHTML -> HTMLDocument",
      """Parses raw HTML into a navigable document tree following html5lib rules, repairing
      unclosed tags the way browsers do.""",
      "html, dom, parser, html5lib", "web-data-team", "deterministic, pure",
      "0.99 21900 2026-11-21T06:40 55 local"),
    E("NewsParser", "tool", "1.5.0", "active", "RawHTML -> NewsArticle",
      """Turns a news web page into a structured article with headline, byline and body text.""",
      "news, article, parser", "web-data-team", "deterministic",
      "0.84 5200 2025-04-18T09:00 310 local", "dep:DOMParser"),
    E("NewsParser", "tool", "1.8.0", "active", "RawHTML -> NewsArticle",
      """Turns a news web page into a structured article: headline, byline, publication date and
      body paragraphs.""",
      "news, article, parser, headline, byline", "web-data-team", "deterministic",
      "0.89 11200 2025-11-30T09:00 260 local", "dep:DOMParser"),
    E("NewsParser", "tool", "2.0.1", "active", "RawHTML -> NewsArticle",
      """Turns a news web page into a structured article: headline, byline, publication date,
      section and body paragraphs, with ads and related-story widgets dropped. Knows the
      markup of 300 major outlets and falls back to schema.org NewsArticle metadata.""",
      "news, article, parser, headline, byline", "web-data-team", "deterministic",
      "0.93 19400 2026-11-20T22:45 220 local", "dep:DOMParser"),
    E("ReadabilityExtractor", "tool", "1.1.0", "active", "HTMLDocument -> CleanText",
      """Picks the main content block of a page with Mozilla Readability heuristics and returns
      it as plain text, skipping navigation, footers and comment sections.""",
      "readability, main content, article text, html", "web-data-team", "deterministic",
      "0.90 8800 2026-11-16T13:30 90 local", "sim:HTMLStripper"),
    E("RSSFeedReader", "tool", "1.4.0", "active", "URL -> List[NewsArticle]",
      """Polls RSS and Atom feeds and returns the items that are new since the previous poll,
      de-duplicated by GUID.""",
      "rss, atom, feeds, news", "web-data-team", "cached, requires_network",
      "0.95 11200 2026-11-21T07:00 800 local", "dep:WebScraper_v3"),
    E("PaywallDetector", "tool", "0.4.0", "active", "RawHTML -> ClassLabel",
      """Flags pages whose body is hidden behind a subscription or metered wall, so downstream
      steps can skip them instead of summarising a teaser.""",
      "paywall, subscription, classifier", "ToolForge", "deterministic",
      "0.77 3100 2026-11-10T20:15 45 local", "forge:ToolForge",
      fmt="card", file="cards/paywall-detector.md", body="""
## Where it sits
Between the fetcher and the parser in news pipelines. Pages it flags are dropped before
NewsParser and the summarizers see them, so we do not publish summaries of teaser
paragraphs.

## Signals it uses
- schema.org `isAccessibleForFree: false` and `hasPart` paywall markers;
- known paywall script hosts and CSS classes for about 40 vendors;
- a body that ends mid-sentence under a fade-out overlay.

## Accuracy
Generated by ToolForge from 600 labelled pages. Precision is high (0.96), recall lower
(0.77 success rate overall): metered walls that only trigger after a few free articles are
usually missed, because our crawler never reaches the limit.
"""),
    E(("RobotsPolicyChecker", "robots.txt Policy Checker"), "tool", "1.0.3", "active", "URL -> ClassLabel",
      """Answers allowed or disallowed for a URL under the site's robots.txt for our crawler's
      user agent, caching each robots file for 24 hours.""",
      "robots.txt, politeness, crawler, compliance", "web-data-team", "cached",
      "0.99 50000 2026-11-21T08:10 20 local"),
    E("ScreenshotCapture", "tool", "1.5.0", "active", "URL -> Screenshot",
      """Takes a full-page PNG of a URL at a desktop or mobile viewport.""",
      "screenshot, png, capture, viewport", "web-data-team", "requires_network",
      "0.94 6100 2026-11-12T16:20 3800 cloud", "dep:ChromiumPool"),
    E("WebArchiveFetcher", "tool", "1.0.0", "active", "URL -> RawHTML",
      """Fetches the Wayback Machine snapshot closest to a given date, for pages that changed or
      vanished since they were cited.""",
      "wayback, archive, snapshot, history", "p.sharma", "requires_network, rate_limited",
      "0.86 1500 2025-12-19T11:45 2900 cloud", "impl:ScraperProtocol"),
    E("TableScraper", "tool", "1.2.2", "active", "RawHTML -> ExtractedTable",
      """Extracts <table> elements into data frames, handling rowspan and colspan as well as
      number formats such as 1.234,56.""",
      "html tables, scraping, dataframe", "web-data-team", "deterministic",
      "0.91 5400 2026-11-05T09:10 70 local"),
    E("ProductPageScraper", "agent", "1.3.0", "active", "URL -> Record",
      """Scrapes product pages from common storefronts into a record with title, price,
      currency, availability and SKU, preferring schema.org markup when the page has it.""",
      "ecommerce, product, price, scraper", "ToolForge", "requires_network",
      "0.74 7300 2026-11-18T03:00 1600 cloud",
      "impl:ScraperProtocol dep:WebScraper_v3 forge:ToolForge"),
    E("JobBoardScraper", "tool", "0.6.0", "deprecated", "URL -> List[Record]",
      """Scrapes job postings from a fixed list of boards. Built on BaseScraper and breaks
      whenever a board changes its markup.""",
      "jobs, postings, scraper, legacy", "r.okafor", "requires_network",
      "0.41 2300 2025-06-20T05:00 2400 local", "dep:BaseScraper"),
    E("SocialStreamListener", "tool", "2.1.0", "active", "APIEndpoint -> Stream[Tweet]",
      """Subscribes to a social platform's filtered streaming API and yields matching posts as
      they arrive, reconnecting with backoff when the connection drops.""",
      "social media, streaming, posts, firehose", "web-data-team", "streaming, requires_network",
      "0.88 9700 2026-11-21T08:05 300 cloud"),
    E("TweetArchiveScraper", "tool", "0.5.2", "retired", "URL -> List[Tweet]",
      """Scraped public profile timelines until the platform closed unauthenticated access.
      Kept for lineage only.""",
      "twitter, timeline, scraper, legacy", "r.okafor", "requires_network",
      "0.12 4100 2024-03-08T19:30 3100 local", "dep:BaseScraper"),
    E("LLMPageExtractor", "agent", "0.5.0", "experimental", "HTMLDocument -> JSONData",
      """Give it a page and a JSON schema and a language model fills the schema from the page.
      Meant for one-off sites where writing selectors is not worth the effort.""",
      "llm, extraction, schema, structured output", "web-data-team", "requires_network",
      "0.50 880 2026-11-17T14:00 7800 cloud", "dep:ScrapeFieldsPrompt"),
    E("ScrapeFieldsPrompt", "prompt", "1.0.0", "active", "RawHTML -> JSONData",
      """Prompt template: given page content and a target schema, reply with valid JSON only,
      using null for fields the page does not contain. Includes three worked examples.""",
      "prompt, extraction, json, schema", "PromptSmith", "",
      "0.80 880 2026-11-17T14:00 - cloud", "forge:PromptSmith"),
    E("HTMLSanitizer", "tool", "1.3.1", "active", "RawHTML -> RawHTML",
      """Makes untrusted HTML safe to display: removes scripts, event handlers, iframes and
      javascript: URLs while keeping formatting tags.""",
      "html, sanitize, xss, security", "web-data-team", "deterministic, pure",
      "0.99 14300 2026-11-20T19:00 25 local"),
    E("PageChangeWatcher", "tool", "1.0.1", "active", "URL -> Alert",
      """Re-fetches a list of pages on a schedule and raises an alert with a text diff when the
      visible content changes, ignoring timestamps and rotating ads.""",
      "change detection, diff, watch, pages", "ToolForge", "requires_network",
      "0.88 2600 2026-11-21T04:00 1800 cloud", "forge:ToolForge dep:WebScraper_v3,HTMLStripper"),
    E("CanonicalURLResolver", "tool", "0.9.0", "experimental", "URL -> URL",
      """Follows redirects and rel=canonical links and strips tracking parameters (utm_*, fbclid)
      to produce one canonical address per page.""",
      "url, canonical, redirects, tracking parameters", "p.sharma", "cached",
      "0.78 900 2026-11-01T12:00 400 local"),
]
