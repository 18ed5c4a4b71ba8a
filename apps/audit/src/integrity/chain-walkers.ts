import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Injectable, OnModuleDestroy } from '@nestjs/common';

import { SegmentJob } from './chain-segment';
import { ChainWalkState } from './chain-walk';

type Settle = { resolve: (state: ChainWalkState) => void; reject: (error: Error) => void };

interface Walker {
  worker: Worker;
  pending: Map<number, Settle>;
}

/** At most this many threads: past the machine's CPUs they would only take turns. */
const MAX_WALKERS = 4;
/** Segments queued per thread: one being walked, one waiting, so a thread never idles between two. */
const DEPTH = 2;
/** Threads idle this long are stopped (A15). */
export const WALKERS_IDLE_MS = 10_000;

/** Hashing is CPU-bound: the walk then uses every CPU instead of the event loop's one (A14). */
@Injectable()
export class ChainWalkers implements OnModuleDestroy {
  readonly size = Math.max(1, Math.min(availableParallelism(), MAX_WALKERS));
  private walkers: Walker[] = [];
  private nextJobId = 0;
  private readonly waiting: Array<() => void> = [];
  private idleTimer?: NodeJS.Timeout;

  idleMs = WALKERS_IDLE_MS;

  /** How many threads are running (stopped ones are not counted). */
  get running(): number {
    return this.walkers.length;
  }

  /** Resolves once a thread has room for another segment: the reader waits here, not on a slow thread. */
  async ready(): Promise<void> {
    while (
      this.walkers.length === this.size &&
      this.walkers.every((w) => w.pending.size >= DEPTH)
    ) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  walk(job: SegmentJob): Promise<ChainWalkState> {
    clearTimeout(this.idleTimer);
    while (this.walkers.length < this.size) {
      this.walkers.push(this.start());
    }
    const walker = this.walkers.reduce((idlest, w) =>
      w.pending.size < idlest.pending.size ? w : idlest,
    );
    const id = (this.nextJobId += 1);
    return new Promise<ChainWalkState>((resolve, reject) => {
      walker.pending.set(id, { resolve, reject });
      walker.worker.postMessage({ id, job }, [job.rows.buffer as ArrayBuffer]);
    });
  }

  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.idleTimer);
    await this.stopAll();
  }

  private async stopAll(): Promise<void> {
    const walkers = this.walkers;
    this.walkers = [];
    await Promise.all(walkers.map((w) => w.worker.terminate()));
  }

  /** Once no thread has work, stop them all after the idle time unless work comes first. */
  private retireWhenIdle(): void {
    if (this.walkers.every((w) => w.pending.size === 0)) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => void this.stopAll(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  private start(): Walker {
    const walker: Walker = { worker: startWorker(), pending: new Map() };
    walker.worker.on(
      'message',
      ({ id, state, error }: { id: number; state?: ChainWalkState; error?: string }) => {
        const settle = walker.pending.get(id);
        walker.pending.delete(id);
        this.waiting.shift()?.();
        if (error !== undefined || !state) {
          settle?.reject(new Error(`chain segment walk failed: ${error}`));
        } else {
          settle?.resolve(state);
        }
        this.retireWhenIdle();
      },
    );
    walker.worker.on('error', (error) => this.fail(walker, error));
    walker.worker.on('exit', (code) =>
      this.fail(walker, new Error(`chain walker exited with code ${code}`)),
    );
    return walker;
  }

  /** A thread that died fails its segments and is replaced on the next walk. */
  private fail(walker: Walker, error: Error): void {
    this.walkers = this.walkers.filter((w) => w !== walker);
    for (const settle of walker.pending.values()) {
      settle.reject(error);
    }
    walker.pending.clear();
    this.waiting.splice(0).forEach((wake) => wake());
  }
}

function startWorker(): Worker {
  if (__filename.endsWith('.js')) {
    return new Worker(join(__dirname, 'chain-segment.worker.js'));
  }
  const hook = join(__dirname, '..', '..', 'scripts', 'register-ts.js');
  const entry = join(__dirname, 'chain-segment.worker.ts');
  return new Worker(`require(${JSON.stringify(hook)}); require(${JSON.stringify(entry)});`, {
    eval: true,
  });
}
