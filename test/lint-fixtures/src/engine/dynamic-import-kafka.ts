// expect: no-restricted-syntax
// A dynamic import is an import too.
export const wrong = () => import('../kafka/protocol.ts');
