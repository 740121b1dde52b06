// expect: no-restricted-syntax
// Lazily loaded or not, the CLI does not load the HTTP adapter.
export const wrong = () => import('../http/app.ts');
