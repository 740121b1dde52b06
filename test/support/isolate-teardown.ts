// Disposing in-process script sandboxes at the end of a test file. isolated-vm asserts (`environment != nullptr`,
// an abort at exit) when the handles of isolates that are gone are still being finalized while Node tears the
// process down: seen after the nesting-limit test (33 nested isolates) in about half the runs once Node's compile
// cache is warm. Collecting garbage before the file ends finalizes them while isolated-vm can still do so.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ScriptSandbox } from '../../src/engine/types.ts';

export async function disposeSandboxes(...sandboxes: ScriptSandbox[]): Promise<void> {
  for (const sandbox of sandboxes) sandbox.dispose();
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let round = 0; round < 3; round++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}
