// What the Studio keeps in the browser. The management key lives in sessionStorage only (gone with the tab);
// drafts and bench inputs live in localStorage so that a failed save, a closed tab or a crash loses no edit.
import type { RuleDocument } from '../api/types.ts';

const KEY = 'verdict.studio.key';

export const session = {
  key(): string | null {
    return sessionStorage.getItem(KEY);
  },
  signIn(key: string): void {
    sessionStorage.setItem(KEY, key);
  },
  signOut(): void {
    sessionStorage.removeItem(KEY);
  },
};

export interface Draft {
  rule: RuleDocument;
  /** The ETag of the server version the draft was started from (null: the server sent none). */
  baseEtag: string | null;
  savedAt: string;
}

function draftKey(ruleId: string, version: number): string {
  return `verdict.studio.draft.${ruleId}.${version}`;
}

function readJson<T>(key: string): T | null {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as T);
  } catch {
    return null;
  }
}

/** Returns false when the browser refused to store it (quota); the caller says so instead of losing silently. */
function writeJson(key: string, value: unknown): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

export const drafts = {
  get(ruleId: string, version: number): Draft | null {
    const draft = readJson<Draft>(draftKey(ruleId, version));
    return draft && typeof draft === 'object' && draft.rule ? draft : null;
  },
  put(ruleId: string, version: number, rule: RuleDocument, baseEtag: string | null): boolean {
    return writeJson(draftKey(ruleId, version), { rule, baseEtag, savedAt: new Date().toISOString() } satisfies Draft);
  },
  discard(ruleId: string, version: number): void {
    localStorage.removeItem(draftKey(ruleId, version));
  },
};

export interface BenchInputs {
  mode: 'json' | 'simple';
  json: string;
  strategy: string;
  included: string[];
  excluded: string[];
}

export const benchInputs = {
  get(ruleId: string): BenchInputs | null {
    return readJson<BenchInputs>(`verdict.studio.bench.${ruleId}`);
  },
  put(ruleId: string, inputs: BenchInputs): void {
    writeJson(`verdict.studio.bench.${ruleId}`, inputs);
  },
};
