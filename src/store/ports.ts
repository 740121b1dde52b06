// Storage ports. The service codes against these interfaces only; store/kysely-store.ts implements them over
// SQLite and PostgreSQL. Times are ISO-8601 UTC strings (`Date#toISOString`), which sort like the instants they name.

import type { Json } from '../engine/types.ts';

export type KeyType = 'solver' | 'management';
export const KEY_TYPES: readonly KeyType[] = ['solver', 'management'];

export type RuleStatus = 'published' | 'pending';

/** One version of one rule, without its document: what resolution and listings need. */
export interface RuleHead {
  space: string;
  ruleId: string;
  version: number;
  alias: string;
  name: string;
  type: string;
  status: RuleStatus;
  locked: boolean;
  tags: string[];
  createdAt: string;
  updatedAt: string;
}

export interface StoredRule extends RuleHead {
  /** The full rule document as stored; its ruleId/baseId/version/ruleAlias/status match the head. */
  document: Record<string, unknown>;
}

export interface RuleStore {
  /** Every version of every rule of the space, without documents. */
  listHeads(space: string): Promise<RuleHead[]>;
  get(space: string, ruleId: string, version: number): Promise<StoredRule | undefined>;
  /** All versions of one rule, lowest version first. */
  versions(space: string, ruleId: string): Promise<StoredRule[]>;
  /** Inserts or replaces the versions given (keyed by the document's ruleId and version), in one transaction. */
  put(space: string, documents: Record<string, unknown>[]): Promise<StoredRule[]>;
  /** Inserts a new version; fails with ConflictError when that (ruleId, version) exists. */
  insert(space: string, document: Record<string, unknown>): Promise<StoredRule>;
  /** Deletes one version, or every version when `version` is undefined. Returns how many were deleted. */
  delete(space: string, ruleId: string, version?: number): Promise<number>;
}

export interface SpaceRecord {
  name: string;
  createdAt: string;
}

export interface KeyRecord {
  id: string;
  space: string;
  type: KeyType;
  /** Hex SHA-256 of the whole key; the key itself is never stored. */
  hash: string;
  createdAt: string;
  revokedAt: string | null;
  /** A label given at creation (who or what uses the key), shown in listings and rule history; null: none. */
  name?: string | null;
}

/** Whether a published version's content may be replaced in place (docs/decisions/live-edits.md). */
export const LIVE_EDITS = ['allowed', 'forbidden'] as const;
export type LiveEdits = (typeof LIVE_EDITS)[number];

/** A space's own settings (the publishing gate lives with the rule tests: RuleTestStore.gates). */
export interface SpaceSettings {
  liveEdits: LiveEdits;
  /** Publishing needs an approval by another user than the version's last editor (docs/decisions/approvals.md). */
  approvals: boolean;
}

export interface SpaceStore {
  /** Creates the space with its first keys in one transaction. False (and nothing written) when it exists. */
  create(name: string, keys: KeyRecord[]): Promise<boolean>;
  get(name: string): Promise<SpaceRecord | undefined>;
  list(): Promise<SpaceRecord[]>;
  /** Undefined when the space does not exist. */
  settings(name: string): Promise<SpaceSettings | undefined>;
  /** False when the space does not exist. */
  setLiveEdits(name: string, value: LiveEdits): Promise<boolean>;
  /** False when the space does not exist. */
  setApprovals(name: string, required: boolean): Promise<boolean>;
}

export interface KeyStore {
  insert(key: KeyRecord): Promise<void>;
  findByHash(hash: string): Promise<KeyRecord | undefined>;
  get(id: string): Promise<KeyRecord | undefined>;
  list(space: string): Promise<KeyRecord[]>;
  /** Marks the key revoked. False when no such key or already revoked. */
  revoke(id: string, at: string): Promise<boolean>;
}

export interface AuditRecord {
  id: string;
  space: string;
  correlationId: string;
  /** The rule's id when it was resolved, else what the request named. */
  ruleId: string;
  ruleAlias: string | null;
  version: number | null;
  ruleType: string | null;
  strategy: string;
  input: Json;
  output: Json | null;
  /** The channel's own code for the outcome: the HTTP status, or the Kafka error code (200 for a success). */
  statusCode: number;
  errorMessage: string | null;
  /** The error catalog's kind of a failure (not-found, invalid-input, limit, ...); null for a success. */
  errorKind: string | null;
  executionTimeMs: number;
  createdAt: string;
  expiresAt: string;
  debug: Json | null;
}

