from dsl import E

ENTRIES = [
    E("DBConnectorProtocol", "other", "1.0.0", "active", "",
      """Interface for database connectors: pooled connections, parameterised queries only,
      explicit transactions, and typed errors for constraint violations.""",
      "interface, database, connector, protocol", "data-platform", "",
      "- 0 - - -", fmt="json", file="manifests/db-connector-protocol.json"),
    E("PostgresConnector", "tool", "3.2.0", "active", "SQLQuery -> QueryResult",
      """Runs parameterised SQL against Postgres through a connection pool with a statement
      timeout, returning the rows as a data frame.""",
      "postgres, sql, connector, database", "data-platform", "",
      "0.99 48700 2026-11-21T15:00 35 local", "impl:DBConnectorProtocol",
      fmt="yaml", file="manifests/postgres-connector.yaml"),
    E("SQLiteConnector", "tool", "1.1.0", "active", "SQLQuery -> QueryResult",
      """Embedded SQLite access for local tools and tests, with WAL mode on by default.""",
      "sqlite, sql, embedded, connector", "data-platform", "",
      "0.99 14100 2026-11-21T14:00 20 local", "impl:DBConnectorProtocol"),
    E("NL2SQL", "tool", "0.5.0", "retired", "Question -> SQLQuery",
      """Template-based question-to-SQL for the sales warehouse; recognised about 40 question
      shapes and nothing else.""",
      "text to sql, templates, legacy", "bi-team", "deterministic",
      "0.38 5200 2024-04-10T10:00 150 local"),
    E("NL2SQL_v2", "tool", "2.0.0", "deprecated", "Question -> SQLQuery",
      """Language-model text-to-SQL with schema linking. Sometimes joins the wrong tables on
      wide schemas.""",
      "text to sql, llm, schema linking", "bi-team", "requires_network",
      "0.71 15300 2026-01-30T10:00 2400 cloud", "succ:NL2SQL dep:SchemaCatalogReader"),
    E("NL2SQL_v3", "agent", "3.0.1", "active", "Question -> SQLQuery",
      """Turns plain-language questions into SQL for the warehouse: retrieves the relevant
      tables and example queries, drafts the statement and dry-runs it with EXPLAIN before
      returning it.""",
      "text to sql, nl2sql, warehouse, analytics", "bi-team", "requires_network",
      "0.89 21800 2026-11-21T13:10 3100 cloud",
      "succ:NL2SQL_v2 dep:SchemaCatalogReader,SQLValidator,NL2SQLPrompt",
      fmt="card", file="cards/nl2sql-v3.md", body="""
## Good for
Ad-hoc questions from analysts and managers about the sales warehouse ("revenue by region
last quarter, excluding refunds"). It returns SQL, not results: run the statement with
PostgresConnector, or hand it to a person to check first.

## How it works
1. Finds candidate tables through the schema catalog (column names, comments, and 600
   historical queries).
2. Drafts the SQL with NL2SQLPrompt.
3. Validates it with SQLValidator and runs `EXPLAIN` against a read replica; if the plan is
   a full scan of a large fact table it retries once with a narrower date range hint.

## Limits
- Only the `sales` and `marketing` schemas are indexed.
- Questions that need window functions across fiscal calendars are still weak; check them.
- It never writes `UPDATE`/`DELETE`; such requests are refused.
"""),
    E("NL2SQLPrompt", "prompt", "3.0.0", "active", "Question -> SQLQuery",
      """Few-shot prompt for text-to-SQL: a schema snippet, five solved examples from the same
      warehouse and rules (qualify columns, never SELECT *, LIMIT by default).""",
      "prompt, text to sql, few-shot", "PromptSmith", "",
      "0.88 21800 2026-11-21T13:10 - cloud", "forge:PromptSmith"),
    E("SQLValidator", "tool", "1.5.0", "active", "SQLQuery -> Report",
      """Parses SQL in 20 dialects, checks it against the live schema and flags risky patterns:
      UPDATE or DELETE without WHERE, cartesian joins, SELECT * on wide tables.""",
      "sql, lint, validation, safety", "data-platform", "deterministic",
      "0.97 19000 2026-11-21T13:10 60 local"),
    E("SchemaCatalogReader", "tool", "1.2.0", "active", "Database -> Schema",
      """Reads tables, columns, types, keys and comments from a database's information schema
      into a single schema document.""",
      "schema, information_schema, metadata, catalog", "data-platform", "deterministic",
      "0.98 9900 2026-11-21T13:10 800 local"),
    E("IngestionLoader", "pipeline", "2.0.0", "active", "DataSource -> Database",
      """Pulls records from an API, a bucket or a Kafka topic and upserts them into a target
      database as one managed job, with checkpoints so that reruns never duplicate rows.""",
      "ingestion, etl, elt, loader, sync", "data-platform", "idempotent, requires_network",
      "0.93 8400 2026-11-21T04:00 12000 cloud",
      "dep:SourceExtractor,WarehouseWriter sim:LegacyETLRunner",
      name="Ingestion Loader", fmt="card", file="cards/ingestion-loader.md", body="""
## One job from source to table
Point it at a source (REST API with pagination, an S3/GCS prefix, or a Kafka topic) and a
target table. It extracts with SourceExtractor, batches the records and upserts them with
WarehouseWriter. Checkpoints (API cursor, object key, topic offset) are committed only after
the batch lands, so a crash or a rerun picks up where it stopped without duplicates.

## Configuration
```yaml
source: {kind: api, url: https://api.example.com/v2/orders, cursor_field: updated_at}
target: {dsn: postgres://warehouse/sales, table: orders, key: [order_id]}
schedule: "*/15 * * * *"
```

## Notes
- Schema drift: new source fields become nullable columns; type changes stop the job.
- For sub-minute latency use StreamingIngestor instead (experimental).
- Replaces LegacyETLRunner; the migration guide is in the data-platform wiki.
"""),
    E("SourceExtractor", "tool", "1.6.0", "active", "DataSource -> Batch[Record]",
      """Reads from REST APIs (following pagination), object-store prefixes or Kafka topics and
      emits batches of records tagged with their source offsets.""",
      "extract, api, s3, kafka, connectors", "data-platform", "requires_network",
      "0.95 17200 2026-11-21T04:00 2500 hybrid"),
    E("WarehouseWriter", "tool", "2.1.0", "active", "Batch[Record] -> SQLDatabase",
      """Bulk-upserts record batches into Postgres or Snowflake tables by primary key, adding
      missing columns when the schema allows it.""",
      "upsert, bulk load, warehouse, snowflake, postgres", "data-platform", "idempotent",
      "0.96 16800 2026-11-21T04:00 1800 cloud", "impl:DBConnectorProtocol",
      fmt="json", file="manifests/warehouse-writer.json"),
    E("DataSourceSampler", "tool", "1.0.0", "active", "DataSource -> DataFrame",
      """Pulls the first N rows (or a random sample) from any supported source into a data frame
      for profiling and quick looks.""",
      "sample, preview, profiling", "data-platform", "requires_network",
      "0.94 6700 2026-11-20T10:30 1900 hybrid", "dep:SourceExtractor"),
    E("TableLoader", "tool", "1.3.0", "active", "DataFrame -> SQLDatabase",
      """Writes a data frame into a database table (create, append or replace), mapping dtypes
      to column types and inserting in chunks.""",
      "dataframe, to_sql, load, table", "data-platform", "",
      "0.95 11900 2026-11-21T09:00 900 local", "impl:DBConnectorProtocol"),
    E("StreamingIngestor", "tool", "0.4.0", "experimental", "KafkaTopic -> PostgresDatabase",
      """Experimental exactly-once sink from Kafka topics into Postgres using transactional
      offset commits.""",
      "kafka, streaming, sink, exactly-once", "data-platform", "streaming",
      "0.62 300 2026-11-15T12:00 150 cloud"),
    E("LegacyETLRunner", "pipeline", "1.9.0", "deprecated", "DataSource -> Database",
      """Nightly cron-driven ETL scripts wrapped as one tool. No retries and no incremental
      loads; being replaced by IngestionLoader.""",
      "etl, cron, nightly, legacy", "data-platform", "",
      "0.49 6100 2025-10-11T02:00 28000 local"),
    E("QueryOptimizerAdvisor", "agent", "0.8.0", "active", "SQLQuery -> Report",
      """Reads EXPLAIN ANALYZE output for a slow statement and suggests indexes, rewrites and
      statistics updates, estimating the gain of each.""",
      "query tuning, explain, indexes, performance", "dba-team", "",
      "0.82 2700 2026-11-17T15:00 1600 local", "dep:PostgresConnector"),
    E("MigrationGenerator", "tool", "1.0.0", "active", "Schema -> SQLQuery",
      """Diffs two schema versions and writes forward and rollback migration scripts.""",
      "migrations, ddl, schema diff, alembic", "ToolForge", "deterministic",
      "0.88 1900 2026-02-17T10:00 400 local", "forge:ToolForge"),
    E(("DBBackupAgent", "Database Backup Agent"), "agent", "1.2.0", "active", "Database -> ObjectStoreBucket",
      """Takes consistent snapshots of Postgres databases to object storage on a schedule and
      proves each backup by restoring it into a scratch instance.""",
      "backup, restore, snapshots, disaster recovery", "dba-team", "",
      "0.98 3300 2026-11-21T03:30 25000 cloud"),
    E("DocumentDBConnector", "tool", "1.4.0", "active", "JSONData -> DocumentStore",
      """Writes JSON documents into MongoDB collections with upsert by key and TTL indexes.""",
      "mongodb, nosql, documents, upsert", "data-platform", "idempotent",
      "0.92 7400 2026-11-20T20:00 110 cloud", "impl:DBConnectorProtocol"),
    E("DataQualityChecker", "tool", "2.0.0", "active", "DataFrame -> Report",
      """Runs expectation suites on tables (null rates, uniqueness, value ranges, referential
      checks) and fails the pipeline with a readable report.""",
      "data quality, expectations, validation, great expectations", "data-platform",
      "deterministic",
      "0.96 13300 2026-11-21T04:30 1200 local"),
    E("SQLFormatter", "tool", "1.0.0", "active", "SQLQuery -> SQLQuery",
      """Pretty-prints SQL with consistent keyword case and indentation for the chosen dialect.""",
      "sql, formatting, pretty print", "ToolForge", "deterministic, pure, idempotent",
      "0.99 8200 2026-11-21T13:00 20 local", "forge:ToolForge"),
    E("CDCReplicator", "tool", "0.5.0", "experimental", "SQLDatabase -> PostgresDatabase",
      """Replicates change data capture from the MySQL binlog into Postgres in near real time.""",
      "cdc, replication, binlog, mysql", "data-platform", "streaming",
      "0.70 250 2026-11-21T00:00 900 cloud"),
    E("SQLExplainer", "tool", "1.0.0", "active", "SQLQuery -> Text",
      """Explains what a SQL statement does in plain English, clause by clause, for people who
      have to approve queries they did not write.""",
      "sql, explanation, review", "PromptSmith", "",
      "0.91 3200 2026-11-19T11:00 1900 cloud", "forge:PromptSmith"),
    E("WarehouseSalesSample", "dataset", "1.0.0", "active", "",
      """Anonymised sample of the sales warehouse (14 tables, 2M rows) for testing text-to-SQL
      and query tools.""",
      "dataset, sql, warehouse, sample", "bi-team", "",
      "- 410 2025-09-30T10:00 - -"),
]
