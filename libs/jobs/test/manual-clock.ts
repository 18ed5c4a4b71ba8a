import { Clock } from '../src/clock';

interface Timer {
  at: number;
  fire: () => void;
}

/** A clock the test moves: `advance` fires, in order, every timer that falls due on the way. */
export class ManualClock implements Clock {
  private time: number;
  private timers: Timer[] = [];

  constructor(start: Date) {
    this.time = start.getTime();
  }

  now(): number {
    return this.time;
  }

  after(ms: number, fire: () => void): () => void {
    const timer = { at: this.time + ms, fire };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!next) {
        break;
      }
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.at;
      next.fire();
    }
    this.time = target;
  }
}

/** A promise the test opens, to hold work mid-way. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Lets every callback already queued run (promise reactions and I/O that is ready). */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i += 1) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
