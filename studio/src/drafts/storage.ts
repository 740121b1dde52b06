// What the Studio keeps in the browser: drafts (IndexedDB) and bench inputs (localStorage) stay on this machine so
// that a failed save, a closed tab, a crash or an ended session loses no edit, and the chosen space. No secret: the
// session is an HttpOnly cookie, and a management key is exchanged for a session at sign-in, never stored.
import type { RuleDocument } from '../api/types.ts';

/** Where Studios before sessions kept the management key; removed on start so no key stays in the browser. */
const LEGACY_KEY = 'verdict.studio.key';
const SPACE = 'verdict.studio.space';

export const preferences = {
  forgetLegacyKey(): void {
    try {
      sessionStorage.removeItem(LEGACY_KEY);
    } catch {
      // No storage: nothing was kept.
    }
  },
  space(): string | null {
    try {
      return sessionStorage.getItem(SPACE);
    } catch {
      return null;
    }
  },
  setSpace(space: string): void {
    try {
      sessionStorage.setItem(SPACE, space);
    } catch {
      // Not remembered across reloads: the server's default space is used then.
    }
  },
};

export interface Draft {
  rule: RuleDocument;
  /** The ETag of the server version the draft was started from (null: the server sent none). */
  baseEtag: string | null;
  savedAt: string;
}

// Drafts live in IndexedDB, not localStorage: a 10,000-row table is tens of MB, far over localStorage's few MB,
// and IndexedDB stores the document as a structured clone without a JSON round trip on every autosave.
const DB_NAME = 'verdict-studio';
const STORE = 'drafts';
let database: Promise<IDBDatabase> | undefined;

function db(): Promise<IDBDatabase> {
  database ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB could not be opened'));
  });
  return database;
}

async function inStore<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const transaction = (await db()).transaction(STORE, mode);
  const request = action(transaction.objectStore(STORE));
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
}

function draftKey(ruleId: string, version: number): string {
  return `${ruleId}/${version}`;
}

export const drafts = {
  async get(ruleId: string, version: number): Promise<Draft | null> {
    try {
      const draft = (await inStore('readonly', (store) => store.get(draftKey(ruleId, version)))) as Draft | undefined;
      return draft && typeof draft === 'object' && draft.rule ? draft : null;
    } catch {
      return null;
    }
  },
  /** Resolves false when the browser refused to store it (quota, private mode); the caller says so. */
  async put(ruleId: string, version: number, rule: RuleDocument, baseEtag: string | null): Promise<boolean> {
    try {
      const draft: Draft = { rule, baseEtag, savedAt: new Date().toISOString() };
      await inStore('readwrite', (store) => store.put(draft, draftKey(ruleId, version)));
      return true;
    } catch {
      return false;
    }
  },
  async discard(ruleId: string, version: number): Promise<void> {
    try {
      await inStore('readwrite', (store) => store.delete(draftKey(ruleId, version)));
    } catch {
      // Nothing to discard, or storage unavailable: either way no draft will be offered from it.
    }
  },
};

function readJson<T>(key: string): T | null {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as T);
  } catch {
    return null;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Bench inputs are a convenience: a full storage only means they are not remembered.
  }
}

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
