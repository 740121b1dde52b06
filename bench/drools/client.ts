// The Drools DMN process of the engine-dmn case (bench/drools/DmnBench.java): one JSON request per line, one
// answer per line, in order. Drools times itself inside its JVM (a round trip per evaluation would time the pipe).
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureDroolsJars } from './jars.ts';

const here = dirname(fileURLToPath(import.meta.url));

export interface DroolsTiming {
  /** Evaluations per second, one per measured run. */
  rates: number[];
  /** CPU time of the whole JVM per evaluation, in µs. */
  cpuUsPerEval: number;
}

export class DroolsDmn {
  private readonly waiting: { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }[] = [];
  private stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.child = child;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const next = this.waiting.shift();
      if (!next) return;
      try {
        const answer = JSON.parse(line) as Record<string, unknown>;
        if (typeof answer.error === 'string') next.reject(new Error(`Drools: ${answer.error}`));
        else next.resolve(answer);
      } catch {
        next.reject(new Error(`Drools wrote a line that is not JSON: ${line.slice(0, 200)}`));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4000)));
    child.on('exit', (code) => {
      for (const w of this.waiting.splice(0)) w.reject(new Error(`the Drools process ended (exit ${code ?? 'signal'}): ${this.stderr.trim()}`));
    });
  }

  /** Starts the JVM (compiling DmnBench.java in memory) and waits for its ready line. */
  static async start(log: (line: string) => void): Promise<DroolsDmn> {
    const lib = ensureDroolsJars(log);
    const child = spawn('java', ['-XX:+UseParallelGC', '-Xmx1g', '-cp', `${join(lib, '*')}`, join(here, 'DmnBench.java')], { stdio: ['pipe', 'pipe', 'pipe'] });
    const drools = new DroolsDmn(child);
    await new Promise<void>((resolve, reject) => {
      child.once('error', (error) => reject(new Error(`cannot start java: ${error.message}`)));
      drools.waiting.push({ resolve: () => resolve(), reject });
    });
    return drools;
  }

  private request(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(`${JSON.stringify(body)}\n`);
    });
  }

  async load(id: string, files: readonly string[], namespace: string, name: string): Promise<void> {
    await this.request({ op: 'load', id, files, namespace, name });
  }

  /** Each input's decision results by name, as JSON. */
  async answers(id: string, inputs: readonly Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
    return (await this.request({ op: 'answers', id, inputs })).answers as Record<string, unknown>[];
  }

  /** Evaluates the items in turn: a warm-up, `runs` runs of `runMs`, then CPU over `cpuMs`. */
  async time(items: readonly { id: string; input: Record<string, unknown> }[], timing: { warmupMs: number; runs: number; runMs: number; cpuMs: number }): Promise<DroolsTiming> {
    return (await this.request({ op: 'time', items, ...timing })) as unknown as DroolsTiming;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end(`${JSON.stringify({ op: 'quit' })}\n`);
    await exited;
  }
}