/**
 * An audit record ready for the store: input, output and debug already JSON text. The writer encodes each record
 * on its own, so one record that cannot be serialised is dropped alone rather than failing its whole batch.
 */
export interface EncodedAuditRecord extends Omit<AuditRecord, 'input' | 'output' | 'debug'> {
  input: string;
  output: string | null;
  debug: string | null;
}

export interface AuditFilter {
  correlationId?: string;
  /** Matches the rule id or alias. */
  ruleId?: string;
  statusCode?: number;
  from?: string;
  to?: string;
  limit: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
}

export interface AuditPage {
  items: AuditRecord[];
  nextCursor: string | null;
}

export interface AuditStore {
  insertMany(records: EncodedAuditRecord[]): Promise<void>;
  /** Newest first; records already expired at `now` are left out even before the retention task deletes them. */
  list(space: string, filter: AuditFilter, now: string): Promise<AuditPage>;
  /** Deletes records whose expiry is at or before `now`. Returns how many. */
  deleteExpired(now: string): Promise<number>;
}

export interface KafkaBinding {
  space: string;
  company: string;
  requestTopic: string;
  responseTopic: string;
  createdAt: string;
}

export interface KafkaBindingStore {
  bind(binding: KafkaBinding): Promise<void>;
  list(space?: string): Promise<KafkaBinding[]>;
  findByRequestTopic(requestTopic: string): Promise<KafkaBinding | undefined>;
  unbind(requestTopic: string): Promise<boolean>;
}

/** What changed; caches drop what an event names. `all`: drop everything (an external change, a lost listener). */
export type ChangeEvent =
  | { kind: 'rule'; space: string; ruleId: string }
  | { kind: 'key'; space: string }
  | { kind: 'all' };

export interface ChangeFeed {
  /** Called after commit for every write of this process, and for other processes' writes as soon as seen. */
  subscribe(listener: (event: ChangeEvent) => void): () => void;
  /**
   * True while the feed is known to deliver other instances' changes. When false (a lost LISTEN connection) a
   * cache must not keep entries, because it could miss an invalidation.
   */
  readonly live: boolean;
}

/** The id of a space's root folder. The root is implicit: never stored, cannot be renamed, moved or deleted. */
export const ROOT_FOLDER_ID = 'root';

/** A folder of a space's rule tree (management API). */
export interface FolderRecord {
  id: string;
  /** The parent folder's id; ROOT_FOLDER_ID for a folder directly under the root. */
  parentId: string;
  name: string;
  createdAt: string;
}

/** Where a rule version sits in the folder tree. Versions without a placement sit in the root. */
export interface RulePlacement {
  ruleId: string;
  version: number;
  folderId: string;
}

/** What a write did to a rule version (rule history, docs/decisions/management-rule-history.md). */
export type HistoryAction = 'create' | 'update' | 'new-version' | 'publish' | 'pending' | 'lock' | 'unlock' | 'tags' | 'delete' | 'import' | 'alias';
export const HISTORY_ACTIONS: readonly HistoryAction[] = ['create', 'update', 'new-version', 'publish', 'pending', 'lock', 'unlock', 'tags', 'delete', 'import', 'alias'];

/** One write to one rule version. */
export interface HistoryEntry {
  ruleId: string;
  version: number;
  /** ISO-8601 UTC. */
  at: string;
  action: HistoryAction;
  /** The name of the management key that wrote, "cli" for the command line, null for a key without a name. */
  by: string | null;
}

/** Who did something, as the activity log keeps it (the service's Actor). */
export interface ActivityActor {
  kind: 'key' | 'user' | 'token' | 'cli';
  id: string;
  name: string;
}

/** One entry of a space's activity log (docs/decisions/activity-log.md). */
export interface ActivityEntry {
  /** ISO-8601 UTC. */
  at: string;
  actor: ActivityActor;
  /** `rule.<history action>`, `key.create`, `key.revoke`, `settings.update`, `member.*`, `review.*`. */
  action: string;
  rule?: { ruleId: string; version?: number | null; alias?: string | null; name?: string | null };
  detail?: Record<string, unknown>;
}

