// expect: none
// The ports are the storage contract every layer may name.
import type { KeyType } from '../store/ports.ts';

export type Right = KeyType;
