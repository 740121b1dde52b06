#!/usr/bin/env node
// From a checkout, Node 24 runs the TypeScript sources directly (an older Node re-runs them under Node 24, see
// node24.js); an installed package (Node does not strip types under node_modules) runs the compiled dist/ that
// `npm pack` builds.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runUnderNode24 } from './node24.js';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(compiled)) await import(compiled.href);
else await runUnderNode24(fileURLToPath(new URL('../src/cli/main.ts', import.meta.url)), process.argv.slice(2));
