from dsl import E

ENTRIES = [
    E("CodeReviewer", "agent", "1.0.0", "retired", "CodeDiff -> Report",
      """Posted lint-style review comments on pull requests from a rules file. Noisy, with no
      understanding of context.""",
      "code review, pull requests, rules, legacy", "devex-team", "",
      "0.44 9800 2024-07-01T10:00 6000 cloud"),
    E("CodeReviewer_v2", "agent", "2.3.0", "deprecated", "CodeDiff -> Report",
      """Language-model review of pull-request diffs, with context limited to the changed
      files.""",
      "code review, pull requests, llm", "devex-team", "requires_network",
      "0.74 21000 2026-02-11T10:00 19000 cloud", "succ:CodeReviewer"),
    E("CodeReviewer_v3", "agent", "3.0.0", "active", "CodeDiff -> Report",
      """Reviews pull requests with the whole repository indexed: spots bugs, missing tests and
      API misuse, suggests concrete patches, and stays quiet about style the formatter already
      handles.""",
      "code review, pull requests, bugs, patches", "devex-team", "requires_network",
      "0.88 17600 2026-11-21T16:00 24000 cloud",
      "succ:CodeReviewer_v2 dep:CodeSearchIndex,ReviewCommentPrompt",
      fmt="card", file="cards/code-reviewer-v3.md", body="""
## Setup
Install the GitHub app on the repository and add `.reviewer.yml`:
```yaml
paths_ignore: ["migrations/**", "*.lock"]
severity_threshold: medium   # low | medium | high
max_comments: 8
```
The first run indexes the repository through CodeSearchIndex (a few minutes for 1M lines);
later runs only re-index changed files.

## What you get
One summary comment plus inline comments, each with a suggested patch when it has one.
Comments are limited to correctness, security, concurrency and missing tests; formatting and
naming are left to the formatter and linter.

## Cost and time
Median 24 s per pull request, longer for diffs over 2,000 lines (those are reviewed file by
file). Replaces CodeReviewer_v2, whose comments did not see code outside the diff.
"""),
    E("ReviewCommentPrompt", "prompt", "2.0.0", "active", "CodeDiff -> Report",
      """Prompt used by the reviewer: comment only on correctness, security and missing tests,
      one comment per issue, each with a suggested patch.""",
      "prompt, code review, comments", "PromptSmith", "",
      "0.88 17600 2026-11-21T16:00 - cloud", "forge:PromptSmith"),
    E("PythonLinter", "tool", "0.9.0", "active", "PythonCode -> LintReport",
      """Runs ruff with the team rule set and returns findings with file, line, rule code and
      whether an autofix is available.""",
      "lint, ruff, python, static analysis", "devex-team", "deterministic",
      "0.99 45000 2026-11-21T16:20 300 local"),
    E("CodeFormatter", "tool", "24.1.0", "active", "PythonCode -> PythonCode",
      """Formats Python in black-compatible style and sorts imports; running it twice changes
      nothing.""",
      "formatter, black, isort, python", "devex-team", "deterministic, idempotent, pure",
      "0.99 49000 2026-11-21T16:20 150 local"),
    E("TestGenerator", "agent", "1.2.0", "active", "PythonCode -> PythonCode",
      """Writes pytest unit tests for a module, aiming at uncovered branches, and runs them
      before returning so only passing tests are kept.""",
      "pytest, unit tests, coverage, generation", "devex-team", "",
      "0.76 5200 2026-11-20T18:00 26000 cloud", "dep:ForgeSandbox"),
    E("DocstringWriter", "tool", "1.0.0", "active", "PythonCode -> PythonCode",
      """Adds Google-style docstrings to functions and classes that lack them, inferring what
      each parameter means from names, types and call sites.""",
      "docstrings, documentation, python", "ToolForge", "",
      "0.83 3900 2026-11-18T14:00 4200 cloud", "forge:ToolForge"),
    E("TypeAnnotator", "tool", "0.3.0", "experimental", "PythonCode -> PythonCode",
      """Adds type hints to untyped Python using runtime traces from the test suite, then checks
      the result with mypy.""",
      "type hints, mypy, python, annotations", "devex-team", "",
      "0.45 340 2026-11-11T10:00 15000 local"),
    E("CodeSearchIndex", "tool", "2.0.0", "active", "SourceCode -> VectorStore",
      """Indexes a repository with symbol-aware chunking and embeddings so agents can look code
      up by meaning or by name.""",
      "code search, embeddings, repository, index", "devex-team", "cached",
      "0.94 8800 2026-11-21T16:00 1400 hybrid", "dep:EmbeddingGenerator_v2"),
    E("DependencyAuditor", "tool", "1.7.0", "active", "LockFile -> Report",
      """Checks lock files for packages with known vulnerabilities (OSV database) and licence
      conflicts, and proposes the smallest safe upgrade.""",
      "dependencies, vulnerabilities, cve, osv, licences", "security-team", "requires_network",
      "0.97 14500 2026-11-21T16:20 2200 cloud",
      fmt="card", file="cards/dependency-auditor.md", body="""
## In CI
Runs on every pull request that touches a lock file, and nightly on the default branch.
Supported: poetry.lock, uv.lock, requirements*.txt with hashes, package-lock.json,
pnpm-lock.yaml, go.sum and Cargo.lock.

## What fails the build
- a known vulnerability with CVSS >= 7 that has a fixed version available;
- a newly added dependency under a licence on the deny list (AGPL, SSPL by default).
Everything else is reported as a comment without failing.

## Upgrade proposals
For each finding it proposes the smallest version bump that clears it and checks that the
bump does not conflict with other pins. It does not open pull requests itself; the
dependency bot does that from the proposals.

## Offline use
The OSV snapshot is refreshed hourly; set `osv_snapshot` to a local path for air-gapped
runners.
"""),
    E("CommitMessageWriter", "tool", "1.1.0", "active", "CodeDiff -> Text",
      """Drafts a conventional-commit message (type, scope, subject, body) from a staged diff.""",
      "git, commit message, conventional commits", "PromptSmith", "",
      "0.90 31200 2026-11-21T16:30 1300 cloud", "forge:PromptSmith"),
    E("SQLInjectionScanner", "tool", "1.3.0", "active", "SourceCode -> Report",
      """Static analysis that traces user input into string-built SQL and raw query calls in
      Python, Java and Go code.""",
      "security, sql injection, sast, taint analysis", "security-team", "deterministic",
      "0.92 7100 2026-11-21T16:20 3500 local"),
    E("SecretScanner", "tool", "2.0.0", "active", "SourceCode -> Report",
      """Finds API keys, tokens and private keys committed to repositories, combining entropy
      checks with provider-specific patterns.""",
      "secrets, credentials, leaks, security", "security-team", "deterministic",
      "0.97 26000 2026-11-21T16:20 800 local"),
    E("CodeExplainer", "agent", "1.0.0", "active", "SourceCode -> Text",
      """Explains what a function or file does in plain English for reviewers who are new to
      the codebase, including side effects and callers.""",
      "explanation, onboarding, code understanding", "devex-team", "",
      "0.87 9400 2026-11-21T10:00 5200 cloud", "dep:CodeSearchIndex"),
    E("Py2to3Migrator", "tool", "1.0.0", "retired", "PythonCode -> PythonCode",
      """Ran 2to3 plus our own fixers over legacy services. Retired after the last Python 2
      service was shut down.""",
      "python 2, python 3, migration, 2to3", "devex-team", "deterministic",
      "0.81 600 2024-02-28T10:00 9000 local"),
    E("FlakyTestDetector", "tool", "1.0.0", "active", "TestReport -> Report",
      """Compares test results across reruns and commits to find tests that both pass and fail
      on the same code.""",
      "flaky tests, ci, reliability", "devex-team", "deterministic",
      "0.90 2300 2026-11-21T16:40 700 local"),
    E("CIFailureTriager", "agent", "1.1.0", "active", "List[LogLine] -> Report",
      """Reads a failed CI job's log, finds the first real error and says whether it looks like
      a flaky test, an infrastructure problem or a genuine regression.""",
      "ci, build failures, triage, logs", "devex-team", "",
      "0.84 11600 2026-11-21T16:45 4800 cloud", "dep:FlakyTestDetector"),
    E("APIClientGenerator", "tool", "1.2.0", "active", "OpenAPISpec -> PythonCode",
      """Generates a typed Python client (httpx plus pydantic models) from an OpenAPI 3
      document.""",
      "openapi, sdk, client generation, httpx", "SchemaSmith", "deterministic",
      "0.95 1700 2026-01-09T12:00 2200 local", "forge:SchemaSmith"),
    E("RegexBuilder", "tool", "0.4.0", "experimental", "",
      """Builds a regular expression from examples that should and should not match, and
      explains each part of it.""",
      "regex, regular expressions, patterns", "ToolForge", "",
      "0.50 900 2026-11-09T10:00 3000 cloud", "forge:ToolForge"),
    E("ChangelogWriter", "tool", "1.0.0", "active", "List[CodeDiff] -> MarkdownText",
      """Writes release notes from the merged pull requests of a release, grouped into features,
      fixes and breaking changes.""",
      "changelog, release notes, versions", "devex-team", "",
      "0.89 2600 2026-02-02T17:00 3000 cloud", "dep:CommitMessageWriter"),
    E("DeadCodeFinder", "tool", "0.6.0", "active", "PythonCode -> Report",
      """Lists functions, classes and modules that nothing imports or calls, with a confidence
      that accounts for dynamic access by string name.""",
      "dead code, unused, vulture, cleanup", "devex-team", "deterministic",
      "0.85 1400 2025-06-30T10:00 2600 local"),
]
