#!/usr/bin/env node
// From a checkout, Node 24 runs the TypeScript sources directly; an installed package (Node does not strip types
// under node_modules) runs the compiled dist/ that `npm pack` builds.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
await import(existsSync(compiled) ? compiled.href : new URL('../src/cli/main.ts', import.meta.url).href);
