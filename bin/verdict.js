#!/usr/bin/env node
// Installed entry point: Node 24 strips TypeScript types natively, so the CLI runs from source.
import '../src/cli/main.ts';
