// Library entry: `import { compileRule, solve } from 'verdict'`.
export * from './engine/index.ts';
