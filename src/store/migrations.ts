// Versioned schema migrations, applied in name order at start-up (Kysely's Migrator records what ran).
// Never edit a migration that has shipped: add a new one. Later features (management folders, ...) append here.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import { Migrator } from 'kysely/migration';

const initial: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('spaces')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('api_keys_space').on('api_keys').column('space').execute();

    await db.schema
      .createTable('rules')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('alias', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('document', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('rules_pk', ['space', 'rule_id', 'version'])
      .execute();
    await db.schema.createIndex('rules_space_alias').on('rules').columns(['space', 'alias']).execute();

    await db.schema
      .createTable('audit_records')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('space', 'text', (c) => c.notNull())
      .addColumn('correlation_id', 'text', (c) => c.notNull())
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('rule_alias', 'text')
      .addColumn('version', 'integer')
      .addColumn('rule_type', 'text')
      .addColumn('strategy', 'text', (c) => c.notNull())
      .addColumn('input', 'text', (c) => c.notNull())
      .addColumn('output', 'text')
      .addColumn('status_code', 'integer', (c) => c.notNull())
      .addColumn('error_message', 'text')
      .addColumn('execution_time_ms', 'double precision', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('debug', 'text')
      .execute();
    await db.schema.createIndex('audit_space_created').on('audit_records').columns(['space', 'created_at', 'id']).execute();
    await db.schema.createIndex('audit_space_correlation').on('audit_records').columns(['space', 'correlation_id']).execute();
    await db.schema.createIndex('audit_expires').on('audit_records').column('expires_at').execute();

    await db.schema
      .createTable('kafka_bindings')
      .addColumn('request_topic', 'text', (c) => c.primaryKey())
      .addColumn('response_topic', 'text', (c) => c.notNull().unique())
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('company', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('kafka_bindings_space').on('kafka_bindings').column('space').execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['kafka_bindings', 'audit_records', 'rules', 'api_keys', 'spaces']) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
};

/** Management API: the folder tree, rule placements in it, and per-rule version counters. */
const management: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('folders')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('folders_pk', ['space', 'id'])
      .execute();
    await db.schema
      .createTable('rule_placements')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('folder_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('rule_placements_pk', ['space', 'rule_id', 'version'])
      .execute();
    await db.schema
      .createTable('rule_version_counters')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('last_version', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('rule_version_counters_pk', ['space', 'rule_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['rule_version_counters', 'rule_placements', 'folders']) await db.schema.dropTable(table).ifExists().execute();
  },
};

/**
 * Studio: the history of writes to rule versions (who and when), and a name per API key (the "who"). Entries are
 * ordered by time, then by `id`, which the writer makes increase within a transaction.
 */
const ruleHistory: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('rule_history')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('actor', 'text')
      .addPrimaryKeyConstraint('rule_history_pk', ['space', 'id'])
      .execute();
    await db.schema.createIndex('rule_history_rule').on('rule_history').columns(['space', 'rule_id', 'version', 'at']).execute();
    await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('api_keys').dropColumn('name').execute();
    await db.schema.dropTable('rule_history').ifExists().execute();
  },
};

/** Audit records name the error catalog's kind of a failed solve beside the channel's own status code. */
const auditErrorKind: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('audit_records').addColumn('error_kind', 'text').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('audit_records').dropColumn('error_kind').execute();
  },
};

/**
 * Rule tests (issue 13): suites of a rule (keyed by its id, so every version shares them), their tests, the run
 * history, and the publishing gate (rule_id '' is the space setting, any other a rule's override).
 */
