// Table shapes as Kysely sees them. Portable types only, so one query layer serves SQLite and PostgreSQL:
// text for ids, times (ISO-8601 UTC) and JSON documents, integer for versions and flags (0/1).
import type { Generated } from 'kysely';

export interface SpacesTable {
  name: string;
  created_at: string;
  /** 'allowed' or 'forbidden': may a published version's content be replaced in place (docs/decisions/live-edits.md). */
  live_edits: Generated<string>;
  /** 1: publishing needs an approval by another user (docs/decisions/approvals.md). */
  approvals: Generated<number>;
}

export interface ApiKeysTable {
  id: string;
  space: string;
  type: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
  /** Migration 2026_11_001_rule_history. */
  name: string | null;
}

export interface RulesTable {
  space: string;
  rule_id: string;
  version: number;
  alias: string;
  name: string;
  type: string;
  status: string;
  locked: number;
  /** JSON array of strings. */
  tags: string;
  /** The rule document, JSON. */
  document: string;
  created_at: string;
  updated_at: string;
}

export interface AuditRecordsTable {
  id: string;
  space: string;
  correlation_id: string;
  rule_id: string;
  rule_alias: string | null;
  version: number | null;
  rule_type: string | null;
  strategy: string;
  input: string;
  output: string | null;
  status_code: number;
  error_message: string | null;
  /** Added by migration 2026_11_018_audit_error_kind; null on older records and on successes. */
  error_kind: string | null;
  execution_time_ms: number;
  created_at: string;
  expires_at: string;
  debug: string | null;
}

export interface KafkaBindingsTable {
  request_topic: string;
  response_topic: string;
  space: string;
  company: string;
  created_at: string;
}

/** Migration 2026_11_027_users_sessions (docs/decisions/users-and-sessions.md). */
export interface UsersTable {
  id: string;
  username: string;
  /** lower(username): the unique key, so names differ case-insensitively on both stores. */
  username_key: string;
  display_name: string;
  password_hash: string | null;
  source: string;
  issuer: string | null;
  subject: string | null;
  created_at: string;
}

export interface MembershipsTable {
  user_id: string;
  space: string;
  role: string;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string | null;
  key_id: string | null;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface Database {
  spaces: SpacesTable;
  api_keys: ApiKeysTable;
  rules: RulesTable;
  audit_records: AuditRecordsTable;
  kafka_bindings: KafkaBindingsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
}

/** Kept for migrations that add tables with generated columns later. */
export type { Generated };
