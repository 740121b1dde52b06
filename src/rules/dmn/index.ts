// DMN 1.5 models: the typed model and its reader (docs/dmn.md).
export * from './model.ts';
export { readDmn } from './read.ts';
export type { DmnReadResult } from './read.ts';