const ruleTests: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('rule_test_suites')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('rule_test_suites_pk', ['space', 'id'])
      .execute();
    await db.schema.createIndex('rule_test_suites_rule').on('rule_test_suites').columns(['space', 'rule_id']).execute();
    await db.schema
      .createTable('rule_tests')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('suite_id', 'text', (c) => c.notNull())
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('definition', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('rule_tests_pk', ['space', 'id'])
      .execute();
    await db.schema.createIndex('rule_tests_suite').on('rule_tests').columns(['space', 'suite_id', 'position']).execute();
    await db.schema.createIndex('rule_tests_rule').on('rule_tests').columns(['space', 'rule_id']).execute();
    await db.schema
      .createTable('rule_test_runs')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('trigger', 'text', (c) => c.notNull())
      .addColumn('forced', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('passed', 'integer', (c) => c.notNull())
      .addColumn('failed', 'integer', (c) => c.notNull())
      .addColumn('errors', 'integer', (c) => c.notNull())
      .addColumn('results', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('rule_test_runs_pk', ['space', 'id'])
      .execute();
    await db.schema.createIndex('rule_test_runs_created').on('rule_test_runs').columns(['space', 'created_at', 'id']).execute();
    await db.schema.createIndex('rule_test_runs_rule').on('rule_test_runs').columns(['space', 'rule_id', 'created_at']).execute();
    await db.schema
      .createTable('publish_gates')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('publish_gates_pk', ['space', 'rule_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['publish_gates', 'rule_test_runs', 'rule_tests', 'rule_test_suites']) await db.schema.dropTable(table).ifExists().execute();
  },
};

/** A space setting: whether a published version's content may be replaced in place (docs/decisions/live-edits.md). */
const spaceLiveEdits: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('spaces').addColumn('live_edits', 'text', (c) => c.notNull().defaultTo('allowed')).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('spaces').dropColumn('live_edits').execute();
  },
};

/**
 * Teams (issue 32): users (a unique lower-cased username; issuer and subject for identity-provider users), their
 * roles per space, and browser sessions (the id stored as its SHA-256 hash). Deleting a user or a space takes its
 * memberships and sessions with it.
 */
const usersSessions: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_key', 'text', (c) => c.notNull().unique())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('issuer', 'text')
      .addColumn('subject', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('users_issuer_subject', ['issuer', 'subject'])
      .execute();
    await db.schema
      .createTable('memberships')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'space'])
      .execute();
    await db.schema.createIndex('memberships_space').on('memberships').column('space').execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('key_id', 'text', (c) => c.references('api_keys.id').onDelete('cascade'))
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['sessions', 'memberships', 'users']) await db.schema.dropTable(table).ifExists().execute();
  },
};

/**
 * Teams (issue 32): the space's activity log (who did what; docs/decisions/activity-log.md), the reviews of rule
 * versions and the space setting that requires them before publishing (docs/decisions/approvals.md).
 */
const activityAndReviews: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('space_activity')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text', (c) => c.notNull())
      .addColumn('actor_name', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('rule_id', 'text')
      .addColumn('rule_alias', 'text')
      .addColumn('rule_name', 'text')
      .addColumn('version', 'integer')
      .addColumn('detail', 'text')
      .addPrimaryKeyConstraint('space_activity_pk', ['space', 'id'])
      .execute();
    await db.schema.createIndex('space_activity_at').on('space_activity').columns(['space', 'at', 'id']).execute();
    await db.schema
      .createTable('rule_reviews')
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('content_tag', 'text', (c) => c.notNull())
      .addColumn('requested_by', 'text')
      .addColumn('requested_at', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('decided_at', 'text')
      .addColumn('comment', 'text')
      .addPrimaryKeyConstraint('rule_reviews_pk', ['space', 'rule_id', 'version'])
      .execute();
    await db.schema.alterTable('spaces').addColumn('approvals', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('spaces').dropColumn('approvals').execute();
    for (const table of ['rule_reviews', 'space_activity']) await db.schema.dropTable(table).ifExists().execute();
  },
};

/**
 * Issue 27: webhooks per space and their outbox of deliveries (docs/decisions/webhooks.md). A delivery row is
 * written in the transaction of its event; the dispatcher leases due rows (`next_at`, `lease_until`).
 */
const webhooks: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('disabled_reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhooks_space').on('webhooks').column('space').execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_at', 'text', (c) => c.notNull())
      .addColumn('lease_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_attempt_at', 'text')
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('redelivery_of', 'text')
      .execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_at']).execute();
    await db.schema.createIndex('webhook_deliveries_space').on('webhook_deliveries').columns(['space', 'created_at', 'id']).execute();
    await db.schema
      .createTable('webhook_attempts')
      .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
      .addColumn('n', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('error', 'text')
      .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'n'])
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhooks']) await db.schema.dropTable(table).ifExists().execute();
  },
};

