from dsl import E

ENTRIES = [
    E("FGent", "agent", "1.3.0", "active", "",
      """The forge coordinator: takes a capability request ('I need something that turns A into
      B'), checks whether the catalog already has it, otherwise commissions ToolForge,
      PromptSmith or SchemaSmith, and registers whatever they produce.""",
      "forge, coordinator, capability request, meta-agent", "platform-core", "",
      "0.86 2900 2026-11-21T14:00 25000 cloud",
      "dep:ToolForge,PromptSmith,SchemaSmith,PipelineWeaver", name="F-gent"),
    E("ToolSmith", "agent", "0.4.0", "retired", "",
      """First tool generator: filled Jinja templates for HTTP API wrappers. Could not write or
      run tests.""",
      "code generation, templates, legacy", "platform-core", "",
      "0.35 400 2024-03-15T10:00 12000 cloud"),
    E("ToolForge", "agent", "2.4.0", "active", "",
      """Writes and packages small Python tools from a natural-language request and a type
      signature.""",
      "forge, tool generation, code generation", "platform-core", "",
      "0.74 800 2025-11-30T10:00 31000 cloud",
      "succ:ToolSmith dep:ForgeSandbox forge:FGent"),
    E("ToolForge", "agent", "3.0.0", "active", "",
      """Writes, tests and packages small Python tools from a natural-language request and a type
      signature; every tool it ships has passed its generated tests in the sandbox.""",
      "forge, tool generation, code generation, testing", "platform-core", "",
      "0.82 1700 2026-11-21T14:00 27000 cloud",
      "succ:ToolSmith dep:ForgeSandbox,ContractVerifier forge:FGent"),
    E("PromptSmith", "agent", "2.0.0", "active", "",
      """Drafts prompt templates for a task, runs each variant against a small graded example
      set, and keeps the best one with its scores attached.""",
      "forge, prompt engineering, prompt templates, evaluation", "platform-core", "",
      "0.88 2300 2026-11-21T13:00 15000 cloud", "dep:PromptEvalSet forge:FGent"),
    E("SchemaSmith", "agent", "1.1.0", "active", "",
      """Generates parsers, format converters and API clients from sample files or schemas, and
      proves them with round-trip tests on the samples.""",
      "forge, parsers, converters, code generation", "platform-core", "",
      "0.85 900 2026-11-19T10:00 18000 cloud", "dep:ForgeSandbox forge:FGent"),
    E("PipelineWeaver", "agent", "1.2.0", "active", "",
      """Composes multi-step pipelines from catalog artifacts by matching output and input types,
      asks the forges to fill any gap, and publishes the result as a pipeline artifact.""",
      "forge, composition, pipelines, orchestration", "platform-core", "",
      "0.80 1100 2026-11-20T10:00 9000 cloud", "dep:ToolForge,ArtifactHealthProbe"),
    E("ForgeSandbox", "tool", "1.5.0", "active", "",
      """Isolated gVisor sandbox without network access where forged code and its tests run
      under CPU, memory and time limits.""",
      "sandbox, isolation, gvisor, execution", "platform-core", "",
      "0.99 21000 2026-11-21T14:00 900 cloud", fmt="yaml", file="manifests/forge-sandbox.yaml"),
    E("ContractVerifier", "tool", "1.0.0", "active", "",
      """Tests an artifact's declared contracts by experiment: runs it twice to check
      determinism and idempotence, traces its I/O for purity, and reports any claim that
      failed.""",
      "contracts, verification, determinism, purity", "platform-core", "",
      "0.95 3800 2026-11-21T14:00 6000 cloud"),
    E("PromptEvalSet", "dataset", "1.4.0", "active", "",
      """Small graded example sets (20 to 50 cases per task) that PromptSmith uses to score
      prompt variants.""",
      "dataset, prompts, evaluation", "platform-core", "",
      "- 2300 2026-11-21T13:00 - -"),
    E("AgentRouter", "agent", "2.0.0", "active", "",
      """Reads an incoming task and hands it to the registered agent best suited to it, falling
      back to a general assistant.""",
      "routing, dispatch, orchestration", "platform-core", "",
      "0.90 48000 2026-11-21T16:59 400 cloud"),
    E("ToolCardWriter", "agent", "1.0.0", "active", "SourceCode -> MarkdownText",
      """Reads a tool's code and tests and writes its catalog card: purpose, inputs and outputs,
      contracts, examples and known limits.""",
      "documentation, catalog cards, tools", "PromptSmith", "",
      "0.87 1500 2026-11-20T14:00 8000 cloud", "forge:PromptSmith"),
    E("RetryWrapper", "tool", "1.0.0", "active", "",
      """Wraps any tool call with retries, exponential backoff and a circuit breaker, configured
      per tool from the catalog.""",
      "retries, backoff, circuit breaker, resilience", "platform-core", "",
      "0.99 46000 2026-11-21T16:59 20 local"),
    E("RateLimiter", "tool", "1.1.0", "active", "",
      """Token-bucket rate limiting shared across workers through Redis; each tool declares its
      budget in the catalog.""",
      "rate limiting, token bucket, redis, quotas", "platform-core", "",
      "0.99 48950 2026-11-21T16:59 20 local"),
    E("DeprecationNotifier", "tool", "1.0.0", "active", "",
      """Warns the owners of pipelines that still depend on deprecated or retired artifacts, with
      the suggested successor and a deadline.""",
      "deprecation, lineage, owners, migration", "platform-core", "",
      "0.97 640 2026-11-18T09:00 1200 cloud", "dep:SlackNotifier"),
    E("CatalogLinter", "tool", "0.6.0", "experimental", "",
      """Checks catalog entries for missing descriptions, undeclared types, relations to missing
      artifacts and suspicious health numbers.""",
      "catalog, lint, validation, metadata", "ToolForge", "deterministic",
      "0.81 120 2026-11-16T09:00 300 local", "forge:ToolForge"),
]
