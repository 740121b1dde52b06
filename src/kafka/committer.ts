// Commits request offsets, only ever up to a message whose response the broker acknowledged (the lanes call
// `mark` in offset order after each ack). Marks are coalesced per partition and committed by one request at a
// time, every `intervalMs` and on demand (`flush`: rebalance, shutdown).
import type { ChannelLogger } from './handler.ts';
import { describeKafkaError } from './connection.ts';

export interface CommitTarget {
  topic: string;
  partition: number;
  /** The next offset to read: last answered + 1. */
  offset: bigint;
  leaderEpoch: number;
}

export interface CommitPort {
  commit(options: { offsets: CommitTarget[] }): Promise<void>;
  isActive(): boolean;
}

export class OffsetCommitter {
  readonly #port: CommitPort;
  readonly #log: ChannelLogger;
  readonly #owns: (topic: string, partition: number) => boolean;
  readonly #marked = new Map<string, CommitTarget>();
  readonly #committed = new Map<string, bigint>();
  #inFlight: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;

  /** `owns` says whether a partition is still assigned to this member: others' partitions are not committed. */
  constructor(port: CommitPort, log: ChannelLogger, owns: (topic: string, partition: number) => boolean) {
    this.#port = port;
    this.#log = log;
    this.#owns = owns;
  }

  start(intervalMs: number): void {
    this.#timer = setInterval(() => {
      // During a rebalance a commit would fail and make the client rejoin again: wait for the group to settle.
      if (this.#port.isActive()) void this.flush();
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  mark(target: CommitTarget): void {
    const key = `${target.topic}:${target.partition}`;
    const current = this.#marked.get(key);
    if (current === undefined || current.offset < target.offset) this.#marked.set(key, target);
  }

  /** The last offset committed for a partition by this instance (tests, lag). */
  committed(topic: string, partition: number): bigint | undefined {
    return this.#committed.get(`${topic}:${partition}`);
  }

  /** Drops marks of partitions this member no longer owns (their new owner commits its own progress). */
  forget(isOwned: (topic: string, partition: number) => boolean): void {
    for (const [key, target] of this.#marked) if (!isOwned(target.topic, target.partition)) this.#marked.delete(key);
  }

  /** Commits everything marked so far; resolves when done (errors are logged and the marks kept for a retry). */
  async flush(): Promise<void> {
    // One commit at a time; a flush asked for meanwhile runs right after, so it covers marks made until then.
    while (this.#inFlight !== undefined) await this.#inFlight;
    const offsets: CommitTarget[] = [];
    for (const [key, target] of this.#marked) {
      if (this.#committed.get(key) === target.offset || !this.#owns(target.topic, target.partition)) {
        this.#marked.delete(key);
        continue;
      }
      offsets.push(target);
    }
    if (offsets.length === 0) return;
    for (const target of offsets) this.#marked.delete(`${target.topic}:${target.partition}`);
    this.#inFlight = (async () => {
      try {
        await this.#port.commit({ offsets });
        for (const target of offsets) this.#committed.set(`${target.topic}:${target.partition}`, target.offset);
      } catch (err) {
        for (const target of offsets) this.mark(target);
        this.#log.warn({ err: describeKafkaError(err), partitions: offsets.length }, 'kafka offset commit failed; will retry');
      } finally {
        this.#inFlight = undefined;
      }
    })();
    await this.#inFlight;
  }
}
