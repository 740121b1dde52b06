// The space routes the space pages use (src/http/plugins/management/space-operations.ts, audit.ts, and the
// dependency tool), typed as the management OpenAPI document describes them; every call goes through ApiClient.
import type { ApiClient } from '../api/client.ts';
import type { RuleDocument } from '../api/types.ts';
import type { RuleWindow, WindowReport } from '../../../src/service/solve-window.ts';
import type { KeyType, LiveEdits, SpaceSettings, AuditRecord as StoredAuditRecord } from '../../../src/store/ports.ts';

export type { KeyType, LiveEdits, SpaceSettings };

/** PUT /api/space/settings takes any of the settings. */
export type SpaceSettingsChange = Partial<Pick<SpaceSettings, 'liveEdits' | 'approvals'>>;

export interface SpaceKey {
  id: string;
  type: KeyType;
  name: string | null;
  createdAt: string;
  revokedAt: string | null;
  /** The key the Studio is signed in with. */
  current: boolean;
}

export interface CreatedKey extends SpaceKey {
  /** The secret: answered once. */
  key: string;
}

export interface KafkaState {
  space: string;
  channelEnabled: boolean;
  channelRunning: boolean;
  brokersConfigured: boolean;
  bindings: Array<{ company: string; requestTopic: string; responseTopic: string; createdAt: string; consuming: boolean }>;
}

/** The overview's wire shape is the service's own (a module without imports, so only its types come along). */
export type RuleSeries = RuleWindow;
export type Overview = WindowReport;

/** An audit record as GET /api/audit answers it: the stored record without its space. */
export type AuditRecord = Omit<StoredAuditRecord, 'space'>;

export interface AuditFilter {
  ruleId?: string;
  correlationId?: string;
  status?: string;
  /** ISO-8601 instants. */
  from?: string;
  to?: string;
  cursor?: string;
}

export interface AuditPage {
  items: AuditRecord[];
  nextCursor: string | null;
}

export interface RuleVersionRef {
  ruleId: string;
  version?: number;
}

export interface Dependencies {
  rule: RuleDocument;
  dependencies: Array<{ ruleId: string; version?: number; ruleAlias?: string; name: string; type: string }>;
  edges: Array<{ from: RuleVersionRef; to: RuleVersionRef; kind: 'flow' | 'LOOKUP' | 'SOLVE' }>;
  missing: Array<{ idOrAlias: string; version?: number; from: string }>;
}

const enc = encodeURIComponent;

export const AUDIT_PAGE_SIZE = 50;

/** The query string of an audit listing: only the filters that are set. */
export function auditQuery(filter: AuditFilter, limit = AUDIT_PAGE_SIZE): string {
  const params = new URLSearchParams();
  for (const key of ['ruleId', 'correlationId', 'status', 'from', 'to', 'cursor'] as const) {
    const value = filter[key]?.trim();
    if (value) params.set(key, value);
  }
  params.set('limit', String(limit));
  return params.toString();
}

export const spaceApi = {
  keys: (api: ApiClient) => api.call<SpaceKey[]>('GET', '/api/space/keys'),
  createKey: (api: ApiClient, type: KeyType, name?: string) => api.call<CreatedKey>('POST', '/api/space/keys', name ? { type, name } : { type }),
  revokeKey: (api: ApiClient, id: string) => api.call<{ id: string; revoked: boolean }>('DELETE', `/api/space/keys/${enc(id)}`),
  kafka: (api: ApiClient) => api.call<KafkaState>('GET', '/api/space/kafka'),
  overview: (api: ApiClient) => api.call<Overview>('GET', '/api/space/overview'),
  settings: (api: ApiClient) => api.call<SpaceSettings>('GET', '/api/space/settings'),
  setSettings: (api: ApiClient, change: SpaceSettingsChange) => api.call<SpaceSettings>('PUT', '/api/space/settings', change),
  audit: (api: ApiClient, filter: AuditFilter) => api.call<AuditPage>('GET', `/api/audit?${auditQuery(filter)}`),
  dependencies: (api: ApiClient, idOrAlias: string, version?: number) =>
    api.call<Dependencies>('GET', `/api/tools/dependencies/${enc(idOrAlias)}${version === undefined ? '' : `/${version}`}`),
};
