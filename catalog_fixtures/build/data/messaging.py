from dsl import E

ENTRIES = [
    E("NotifierProtocol", "other", "1.0.0", "active", "Notification -> DeliveryReceipt",
      """Interface for notifiers: deliver to a channel or a person, return a delivery id, retry
      transient failures, and never send twice for the same idempotency key.""",
      "interface, notifications, protocol", "comms-platform", "",
      "- 0 - - -", fmt="yaml", file="manifests/notifier-protocol.yaml"),
    E("EmailSender", "tool", "3.1.0", "active", "EmailMessage -> DeliveryReceipt",
      """Sends transactional email through SES with DKIM signing, bounce handling and
      per-recipient rate limits.""",
      "email, smtp, ses, transactional", "comms-platform", "idempotent, rate_limited",
      "0.99 49500 2026-11-21T16:58 300 cloud", "impl:NotifierProtocol"),
    E("SlackNotifier", "tool", "2.4.0", "active", "Notification -> DeliveryReceipt",
      """Posts messages, threaded replies and Block Kit cards to Slack channels or direct
      messages.""",
      "slack, chat, notifications, webhooks", "comms-platform", "idempotent",
      "0.99 47000 2026-11-21T16:59 180 cloud", "impl:NotifierProtocol"),
    E("TeamsNotifier", "tool", "1.2.0", "active", "Notification -> DeliveryReceipt",
      """Posts adaptive cards to Microsoft Teams channels and chats through the Graph API.""",
      "microsoft teams, notifications, adaptive cards", "comms-platform", "idempotent",
      "0.95 6200 2026-11-21T15:00 400 cloud", "impl:NotifierProtocol"),
    E("SMSGateway", "tool", "2.0.0", "active", "Notification -> DeliveryReceipt",
      """Text messages to 190 countries through two carriers with automatic failover; honours
      STOP and other opt-out keywords.""",
      "sms, text messages, carriers, mobile", "comms-platform", "idempotent, rate_limited",
      "0.97 14000 2026-11-21T16:00 900 cloud", "impl:NotifierProtocol"),
    E("PushNotifier", "tool", "1.0.0", "deprecated", "Notification -> DeliveryReceipt",
      """Mobile push through the old GCM API. Android delivery stopped working after that API
      was shut down.""",
      "push, mobile, gcm, legacy", "comms-platform", "",
      "0.31 11000 2025-05-12T10:00 300 cloud", "impl:NotifierProtocol"),
    E("EmailClassifier", "tool", "1.2.0", "deprecated", "EmailMessage -> ClassLabel",
      """Sorted support inbox mail into billing, technical and other with a keyword rules
      engine.""",
      "email, rules, support inbox, legacy", "support-tools", "deterministic",
      "0.49 19000 2025-08-01T10:00 80 local"),
    E("EmailTriage_v2", "tool", "2.3.0", "active", "EmailMessage -> ClassLabel",
      """Routes incoming support email to the right queue, sets priority from urgency cues and
      customer tier, and spots spam and auto-replies.""",
      "email, triage, support, routing, priority, spam", "support-tools", "",
      "0.91 33000 2026-11-21T16:40 240 cloud",
      "succ:EmailClassifier dep:IntentClassifier", name="Email Triage v2",
      fmt="card", file="cards/email-triage-v2.md", body="""
## Queues
Billing, Technical, Shipping, Account access, Partnerships, and Junk (spam, auto-replies,
out-of-office). Priority P1-P4 comes from urgency wording ("down", "can't log in", legal
threats) combined with the customer's plan.

## Feedback loop
Agents who move a ticket to another queue teach it: corrections are collected nightly and
the model is retrained weekly. Accuracy on the last 30 days is shown on the support
dashboard.

## Migrating from EmailClassifier
The old rules engine only knew three buckets. Map `other` to the new `Technical` queue for
the first week and review the misroutes before switching the fallback off.
"""),
    E(("ReplyDrafter", "Support Reply Drafter"), "agent", "1.5.0", "active", "EmailMessage -> EmailMessage",
      """Drafts an answer to a customer email from help-centre articles and the customer's order
      history; a person approves it before anything is sent.""",
      "customer support, drafting, replies, email", "support-tools", "",
      "0.83 12800 2026-11-21T16:45 5600 cloud", "dep:ReplyStylePrompt,HybridSearch"),
    E("ReplyStylePrompt", "prompt", "2.0.0", "active", "",
      """Tone-of-voice prompt for customer replies: friendly, brief, never blaming, and always
      ending with a concrete next step.""",
      "prompt, tone of voice, support", "PromptSmith", "",
      "0.90 12800 2026-11-21T16:45 - cloud", "forge:PromptSmith"),
    E("EmailThreadParser", "tool", "1.1.0", "active", "EmailMessage -> List[EmailMessage]",
      """Splits an email into the messages quoted inside it and removes signatures and 'On ...
      wrote:' headers.""",
      "email, threads, quoting, signatures", "comms-platform", "deterministic",
      "0.93 9700 2026-11-21T16:40 60 local"),
    E("AttachmentExtractor", "tool", "1.0.2", "active", "EmailMessage -> List[Document]",
      """Pulls attachments out of emails, sniffs their real file types and passes them on as
      documents; zip archives are opened.""",
      "attachments, email, files", "comms-platform", "deterministic",
      "0.98 22000 2026-11-21T16:40 150 local"),
    E("SlackChannelExporter", "tool", "1.0.0", "active", "APIEndpoint -> List[SlackMessage]",
      """Exports Slack channel history, including threads and reactions, for archiving or
      analysis, respecting retention settings.""",
      "slack, export, archive, history", "comms-platform", "requires_network, rate_limited",
      "0.95 2100 2026-11-19T02:00 9000 cloud"),
    E("ChatModerationBot", "agent", "1.3.0", "active", "Stream[ChatMessage] -> Stream[ChatMessage]",
      """Watches community chat, hides messages that break the rules, warns their authors and
      escalates repeat offenders to human moderators.""",
      "moderation, community, chat, trust and safety", "trust-safety", "streaming",
      "0.87 8800 2026-11-21T16:59 150 cloud", "dep:ToxicityFilter"),
    E("NewsletterComposer", "agent", "1.1.0", "active", "List[NewsArticle] -> EmailMessage",
      """Assembles the weekly newsletter from chosen articles: writes the blurbs, orders the
      sections and renders a responsive HTML email.""",
      "newsletter, email marketing, digest", "PipelineWeaver", "",
      "0.88 600 2026-11-20T08:00 16000 cloud", "dep:ArticleSummarizer forge:PipelineWeaver"),
    E("UnsubscribeHandler", "tool", "1.0.0", "active", "EmailMessage -> Record",
      """Processes unsubscribe replies and List-Unsubscribe clicks within minutes and updates the
      consent records.""",
      "unsubscribe, consent, email compliance", "ToolForge", "idempotent",
      "0.99 7700 2026-11-21T16:00 100 cloud", "forge:ToolForge"),
    E("SpamFilterLegacy", "tool", "2019.1.0", "deprecated", "EmailMessage -> ClassLabel",
      """Bayesian spam filter trained in 2019. Spam detection now lives in Email Triage v2;
      two legacy shared mailboxes still call this one until they are migrated.""",
      "spam, bayesian, legacy", "support-tools", "deterministic",
      "0.50 30000 2024-09-01T10:00 40 local"),
    E("MentionMonitor", "agent", "1.0.0", "active", "Stream[Tweet] -> Alert",
      """Watches social posts for mentions of our brands and products and alerts the comms team
      when volume or negativity spikes.""",
      "brand monitoring, mentions, social listening", "comms-platform", "streaming",
      "0.90 4100 2026-11-21T16:50 500 cloud", "dep:TweetSentimentStream,SlackNotifier"),
    E("VoicemailTranscriber", "pipeline", "1.0.0", "active", "AudioRecording -> EmailMessage",
      """Transcribes voicemails and emails the text, with the audio attached, to the mailbox
      owner.""",
      "voicemail, transcription, email", "comms-platform", "",
      "0.92 3600 2026-11-21T14:00 9000 cloud", "dep:SpeechTranscriber,EmailSender"),
    E("WebhookRelay", "tool", "1.0.0", "active", "",
      """Receives webhooks from third-party services, verifies their signatures and forwards
      them to internal queues with retries.""",
      "webhooks, relay, signatures, integration", "comms-platform", "idempotent",
      "0.99 38000 2026-11-21T16:59 40 cloud"),
    E("DigestEmailBuilder", "tool", "0.2.0", "experimental", "List[Notification] -> EmailMessage",
      """Bundles a day's low-priority notifications into one digest email instead of sending
      each on its own.""",
      "digest, batching, email, notifications", "ToolForge", "",
      "0.72 150 2026-11-20T18:00 1200 cloud", "forge:ToolForge"),
]
