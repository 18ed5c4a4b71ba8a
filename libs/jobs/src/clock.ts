/** Time as the jobs read it; tests pass a clock they move by hand (STYLE § 9: no timing assertions). */
export interface Clock {
  now(): number;
  /** Calls `fire` once after `ms`; the returned function cancels it. Never keeps the process alive. */
  after(ms: number, fire: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fire) {
    const timer = setTimeout(fire, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