/**
 * Batch jobs (issue 27, docs/jobs.md): a job, its inputs cut into chunks that workers lease (the chunk's state and
 * its inputs in two tables), and each chunk's results (written with the chunk's completion, in one transaction).
 * Deleting a job takes its chunks, inputs and results.
 */
const jobs: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('space', 'text', (c) => c.notNull().references('spaces.name').onDelete('cascade'))
      .addColumn('rule_id', 'text', (c) => c.notNull())
      .addColumn('rule_alias', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('receiving', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text', (c) => c.notNull())
      .addColumn('actor_name', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('strategy', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('error', 'text')
      .execute();
    await db.schema.createIndex('jobs_space_created').on('jobs').columns(['space', 'created_at']).execute();
    await db.schema.createIndex('jobs_state').on('jobs').columns(['state', 'created_at']).execute();
    await db.schema.createIndex('jobs_expires').on('jobs').column('expires_at').execute();
    await db.schema
      .createTable('job_chunks')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('job_chunks_pk', ['job_id', 'seq'])
      .execute();
    await db.schema.createIndex('job_chunks_state').on('job_chunks').columns(['state', 'job_id', 'seq']).execute();
    // Inputs apart from the chunk's state: leasing and renewing rewrite a small row, not the chunk's inputs.
    await db.schema
      .createTable('job_inputs')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('inputs', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('job_inputs_pk', ['job_id', 'seq'])
      .execute();
    await db.schema
      .createTable('job_results')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('lines', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('job_results_pk', ['job_id', 'seq'])
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['job_results', 'job_inputs', 'job_chunks', 'jobs']) await db.schema.dropTable(table).ifExists().execute();
  },
};

/**
 * Job inputs and results in parts (src/service/jobs/text-parts.ts): a chunk's NDJSON as several rows of at most
 * 32K characters each, so no process reads or writes a chunk as one string of a megabyte (V8 keeps such strings
 * until a full collection). Rows of jobs in flight move over as part 0.
 */
const jobTextParts: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('job_input_parts')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('part', 'integer', (c) => c.notNull())
      .addColumn('inputs', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('job_input_parts_pk', ['job_id', 'seq', 'part'])
      .execute();
    await db.schema
      .createTable('job_result_parts')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('part', 'integer', (c) => c.notNull())
      .addColumn('lines', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('job_result_parts_pk', ['job_id', 'seq', 'part'])
      .execute();
    await sql`INSERT INTO job_input_parts (job_id, seq, part, inputs) SELECT job_id, seq, 0, inputs FROM job_inputs`.execute(db);
    await sql`INSERT INTO job_result_parts (job_id, seq, part, lines) SELECT job_id, seq, 0, lines FROM job_results`.execute(db);
    await db.schema.dropTable('job_inputs').execute();
    await db.schema.dropTable('job_results').execute();
  },
  async down(db: Kysely<any>) {
    // The single-row tables come back empty: jobs in flight lose their inputs and results.
    for (const [table, column] of [['job_inputs', 'inputs'], ['job_results', 'lines']] as const) {
      await db.schema
        .createTable(table)
        .ifNotExists()
        .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn(column, 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['job_id', 'seq'])
        .execute();
    }
    for (const table of ['job_result_parts', 'job_input_parts']) await db.schema.dropTable(table).ifExists().execute();
  },
};

/** Name order is application order. */
export const MIGRATIONS: Record<string, Migration> = {
  '2026_01_001_initial': initial,
  '2026_06_001_management': management,
  '2026_11_001_rule_history': ruleHistory,
  '2026_11_002_rule_tests': ruleTests,
  '2026_11_018_audit_error_kind': auditErrorKind,
  '2026_11_026_space_live_edits': spaceLiveEdits,
  '2026_11_027_users_sessions': usersSessions,
  '2026_11_032_activity_reviews': activityAndReviews,
  '2026_11_040_jobs': jobs,
  '2026_11_041_webhooks': webhooks,
  '2026_11_042_job_text_parts': jobTextParts,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(MIGRATIONS) };

/** The migrator of Verdict's schema on `db` (its own bookkeeping tables); migration tests step it to a version. */
export function verdictMigrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider, migrationTableName: 'verdict_migrations', migrationLockTableName: 'verdict_migrations_lock' });
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const { error, results } = await verdictMigrator(db).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error');
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`, { cause: error });
  }
}
