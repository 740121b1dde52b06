// expect: no-restricted-imports
// Nor does an adapter, from any depth.
import type { KyselyStore } from '../../../store/kysely-store.ts';

export type Wrong = KyselyStore;
