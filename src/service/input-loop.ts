// The one input loop: a solve's inputs (one, or a bulk's many) evaluated in order against one compiled rule, each
// with its own deadline and call budget, without a promise while nothing waits. Used by the solve use case
// (HTTP, Kafka, the Studio's draft solve, rule tests) and by `verdict solve` (src/cli/solve-file.ts), so a bulk
// is solved the same way whichever channel it came through.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { TimeoutError, UnresolvedRuleError } from '../engine/errors.ts';
import { contextWith, createBudget } from '../engine/context.ts';
import type { CompiledRule, EvaluationContext, Json, SolveResult } from '../engine/types.ts';
import type { MaybePromise } from '../engine/maybe-promise.ts';

/** How many times one input is re-solved after loading a rule it referenced that was not in memory. */
const MAX_RESOLVE_RETRIES = 32;
/** A bulk gives the event loop a turn this often, so one large bulk cannot starve other requests. */
export const BULK_YIELD_EVERY = 64;

export interface InputLoopOptions {
  compiled: CompiledRule;
  /**
   * The context every input starts from (the engine never writes to it): `now` is the solve's start, so every
   * input of a bulk sees the same NOW(); the deadline and the call budget are renewed per input.
   */
  ctx: EvaluationContext;
  /** An array of inputs (bulk) or one input. */
  data: unknown;
  /** Per input, from the moment its evaluation starts. */
  timeoutMs: number;
  /**
   * Loads a rule an input referenced that was not in memory (UnresolvedRuleError); the input is then solved again.
   * Omitted: the error fails the solve like any other.
   */
  loader?: { load(idOrAlias: string, version: number | undefined): Promise<void> };
  /** The error the solve fails with when input `index` of a bulk fails (e.g. naming the input). */
  bulkFailure: (err: unknown, index: number) => unknown;
}

/** One solve's inputs being evaluated, in order; `next` is the first input not yet solved. */
export class InputLoop {
  readonly compiled: CompiledRule;
  readonly ctx: EvaluationContext;
  readonly bulk: boolean;
  readonly inputs: readonly unknown[];
  /** One result array per input solved so far, in input order. */
  readonly results: Json[][] = [];
  /** When the context traces: one trace per input solved so far (a bulk input without one: []). */
  readonly traces: unknown[] | undefined;
  next = 0;
  /** The input before which the event loop last had a turn. */
  #yieldedAt = 0;
  readonly #options: InputLoopOptions;

  constructor(options: InputLoopOptions) {
    this.#options = options;
    this.compiled = options.compiled;
    this.ctx = options.ctx;
    this.bulk = Array.isArray(options.data);
    this.inputs = this.bulk ? (options.data as unknown[]) : [options.data];
    this.traces = options.ctx.trace ? [] : undefined;
  }

  /**
   * Evaluates the inputs from `next` on: undefined when all of them were solved without waiting, else a promise of
   * the rest. The event loop gets a turn every BULK_YIELD_EVERY inputs; an input that referenced a rule not in
   * memory yet is solved again once that rule is loaded (at most MAX_RESOLVE_RETRIES times in a row).
   */
  run(attempts = 0): Promise<void> | undefined {
    const { compiled, inputs } = this;
    for (let i = this.next; i < inputs.length; i++) {
      if (i % BULK_YIELD_EVERY === 0 && i > this.#yieldedAt) {
        this.#yieldedAt = i;
        return this.#afterYield(attempts);
      }
      let outcome: MaybePromise<SolveResult>;
      try {
        outcome = compiled.evaluate(inputs[i], this.#inputContext());
      } catch (err) {
        return this.#retry(err, attempts);
      }
      if (outcome instanceof Promise) return this.#resume(outcome, attempts);
      this.#record(outcome);
      attempts = 0;
    }
    return undefined;
  }

  // Continuations after a wait are methods of their own, not arrows in the synchronous path (engine/maybe-promise.ts).

  #afterYield(attempts: number): Promise<void> {
    return yieldToEventLoop().then(() => this.run(attempts));
  }

  /** Once the answer to the input at `next` settles (or its deadline passes): records it and goes on. */
  #resume(pending: Promise<SolveResult>, attempts: number): Promise<void> {
    return withDeadline(pending, this.#options.timeoutMs).then(
      (result) => {
        this.#record(result);
        return this.run(0);
      },
      (err: unknown) => this.#retry(err, attempts),
    );
  }

  /**
   * The context of the next input: its own deadline (real time, even when tests move the service clock) and its
   * own call budget. A rule that may wait gets a context of its own per input, so that an evaluation abandoned at
   * its deadline keeps its own; a rule that never waits reuses the shared one.
   */
  #inputContext(): EvaluationContext {
    const deadline = Date.now() + this.#options.timeoutMs;
    const { ctx } = this;
    if (this.compiled.async) return contextWith(ctx, { deadline, budget: createBudget(ctx.budget.limits) });
    ctx.deadline = deadline;
    ctx.budget.calls = 0;
    return ctx;
  }

  /** After the input at `next` failed: loads the rule it referenced and solves it again, or fails the solve. */
  #retry(err: unknown, attempts: number): Promise<void> {
    const { loader } = this.#options;
    if (!(err instanceof UnresolvedRuleError) || loader === undefined || attempts >= MAX_RESOLVE_RETRIES) {
      throw this.bulk ? this.#options.bulkFailure(err, this.next) : err;
    }
    return loader.load(err.idOrAlias, err.version).then(() => this.run(attempts + 1));
  }

  /** Keeps the answer to the input at `next` and moves on to the one after it. */
  #record(result: SolveResult): void {
    this.results.push(result.result);
    if (this.traces) this.traces.push(this.bulk ? (result.trace ?? []) : result.trace);
    this.next++;
  }
}

/** Backstop for asynchronous rules: the engine checks the deadline itself, this bounds anything that does not. */
async function withDeadline<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(timeoutMs)), timeoutMs + 50);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
