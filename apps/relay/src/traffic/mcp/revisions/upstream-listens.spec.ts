import { getEventListeners } from 'node:events';

import { ListenBody, UpstreamListenSteps, UpstreamListens } from './upstream-listens';

const RELISTENS = 50;

/** A listen that sends nothing and ends when its signal does, as a quiet server's does. */
async function* quietUntil(signal: AbortSignal): ListenBody {
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  yield* [];
}

/** Steps whose session changes its URIs `changes` times at once, then not any more. */
function changingSession(changes: number): UpstreamListenSteps & {
  opened: { uris: string[]; signal: AbortSignal }[];
} {
  const opened: { uris: string[]; signal: AbortSignal }[] = [];
  let changed = 0;
  return {
    opened,
    open: (uris, signal) => {
      opened.push({ uris, signal });
      return Promise.resolve(quietUntil(signal));
    },
    changed: async (_uris, signal) => {
      if (changed < changes) {
        changed += 1;
        return [`test://${changed}`];
      }
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return undefined;
    },
  };
}

/** A quiet listen has nothing to relay: its one read ends with it. */
const drain = async (body: ListenBody): Promise<void> => {
  await body[Symbol.asyncIterator]().next();
};

/** traffic.md T104, T114: the upstream listens of one long-lived GET stream. */
describe(UpstreamListens.name, () => {
  it('should keep one abort listener on the stream however often the URIs change', async () => {
    const stream = new AbortController();
    const steps = changingSession(RELISTENS);
    const sut = new UpstreamListens(stream.signal, steps);
    await sut.open([]);

    const relaying = sut.relay(drain);
    while (steps.opened.length <= RELISTENS) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const listeners = getEventListeners(stream.signal, 'abort').length;
    stream.abort();
    await relaying;

    expect(listeners).toBe(1);
    expect(steps.opened.map((listen) => listen.uris.join())).toEqual([
      '',
      ...Array.from({ length: RELISTENS }, (_, i) => `test://${i + 1}`),
    ]);
    expect(steps.opened.every((listen) => listen.signal.aborted)).toBe(true);
  });

  it('should end the open listen when the stream ends while it is being opened', async () => {
    const stream = new AbortController();
    const signals: AbortSignal[] = [];
    const sut = new UpstreamListens(stream.signal, {
      open: (_uris, signal) => {
        signals.push(signal);
        stream.abort();
        return Promise.resolve(quietUntil(signal));
      },
      changed: () => Promise.resolve(undefined),
    });

    const isOpen = await sut.open(['test://a']);

    expect(isOpen).toBe(true);
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });

  it('should stop relaying when the server refuses a listen opened again', async () => {
    const stream = new AbortController();
    const steps = changingSession(1);
    let opens = 0;
    const sut = new UpstreamListens(stream.signal, {
      ...steps,
      open: (uris, signal) =>
        ++opens === 1 ? steps.open(uris, signal) : Promise.resolve(undefined),
    });
    await sut.open([]);

    await sut.relay(drain);

    expect(opens).toBe(2);
    expect(steps.opened[0].signal.aborted).toBe(true);
  });
});
