// expect: none
// `verdict serve` runs the composition root.
import { serve } from '../server/serve.ts';

export const run = serve;
