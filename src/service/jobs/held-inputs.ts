// The inputs of a job's chunks as objects, kept by the instance that stored them so that its own worker solves those
// chunks without parsing back the JSON text it has just written. The store's text stays the record: another
// instance, a chunk redone after a lost lease, or a chunk no longer held here is solved from it. Only inputs that
// were objects anyway are held (a JSON array body, already parsed and within BODY_LIMIT_BYTES), at most `limit`
// inputs in all, so an upload never makes an instance keep more than it had to read.

/** A job's held chunks by sequence number, and its space (the sweeper asks the store whether the job still runs). */
interface HeldJob {
  space: string;
  chunks: Map<number, readonly unknown[]>;
}

export class HeldInputs {
  readonly #jobs = new Map<string, HeldJob>();
  readonly #limit: number;
  #held = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Inputs held now, all jobs together. */
  get size(): number {
    return this.#held;
  }

  /** Keeps a chunk's inputs unless that would pass the limit (the chunk is then solved from the store's text). */
  hold(space: string, jobId: string, seq: number, inputs: readonly unknown[]): void {
    if (this.#held + inputs.length > this.#limit) return;
    let job = this.#jobs.get(jobId);
    if (job === undefined) {
      job = { space, chunks: new Map() };
      this.#jobs.set(jobId, job);
    }
    job.chunks.set(seq, inputs);
    this.#held += inputs.length;
  }

  has(jobId: string, seq: number): boolean {
    return this.#jobs.get(jobId)?.chunks.has(seq) === true;
  }

  /**
   * Hands over a chunk's inputs and forgets them. Chunks are leased in order, so the job's chunks before `seq` still
   * held here were taken by another instance: they are forgotten too.
   */
  take(jobId: string, seq: number): readonly unknown[] | undefined {
    const job = this.#jobs.get(jobId);
    if (job === undefined) return undefined;
    const inputs = job.chunks.get(seq);
    for (const [held, chunk] of job.chunks) {
      if (held > seq) continue;
      job.chunks.delete(held);
      this.#held -= chunk.length;
    }
    if (job.chunks.size === 0) this.#jobs.delete(jobId);
    return inputs;
  }

  /** Forgets every chunk of a job (it ended, was canceled or deleted). */
  drop(jobId: string): void {
    const job = this.#jobs.get(jobId);
    if (job === undefined) return;
    for (const chunk of job.chunks.values()) this.#held -= chunk.length;
    this.#jobs.delete(jobId);
  }

  /** The jobs with chunks held, and their spaces. */
  jobs(): Array<{ space: string; jobId: string }> {
    return [...this.#jobs].map(([jobId, job]) => ({ space: job.space, jobId }));
  }
}
