// The layering of src/ (docs/architecture.md), enforced by lint: each folder lists the folders it must not import,
// checked on static imports, re-exports and dynamic import(). `npm test` runs lint, so a forbidden import fails
// the build; test/layering.test.ts proves each rule fires on the fixtures in test/lint-fixtures/.
//
//   rules (document format) <- formats (files: XLSX) and engine (semantics) <- service (use cases, ports) <- adapters (http, kafka, cli, mcp)
//   store implements the service's ports; server (the composition root) assembles everything.

/** A folder (or file) of src/ as a relative import names it, from any depth, also as `src/...` from outside src/. */
function target(name) {
  return name.endsWith('.ts') ? `^(?:\\.\\./)+(?:src/)?${name.replace('.', '\\.')}$` : `^(?:\\.\\./)+(?:src/)?${name}(?:/|$)`;
}

/** The store implementation: everything in src/store but its ports. Only src/server opens a store. */
const STORE_IMPLEMENTATION = {
  regex: '^(?:\\.\\./)+(?:src/)?store/(?!ports\\.ts$)',
  message: 'Only the composition root (src/server) may use the store implementation; use the ports (store/ports.ts) or a service operation.',
};

const ADAPTERS = ['http', 'kafka', 'cli', 'mcp'];

/** What each layer must not import, and why (the message names the rule a newcomer broke). */
export const LAYERS = [
  {
    folder: 'rules',
    forbidden: ['engine', 'service', 'store', ...ADAPTERS, 'server', 'script-workers', 'config.ts'],
    why: 'src/rules is the document format, the lowest layer: it imports nothing else of src/.',
  },
  {
    folder: 'formats',
    forbidden: ['engine', 'service', 'store', ...ADAPTERS, 'server', 'script-workers', 'config.ts'],
    why: 'src/formats converts files to and from rule documents: it may import src/rules only.',
  },
  {
    folder: 'engine',
    forbidden: ['service', 'store', ...ADAPTERS, 'server', 'script-workers', 'config.ts'],
    why: 'src/engine is pure: it may import src/rules only (no I/O, no configuration, no service).',
  },
  {
    folder: 'store',
    forbidden: ['service', ...ADAPTERS, 'server', 'script-workers'],
    why: 'src/store implements the service ports; it knows no use case and no adapter.',
  },
  {
    folder: 'script-workers',
    forbidden: ['service', 'store', ...ADAPTERS, 'server'],
    why: 'src/script-workers runs scripts for the engine; it knows no use case and no adapter.',
  },
  {
    folder: 'service',
    forbidden: [...ADAPTERS, 'server'],
    why: 'src/service is the use cases: adapters call it, it never calls them.',
  },
  ...ADAPTERS.map((adapter) => ({
    folder: adapter,
    forbidden: [...ADAPTERS.filter((other) => other !== adapter), ...(adapter === 'cli' ? [] : ['server'])],
    why: `src/${adapter} is an adapter over the service layer: it never imports another adapter${adapter === 'cli' ? '' : ' or the composition root'}.`,
  })),
];

function patterns(layer) {
  return [
    ...layer.forbidden.map((name) => ({ regex: target(name), message: `${layer.why} (imports ${name})` })),
    ...(layer.forbidden.includes('store') ? [] : [STORE_IMPLEMENTATION]),
  ];
}

/** The same patterns for dynamic import(), which no-restricted-imports does not see. */
function dynamicImports(list) {
  return list.map(({ regex, message }) => ({ selector: `ImportExpression > Literal.source[value=/${regex.replace(/\//g, '\\/')}/]`, message }));
}

/** Flat-config entries: one per layer, plus the store rule for the rest of src/ (bench, scripts, bin too). */
export function layeringConfig() {
  const entries = LAYERS.map((layer) => ({
    files: [`src/${layer.folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', { patterns: patterns(layer) }],
      'no-restricted-syntax': ['error', ...dynamicImports(patterns(layer))],
    },
  }));
  entries.push({
    files: ['src/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [STORE_IMPLEMENTATION] }],
      'no-restricted-syntax': ['error', ...dynamicImports([STORE_IMPLEMENTATION])],
    },
  });
  return entries;
}
