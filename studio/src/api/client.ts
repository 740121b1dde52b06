// The Studio's one door to the server: every call goes through `request`, which sends the session cookie (same
// origin), the session's CSRF token on every state-changing request and the chosen space (docs/security.md), parses
// the error shape {"error": {"message", "problems"?}} into an ApiError, and reads/sends the ETag that protects a
// rule version from lost updates (a 412 becomes a ConflictError). The browser never holds a key: a management key
// is exchanged for a session at sign-in (POST /api/auth/key-login).
import type { RuleDocument } from './types.ts';

export interface Problem {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly problems: Problem[];
  constructor(status: number, message: string, problems: Problem[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.problems = problems;
  }
}

/** The version changed on the server since it was read (412 on a conditional save). */
export class ConflictError extends ApiError {
  constructor(message: string) {
    super(412, message);
    this.name = 'ConflictError';
  }
}

export interface RuleItem {
  ruleId: string;
  baseId?: string;
  version: number;
  name: string;
  ruleAlias?: string;
  type: string;
  status: 'published' | 'pending';
  locked?: boolean;
  tags?: string[];
  description?: string;
  createdIn?: string;
  lastUpdate?: string;
  /** When this version was last written in this Verdict (lastUpdate may be the imported file's own date). */
  updatedAt?: string;
  folder?: string;
}

/** The item's last change: when Verdict last wrote it, else the document's own lastUpdate. */
export function lastChange(item: RuleItem): string | undefined {
  return item.updatedAt ?? item.lastUpdate;
}

export interface VersionedRule {
  rule: RuleDocument;
  /** The server's entity tag of this version; null when the server sends none. */
  etag: string | null;
  /** After a save: what the server stored but flags (Verdict-Warnings header), count and the first ones. */
  warnings?: SaveWarnings;
}

export interface SaveWarnings {
  count: number;
  warnings: Problem[];
}

/** The Verdict-Warnings header of a write (JSON, src/http/plugins/management/common.ts), or undefined. */
function warningsOf(headers: Headers): SaveWarnings | undefined {
  const text = headers.get('verdict-warnings');
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<SaveWarnings>;
    const list = Array.isArray(parsed.warnings) ? parsed.warnings : [];
    return { count: typeof parsed.count === 'number' ? parsed.count : list.length, warnings: list };
  } catch {
    return undefined;
  }
}

export interface HistoryEntry {
  version: number;
  at: string;
  action: string;
  by?: string | null;
}

export interface SolveDraftRequest {
  rule: RuleDocument;
  data: unknown;
  strategy?: string;
  lookupMethod?: string;
  options?: { includedConditionCols?: string[]; excludedConditionCols?: string[] };
}

export interface SolveDraftResponse {
  result: unknown;
  trace: unknown;
  warnings: unknown[];
}

export interface ImportResult {
  imported: Array<{ ruleId: string; version: number; ruleAlias?: string; type?: string }>;
}

interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** A file sent as is with its content type (an .xlsx upload) instead of a JSON body. */
  file?: { bytes: Blob; type: string };
  /** Answer the body as a Blob (a download) instead of parsing JSON. */
  binary?: boolean;
}

/** DecisionRules XLSX v2 workbooks (docs/xlsx.md). */
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const enc = encodeURIComponent;

