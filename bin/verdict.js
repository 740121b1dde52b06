#!/usr/bin/env node
// From a checkout, Node 24 runs the TypeScript sources directly (an older Node re-runs them under Node 24, see
// node24.js); an installed package (Node does not strip types under node_modules) runs the compiled dist/ that
// `npm pack` builds.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { runUnderNode24 } from './node24.js';

// Node's on-disk cache of compiled modules (type stripping included, where Node does it): a command's start costs
// about a third of the CPU from the second run on. In NODE_COMPILE_CACHE, else Node's folder in the temp dir;
// Node before 22.1 has no such cache and starts as before.
module.enableCompileCache?.();

const compiled = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(compiled)) await import(compiled.href);
else await runUnderNode24(fileURLToPath(new URL('../src/cli/main.ts', import.meta.url)), process.argv.slice(2));