export interface StoredActivity {
  id: string;
  at: string;
  actor: ActivityActor;
  action: string;
  rule: { ruleId: string; version: number | null; alias: string | null; name: string | null } | null;
  detail: Record<string, unknown> | null;
}

export interface ActivityFilter {
  /** The actor's name or id. */
  actor?: string;
  /** The rule's id or alias. */
  rule?: string;
  action?: string;
  /** Any of these actions (the event log's type filter, EVENT_TYPES); an empty list matches nothing. */
  actions?: readonly string[];
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

export interface ActivityPage {
  items: StoredActivity[];
  nextCursor: string | null;
}

export interface ActivityStore {
  /** Appends in one transaction, with the outbox rows of the space's webhooks (WebhookStore). */
  append(space: string, entries: readonly ActivityEntry[]): Promise<void>;
  /** Newest first. */
  list(space: string, filter: ActivityFilter): Promise<ActivityPage>;
}

/**
 * The event log's types (docs/decisions/event-log.md): each activity action is one event type, named as webhooks
 * subscribe to it. One table; an action not listed is its own type (what a later feature records before it is
 * named here).
 */
export const EVENT_TYPES: Readonly<Record<string, string>> = Object.freeze({
  'rule.create': 'rule.created',
  'rule.new-version': 'rule.created',
  'rule.update': 'rule.saved',
  'rule.import': 'rule.saved',
  'rule.tags': 'rule.saved',
  'rule.alias': 'rule.saved',
  'rule.publish': 'rule.published',
  'rule.pending': 'rule.unpublished',
  'rule.lock': 'rule.locked',
  'rule.unlock': 'rule.unlocked',
  'rule.delete': 'rule.deleted',
  'key.create': 'key.created',
  'key.revoke': 'key.revoked',
  'settings.update': 'settings.updated',
  'member.add': 'member.added',
  'member.role': 'member.role-changed',
  'member.remove': 'member.removed',
  'review.request': 'review.requested',
  'review.approve': 'review.approved',
  'review.reject': 'review.rejected',
  'job.started': 'job.started',
  'job.finished': 'job.finished',
  'job.failed': 'job.failed',
  'job.canceled': 'job.canceled',
  'test.failed': 'test.failed',
});

/** The event type of an activity action (EVENT_TYPES). */
export function eventTypeOf(action: string): string {
  return EVENT_TYPES[action] ?? action;
}

/** Every event type, sorted (what webhooks may subscribe to, besides `*`). */
export const EVENT_TYPE_NAMES: readonly string[] = Object.freeze([...new Set(Object.values(EVENT_TYPES))].sort());

/** The actions recorded under one event type. */
export function actionsOfType(type: string): string[] {
  const actions = Object.entries(EVENT_TYPES).filter(([, t]) => t === type).map(([action]) => action);
  return actions.length > 0 ? actions : [type];
}

/** A webhook of a space (docs/webhooks.md). */
export interface WebhookRecord {
  id: string;
  space: string;
  url: string;
  /** Event types (EVENT_TYPE_NAMES) or `*` for every event. */
  events: string[];
  /**
   * The signing secret as stored: sealed under the server's secrets key, or as it is when there is none
   * (docs/decisions/webhook-secrets-at-rest.md). Never leaves the service but once, at creation.
   */
  secret: string;
  enabled: boolean;
  /** Failed attempts since the last success; the dispatcher disables the webhook at the configured threshold. */
  consecutiveFailures: number;
  /** Why it was disabled by the dispatcher; null when enabled or disabled by a person. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event to send to one webhook: the outbox row, and the delivery log's entry. */
export interface DeliveryRecord {
  id: string;
  space: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  /** The exact JSON body every attempt sends. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending). */
  nextAt: string;
  createdAt: string;
  lastAttemptAt: string | null;
  /** The receiver's HTTP status of the last attempt; null when it gave none (refused, timed out, unreachable). */
  lastStatusCode: number | null;
  lastError: string | null;
  /** The delivery this one repeats (redeliver); null for the first. */
  redeliveryOf: string | null;
}

/** One attempt of a delivery. */
export interface DeliveryAttempt {
  at: string;
  statusCode: number | null;
  error: string | null;
}

/** A due delivery leased by one dispatcher, with what sending needs. */
export interface LeasedDelivery {
  delivery: DeliveryRecord;
  url: string;
  /** As stored (WebhookRecord.secret): the dispatcher opens it. */
  secret: string;
}

/** What an attempt came to: delivered, or failed with the next attempt's time (null: give up). */
export interface AttemptOutcome {
  at: string;
  statusCode: number | null;
  error: string | null;
  delivered: boolean;
  nextAt: string | null;
  /** Disable the webhook when its consecutive failures reach this many. */
  disableAfter: number;
  /**
   * Not sent: its retry window ended while it waited (its webhook was disabled). Marked failed with `error`,
   * without an attempt and without counting against the webhook.
   */
  expired?: boolean;
}

export interface DeliveryFilter {
  webhookId?: string;
  limit: number;
  cursor?: string;
}

export interface DeliveryPage {
  items: DeliveryRecord[];
  nextCursor: string | null;
}

export interface WebhookStore {
  insert(hook: WebhookRecord): Promise<void>;
  list(space: string): Promise<WebhookRecord[]>;
  get(space: string, id: string): Promise<WebhookRecord | undefined>;
  /** Every webhook's stored secret, of every space (the start seals those kept as they are). */
  secrets(): Promise<{ id: string; secret: string }[]>;
  /** Replaces a stored secret if it is still `from`; false when it changed meanwhile or the webhook is gone. */
  replaceSecret(id: string, from: string, to: string): Promise<boolean>;
  /** False when there is no such webhook. Enabling resets its failure count and reason. */
  update(space: string, id: string, changes: { url?: string; events?: string[]; enabled?: boolean; updatedAt: string }): Promise<boolean>;
  /** Deletes the webhook with its deliveries. */
  delete(space: string, id: string): Promise<boolean>;
  /** Inserts a delivery outside an event's transaction (a test event, a redelivery). */
  enqueue(delivery: DeliveryRecord): Promise<void>;
  /** Newest first. */
  deliveries(space: string, filter: DeliveryFilter): Promise<DeliveryPage>;
  delivery(space: string, id: string): Promise<DeliveryRecord | undefined>;
  attempts(space: string, deliveryId: string): Promise<DeliveryAttempt[]>;
  /**
   * Leases up to `limit` pending deliveries due at `now` of enabled webhooks, none leased by another dispatcher,
   * until `until` (PostgreSQL: FOR UPDATE SKIP LOCKED, so instances never take the same row).
   */
  lease(now: string, until: string, limit: number): Promise<LeasedDelivery[]>;
  /** Records an attempt; answers whether it disabled the webhook. */
  finish(space: string, deliveryId: string, outcome: AttemptOutcome): Promise<{ disabled: boolean }>;
  /** Deletes delivered and failed deliveries (with their attempts) created before `before`; answers how many. */
  purge(before: string): Promise<number>;
}

/** The review of one rule version (docs/decisions/approvals.md). */
export interface ReviewRecord {
  ruleId: string;
  version: number;
  state: 'requested' | 'approved' | 'rejected';
  /** The content the state is about (reviews.ts contentTag): an approval holds only while the content is unchanged. */
  contentTag: string;
  requestedBy: ActivityActor | null;
  requestedAt: string | null;
  decidedBy: ActivityActor | null;
  decidedAt: string | null;
  comment: string | null;
}

/** Reads and writes of one space inside one transaction (see ManagementStore). */
export interface ManagementTransaction {
  readonly space: string;
  heads(): Promise<RuleHead[]>;
  /** Every version of every rule of the space, with documents. */
  rules(): Promise<StoredRule[]>;
  /** All versions of one rule, lowest first. */
  versions(ruleId: string): Promise<StoredRule[]>;
  /** Inserts or replaces the versions given (keyed by the document's ruleId and version). */
  putRules(documents: Record<string, unknown>[]): Promise<StoredRule[]>;
  /**
   * Deletes one version, or every version when `version` is undefined, with their placements; the highest version
   * number is remembered so that highestVersion() never goes back. When no version is left, the rule's tests, test
   * runs and publishing-gate override go too. Returns how many versions were deleted.
   */
  deleteRule(ruleId: string, version?: number): Promise<number>;
  /** The highest version number the rule has ever had, deleted versions included; 0 for an unknown rule. */
  highestVersion(ruleId: string): Promise<number>;
  folders(): Promise<FolderRecord[]>;
  insertFolder(folder: FolderRecord): Promise<void>;
  updateFolder(id: string, changes: { name?: string; parentId?: string }): Promise<void>;
  deleteFolders(ids: string[]): Promise<void>;
  placements(): Promise<RulePlacement[]>;
  /** Places one version, or every version when `version` is undefined, in a folder (ROOT_FOLDER_ID: the root). */
  place(ruleId: string, version: number | undefined, folderId: string): Promise<void>;
  /** Appends history entries, in the order given (they list after every entry already stored). */
  appendHistory(entries: readonly HistoryEntry[]): Promise<void>;
  /** Appends activity log entries in the write's transaction. */
  appendActivity(entries: readonly ActivityEntry[]): Promise<void>;
  /** The newest actor of one of `actions` on a rule version in the activity log; undefined: none recorded. */
  lastActor(ruleId: string, version: number, actions: readonly string[]): Promise<ActivityActor | undefined>;
  review(ruleId: string, version: number): Promise<ReviewRecord | undefined>;
  /** The space's settings, read in this transaction (a read outside it would wait for it on SQLite). */
  settings(): Promise<SpaceSettings>;
  putReview(review: ReviewRecord): Promise<void>;
  /** The history of a rule (of one version when given), newest first; kept when versions are deleted. */
  history(ruleId: string, version?: number): Promise<HistoryEntry[]>;
  /** The rule's test suites with their tests (exports carry them). */
  ruleTests(ruleId: string): Promise<RuleTestSuiteWithTests[]>;
  /** Writes suites with their tests, replacing a suite of the same rule and name with its tests (imports). */
  putRuleTests(ruleId: string, suites: RuleTestSuiteWithTests[]): Promise<void>;
}

/**
 * Transactions for the management API: all writes of one call commit together or not at all, writes to one space
 * are serialised (so alias and version checks cannot race), and rule changes reach every instance's caches through
 * the change feed after commit.
 */
export interface ManagementStore {
  transaction<T>(space: string, work: (tx: ManagementTransaction) => Promise<T>): Promise<T>;
  /** A consistent read of one space; `work` must not write. */
  read<T>(space: string, work: (tx: ManagementTransaction) => Promise<T>): Promise<T>;
}

/** What a rule test says (issue 13): an input, the result array expected for it, paths to ignore, solve options. */
export interface RuleTestDefinition {
  name: string;
  input: Json;
  /** The result array a solve of `input` should return. */
  expected: Json[];
  /** Output paths left out of the comparison (docs/decisions/rule-tests-comparison.md). */
  ignore: string[];
  strategy: string | null;
  includedConditionCols: string[] | null;
  excludedConditionCols: string[] | null;
}

/** A stored rule test. */
export interface RuleTestRecord extends RuleTestDefinition {
  id: string;
  suiteId: string;
  /** Order within the suite. */
  position: number;
  createdAt: string;
  updatedAt: string;
}

/** A named group of tests of one rule (every version of it), keyed by the rule's id within the space. */
export interface RuleTestSuiteRecord {
  id: string;
  ruleId: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

export type RuleTestStatus = 'passed' | 'failed' | 'error';

/** One differing output path: what the test expected there and what the solve gave (absent: undefined / missing). */
export interface OutputDifference {
  path: string;
  kind: 'changed' | 'missing' | 'unexpected';
  expected?: Json;
  received?: Json;
}

export interface RuleTestResult {
  testId: string;
  suiteId: string;
  suiteName: string;
  testName: string;
  status: RuleTestStatus;
  /** The solve's result array; null when it failed. */
  received: Json[] | null;
  differences: OutputDifference[];
  /** Why the solve failed (status error). */
  error: string | null;
  durationMs: number;
}

/** What started a run: a request to run tests, or the publishing gate (forced or not). */
export type RuleTestTrigger = 'run' | 'publish';

/** One run of a rule version's tests, stored in the run history. */
export interface RuleTestRunRecord {
  id: string;
  ruleId: string;
  version: number;
  createdAt: string;
  trigger: RuleTestTrigger;
  /** A publish that went ahead although tests failed (`?force=true`). */
  forced: boolean;
  passed: number;
  failed: number;
  errors: number;
  results: RuleTestResult[];
}

export type RuleTestRunSummary = Omit<RuleTestRunRecord, 'results'>;

export interface RuleTestRunFilter {
  ruleId?: string;
  version?: number;
  limit: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
}

export interface RuleTestRunPage {
  items: RuleTestRunSummary[];
  nextCursor: string | null;
}

/** The publishing gate of a space: its own setting and per-rule overrides. */
export interface PublishGateSettings {
  space: boolean;
  rules: Array<{ ruleId: string; enabled: boolean }>;
}

/** A suite with its tests, as imports write them (ids are the store's). */
export interface RuleTestSuiteWithTests {
  suite: RuleTestSuiteRecord;
  tests: RuleTestRecord[];
}

/**
 * Rule tests, their run history and the publishing gate. Every read and write is scoped to one space, so another
 * space's suites and runs are indistinguishable from ones that do not exist.
 */
export interface RuleTestStore {
  suites(space: string, ruleId?: string): Promise<RuleTestSuiteRecord[]>;
  suite(space: string, id: string): Promise<RuleTestSuiteRecord | undefined>;
  /** Inserts a suite with its first tests, in one transaction. */
  insertSuite(space: string, suite: RuleTestSuiteRecord, tests?: RuleTestRecord[]): Promise<void>;
  /** Renames or re-describes a suite; `tests`, when given, replace all of its tests (one transaction). */
  updateSuite(space: string, id: string, changes: { name?: string; description?: string; updatedAt: string }, tests?: RuleTestRecord[]): Promise<void>;
  /** Deletes the suite with its tests. False when there is no such suite. */
  deleteSuite(space: string, id: string): Promise<boolean>;
  /** Tests of the space, of one rule, or of one suite; by suite, then position. */
  tests(space: string, filter?: { ruleId?: string; suiteId?: string }): Promise<RuleTestRecord[]>;
  test(space: string, id: string): Promise<RuleTestRecord | undefined>;
  insertTest(space: string, test: RuleTestRecord): Promise<void>;
  /** Replaces a test's definition (id, suite, position and creation time stay). */
  updateTest(space: string, test: RuleTestRecord): Promise<void>;
  deleteTest(space: string, id: string): Promise<boolean>;
  insertRun(space: string, run: RuleTestRunRecord): Promise<void>;
  /** Newest first. */
  runs(space: string, filter: RuleTestRunFilter): Promise<RuleTestRunPage>;
  run(space: string, id: string): Promise<RuleTestRunRecord | undefined>;
  gates(space: string): Promise<PublishGateSettings>;
  /** The space setting (ruleId undefined) or a rule's override; null removes the override. */
  setGate(space: string, ruleId: string | undefined, enabled: boolean | null): Promise<void>;
}

/** Where a user comes from: a local password, or an OpenID Connect provider (issuer and subject). */
export type UserSource = 'local' | 'oidc';

/** A person who signs in (docs/decisions/users-and-sessions.md). */
export interface UserRecord {
  id: string;
  /** Unique case-insensitively; shown as typed at creation. */
  username: string;
  displayName: string;
  /** `scrypt$N$r$p$salt$hash`; null for users of an identity provider. Never leaves the service. */
  passwordHash: string | null;
  source: UserSource;
  issuer: string | null;
  subject: string | null;
  createdAt: string;
}

/** A user's role in one space. The role is a name of src/service/roles.ts. */
export interface MembershipRecord {
  userId: string;
  space: string;
  role: string;
}

/** A browser session: of a user, or of a management key signed in to the Studio. */
export interface SessionRecord {
  /** Hex SHA-256 of the session id; the id itself lives only in the cookie. */
  idHash: string;
  userId: string | null;
  keyId: string | null;
  csrfToken: string;
  createdAt: string;
  lastSeenAt: string;
  /** The absolute end (SESSION_MAX_HOURS after sign-in). */
  expiresAt: string;
}

export interface UserStore {
  /** Fails with ConflictError when the username is taken (case-insensitively) or the issuer and subject are. */
  insert(user: UserRecord, memberships?: MembershipRecord[]): Promise<void>;
  get(id: string): Promise<UserRecord | undefined>;
  /** Case-insensitive. */
  findByUsername(username: string): Promise<UserRecord | undefined>;
  findBySubject(issuer: string, subject: string): Promise<UserRecord | undefined>;
  /** Every user, by username; with `space`, only its members. */
  list(space?: string): Promise<UserRecord[]>;
  setPassword(id: string, passwordHash: string): Promise<void>;
  /** Deletes the user with its memberships and sessions. False when there is no such user. */
  delete(id: string): Promise<boolean>;
  memberships(userId: string): Promise<MembershipRecord[]>;
  /** The members of a space, by username. */
  members(space: string): Promise<Array<{ user: UserRecord; role: string }>>;
  /** Inserts or replaces the user's role in the space. */
  setMembership(membership: MembershipRecord): Promise<void>;
  /** False when the user was no member of the space. */
  deleteMembership(userId: string, space: string): Promise<boolean>;
}

export interface SessionStore {
  insert(session: SessionRecord): Promise<void>;
  get(idHash: string): Promise<SessionRecord | undefined>;
  touch(idHash: string, lastSeenAt: string): Promise<void>;
  delete(idHash: string): Promise<boolean>;
  /** Deletes the user's sessions, but the one of `exceptIdHash` when given (a password change). Returns how many. */
  deleteForUser(userId: string, exceptIdHash?: string): Promise<number>;
  /** Deletes sessions whose absolute end or idle end (last seen at or before `idleBefore`) has passed. */
  deleteExpired(now: string, idleBefore: string): Promise<number>;
}

/** DecisionRules' job states (docs/jobs.md). */
export const JOB_STATES = ['Waiting', 'Running', 'Completed', 'Error', 'Canceled', 'Cancelling'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** A batch job: its rule (resolved when it started), its counts and times. Times are ISO-8601 UTC. */
export interface JobRecord {
  id: string;
  space: string;
  ruleId: string;
  ruleAlias: string;
  version: number;
  state: JobState;
  /** Inputs received so far (all of them once `receiving` is false). */
  total: number;
  /** Inputs answered (each with its result or its error). */
  processed: number;
  /** Inputs answered with an error. */
  failed: number;
  /** The inputs are still being uploaded. */
  receiving: boolean;
  /** Who started it (the key, user or token), and the key id its solves are counted against. */
  actor: ActivityActor;
  keyId: string;
  /** Solve options of the start request (X-Strategy). */
  strategy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** When the job and its results are deleted (set when it ends). */
  expiresAt: string | null;
  /** Why the job is in state Error. */
  error: string | null;
}

export type NewJob = Pick<JobRecord, 'id' | 'space' | 'ruleId' | 'ruleAlias' | 'version' | 'actor' | 'keyId' | 'strategy' | 'createdAt'>;

/** A chunk leased by one worker until `leaseUntil`: its inputs, the JSON text of each on its own line. */
export interface LeasedChunk {
  job: JobRecord;
  seq: number;
  count: number;
  /** How many times it was leased, this time included. */
  attempts: number;
}

/** What completing a chunk did: `lost` when its lease had passed to another worker (nothing was written). */
export type ChunkOutcome = { kind: 'stored'; job: JobRecord } | { kind: 'dropped'; job: JobRecord } | { kind: 'lost' };

export interface JobStore {
  create(job: NewJob): Promise<void>;
  /**
   * Stores parts of a chunk's inputs (the JSON text of each input on its own line) numbered from `firstPart`, before
   * the chunk is added: no worker sees them until then.
   */
  addInputParts(jobId: string, seq: number, firstPart: number, parts: readonly string[]): Promise<void>;
  /**
   * Appends chunks of inputs to a job (their last parts, numbered from `firstPart`, default 0), and counts them in
   * its total: from then on workers lease them.
   */
  addChunks(jobId: string, chunks: ReadonlyArray<{ seq: number; firstPart?: number; inputs: readonly string[]; count: number }>): Promise<void>;
  /** The upload is complete: the job is Completed at once when every chunk is done (or there were none). */
  sealInputs(jobId: string, now: string, expiresAt: string): Promise<JobRecord | undefined>;
  /** Deletes a job and everything of it (an upload that failed). */
  delete(jobId: string): Promise<void>;
  get(space: string, jobId: string): Promise<JobRecord | undefined>;
  /** Newest first. */
  list(space: string, limit: number): Promise<JobRecord[]>;
  /**
   * Leases the first chunk of the oldest active job that is pending or whose lease expired before `now` (taken at
   * most `maxAttempts` times), for `owner` until `leaseUntil`. PostgreSQL: FOR UPDATE SKIP LOCKED. Its inputs are
   * read with inputParts.
   */
  claim(owner: string, now: string, leaseUntil: string, maxAttempts: number): Promise<LeasedChunk | undefined>;
  /** Parts `fromPart` on (at most `limit`) of a chunk's inputs, in order; [] past the last. */
  inputParts(jobId: string, seq: number, fromPart: number, limit: number): Promise<string[]>;
  /** Extends a lease still held by `owner`; false when it was lost. */
  renew(owner: string, jobId: string, seq: number, leaseUntil: string): Promise<boolean>;
  /**
   * Stores a chunk's results (NDJSON text in parts, one line per input) and marks it done in one transaction, if `owner`
   * still holds its lease; the job becomes Completed (expiring at `expiresAt`) when it was its last chunk. A job no
   * longer active keeps nothing (`dropped`), and a Cancelling job becomes Canceled once no chunk is leased.
   */
  complete(owner: string, jobId: string, seq: number, lines: readonly string[], failed: number, now: string, expiresAt: string): Promise<ChunkOutcome>;
  /** Gives the leases of `owner` back (a clean stop), so other workers take its chunks at once. */
  release(owner: string): Promise<number>;
  /**
   * Waiting or Running jobs of the space (one job, or those of a rule given by id or alias, and version) become
   * Cancelling (a chunk is being solved) or Canceled; returns those changed.
   */
  cancel(space: string, filter: { jobId?: string; rule?: string; version?: number }, now: string, expiresAt: string): Promise<JobRecord[]>;
  /** The job ends in state Error with `message`. */
  fail(jobId: string, message: string, now: string, expiresAt: string): Promise<JobRecord | undefined>;
  /**
   * The results of chunks `fromSeq` to `fromSeq + limit - 1` (a Completed job's chunks are numbered from 0 without
   * gaps), part by part in order: NDJSON text whose lines each end in a newline.
   */
  results(jobId: string, fromSeq: number, limit: number): Promise<Array<{ seq: number; lines: string }>>;
  /** Cancelling jobs whose chunks' leases all ended become Canceled; returns how many. */
  settleCancelling(now: string): Promise<number>;
  /** Deletes jobs (with inputs and results) that expired at or before `now`; returns how many jobs. */
  deleteExpired(now: string): Promise<number>;
}

export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly jobs: JobStore;
  readonly rules: RuleStore;
  readonly spaces: SpaceStore;
  readonly keys: KeyStore;
  readonly audits: AuditStore;
  readonly kafka: KafkaBindingStore;
  readonly management: ManagementStore;
  readonly ruleTests: RuleTestStore;
  readonly activity: ActivityStore;
  readonly webhooks: WebhookStore;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly changes: ChangeFeed;
  /** Throws when the database cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** An audit page cursor that no listing returned. */
export class InvalidCursorError extends Error {
  constructor() {
    super('cursor is not a value returned as nextCursor');
    this.name = 'InvalidCursorError';
  }
}

/** A write conflicts with what is stored (a version that exists, a space that exists). */
/**
 * The unique key of a username: compatibility-normalised (NFKC: full-width, ligature and other presentation forms
 * become the plain letters they show) and lower-cased, so two names a person reads as one are one user. Stores
 * keep users unique by it; sign-in throttling counts failures by it.
 */
export function usernameKey(username: string): string {
  return username.trim().normalize('NFKC').toLowerCase().normalize('NFKC');
}

export class ConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** The configured database cannot be reached or created; the message is the whole story for the operator. */
export class DatabaseSetupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseSetupError';
  }
}