export interface ClientOptions {
  baseUrl?: string;
  /** The session's CSRF token (Me.csrfToken), sent as X-CSRF-Token on every request that changes something. */
  csrfToken?: string;
  /** The space the signed-in person works in (X-Verdict-Space); absent: the server picks the user's first. */
  space?: string;
  /** Called when the server answers 401: the session ended (expired, signed out elsewhere, key revoked). */
  onUnauthorized?(message: string): void;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class ApiClient {
  readonly baseUrl: string;
  readonly space: string | undefined;
  private readonly csrfToken: string | undefined;
  private readonly onUnauthorized?: (message: string) => void;
  constructor(options: ClientOptions = {}) {
    this.baseUrl = options.baseUrl ?? '';
    this.csrfToken = options.csrfToken;
    this.space = options.space;
    this.onUnauthorized = options.onUnauthorized;
  }

  private async request(method: string, path: string, options: RequestOptions = {}): Promise<{ body: unknown; headers: Headers }> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.csrfToken && !SAFE_METHODS.has(method)) headers['x-csrf-token'] = this.csrfToken;
    if (this.space) headers['x-verdict-space'] = this.space;
    let body: string | Blob | undefined;
    if (options.file !== undefined) {
      body = options.file.bytes;
      headers['content-type'] = options.file.type;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, credentials: 'same-origin' });
    } catch {
      throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.');
    }
    if (options.binary && response.ok) return { body: await response.blob(), headers: response.headers };
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const error = (parsed as { error?: { message?: string; problems?: Problem[] } } | undefined)?.error;
      const message = error?.message ?? `The server answered ${response.status} ${response.statusText}`.trim();
      if (response.status === 412) throw new ConflictError(message);
      if (response.status === 401) this.onUnauthorized?.(message);
      throw new ApiError(response.status, message, Array.isArray(error?.problems) ? error.problems : []);
    }
    return { body: parsed, headers: response.headers };
  }

  /** A file sent as is with its content type (a job's inputs), answered as JSON. */
  async upload<T>(method: string, path: string, file: Blob, type: string): Promise<T> {
    return (await this.request(method, path, { file: { bytes: file, type } })).body as T;
  }

  /** A download (a job's results) as a Blob. */
  async download(path: string): Promise<Blob> {
    return (await this.request('GET', path, { binary: true })).body as Blob;
  }

  /** A JSON call for the feature modules that own their routes (studio/src/tests): the same session and error shape. */
  async call<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
    return (await this.request(method, path, { body, headers })).body as T;
  }

  /** Every version of every rule of the space. */
  async listItems(): Promise<RuleItem[]> {
    return (await this.request('GET', '/api/space/items')).body as RuleItem[];
  }

  async getRule(idOrAlias: string, version: number | 'latest'): Promise<VersionedRule> {
    const { body, headers } = await this.request('GET', `/api/rule/${enc(idOrAlias)}/${version}`);
    return { rule: body as RuleDocument, etag: headers.get('etag') };
  }

  /** Saves a version; with an etag the server refuses (ConflictError) when the version changed since it was read. */
  async updateRule(idOrAlias: string, version: number, rule: RuleDocument, etag: string | null): Promise<VersionedRule> {
    const headers: Record<string, string> = etag ? { 'if-match': etag } : {};
    const res = await this.request('PUT', `/api/rule/${enc(idOrAlias)}/${version}`, { body: rule, headers });
    return { rule: res.body as RuleDocument, etag: res.headers.get('etag'), warnings: warningsOf(res.headers) };
  }

  async createRule(rule: RuleDocument, folderPath?: string): Promise<RuleDocument> {
    const query = folderPath && folderPath !== '/' ? `?path=${enc(folderPath)}` : '';
    return (await this.request('POST', `/api/rule${query}`, { body: rule })).body as RuleDocument;
  }

  async newVersion(idOrAlias: string, rule: RuleDocument): Promise<RuleDocument> {
    return (await this.request('POST', `/api/rule/${enc(idOrAlias)}/new-version`, { body: rule })).body as RuleDocument;
  }

  async setStatus(idOrAlias: string, version: number, status: 'published' | 'pending'): Promise<RuleDocument> {
    return (await this.request('PUT', `/api/rule/status/${enc(idOrAlias)}/${status}/${version}`)).body as RuleDocument;
  }

  /** Gives every version of the rule a new alias (the old one stops answering); the latest version comes back. */
  async setAlias(idOrAlias: string, ruleAlias: string): Promise<RuleDocument> {
    return (await this.request('PUT', `/api/rule/${enc(idOrAlias)}/alias`, { body: { ruleAlias } })).body as RuleDocument;
  }

  async setLock(idOrAlias: string, version: number, locked: boolean): Promise<RuleDocument> {
    return (await this.request('PATCH', `/api/rule/lock/${enc(idOrAlias)}/${version}`, { body: { locked } })).body as RuleDocument;
  }

  /** Deletes one version, or every version of the rule when no version is given. */
  async deleteRule(idOrAlias: string, version?: number): Promise<void> {
    await this.request('DELETE', `/api/rule/${enc(idOrAlias)}${version === undefined ? '' : `/${version}`}`);
  }

  /** Imports a DecisionRules export (a rule, an array of rules or a folder export) into the root folder. */
  async importExport(exported: unknown): Promise<ImportResult> {
    return (await this.request('POST', '/api/folder/import', { body: exported })).body as ImportResult;
  }

  /**
   * Imports a GoRules JDM file as a new decision graph named `name` (the server detects the format; the file's
   * embedded tests become the rule's suite "JDM tests").
   */
  async importJdm(file: unknown, name: string): Promise<ImportResult> {
    return { imported: ((await this.request('POST', `/api/rule-flow/import?name=${enc(name)}`, { body: file })).body as { imported: ImportResult['imported'] }).imported };
  }

  /** A DMN model (.dmn XML, sent as it is): one `dmn` rule, named `name`. */
  async importDmn(xml: string, name: string): Promise<ImportResult> {
    const file = { bytes: new Blob([xml], { type: 'application/xml' }), type: 'application/xml' };
    return { imported: ((await this.request('POST', `/api/rule-flow/import?name=${enc(name)}`, { file })).body as { imported: ImportResult['imported'] }).imported };
  }

  /** A stored version as a GoRules JDM file (`{contentType, nodes, edges, settings?, tests?}`). */
  async exportJdm(idOrAlias: string, version: number): Promise<Record<string, unknown>> {
    return (await this.request('GET', `/api/jdm/export/${enc(idOrAlias)}/${version}`)).body as Record<string, unknown>;
  }

  /** A decision table version as an .xlsx workbook, with the file name the server gives it. */
  async exportXlsx(idOrAlias: string, version: number): Promise<{ blob: Blob; fileName: string }> {
    return this.attachment(`/api/xlsx/export/${enc(idOrAlias)}/${version}`, `${idOrAlias}-v${version}.xlsx`);
  }

  /** A DMN rule version as its .dmn file (the XML as saved), with the file name the server gives it. */
  async exportDmn(idOrAlias: string, version: number): Promise<{ blob: Blob; fileName: string }> {
    return this.attachment(`/api/dmn/export/${enc(idOrAlias)}/${version}`, `${idOrAlias}-v${version}.dmn`);
  }

  /** A file the server answers as an attachment: its bytes and the name its Content-Disposition gives. */
  private async attachment(path: string, fallbackName: string): Promise<{ blob: Blob; fileName: string }> {
    const { body, headers } = await this.request('GET', path, { binary: true });
    const fileName = /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
    return { blob: body as Blob, fileName };
  }

  /** A workbook as a new rule, or (with `idOrAlias`) as a new version of that rule. */
  async importXlsx(file: Blob, idOrAlias?: string): Promise<RuleDocument> {
    const path = idOrAlias === undefined ? '/api/xlsx/import' : `/api/xlsx/import/${enc(idOrAlias)}`;
    return (await this.request('POST', path, { file: { bytes: file, type: XLSX_TYPE } })).body as RuleDocument;
  }

  /** The rule a workbook holds, stored nowhere; columns found by alias keep the ids of rule `idOrAlias`. */
  async readXlsx(file: Blob, idOrAlias: string): Promise<RuleDocument> {
    return (await this.request('POST', `/api/xlsx/read?rule=${enc(idOrAlias)}`, { file: { bytes: file, type: XLSX_TYPE } })).body as RuleDocument;
  }

  /** Validates and solves a rule document that is not stored (the test bench runs the unsaved draft). */
  async solveDraft(request: SolveDraftRequest): Promise<SolveDraftResponse> {
    return (await this.request('POST', '/api/tools/solve', { body: request })).body as SolveDraftResponse;
  }

  async history(idOrAlias: string, version?: number): Promise<HistoryEntry[]> {
    const path = `/api/rule/history/${enc(idOrAlias)}${version === undefined ? '' : `/${version}`}`;
    return ((await this.request('GET', path)).body as { items: HistoryEntry[] }).items;
  }
}
