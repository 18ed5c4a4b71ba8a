import { ManualClock, gate, settle } from '../test/manual-clock';
import { silentLogger } from '../test/jobs-test-schema';
import { ClaimLoop, ClaimLoopOptions } from './claim-loop';

const POLL_MS = 1_000;
const KICK_DELAY_MS = 40;

describe(ClaimLoop.name, () => {
  let clock: ManualClock;
  let queue: string[];
  let handled: string[];
  let claims: number;

  beforeEach(() => {
    clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    queue = [];
    handled = [];
    claims = 0;
  });

  function loop(
    handle: (item: string) => Promise<void> = async (item) => {
      handled.push(item);
    },
    onEmpty?: () => void,
    options: Partial<ClaimLoopOptions<string>> = {},
  ): ClaimLoop<string> {
    return new ClaimLoop({
      name: 'test',
      pollIntervalMs: POLL_MS,
      clock,
      logger: silentLogger,
      claim: () => {
        claims += 1;
        const taken = queue.splice(0, 2);
        if (taken.length === 0) {
          onEmpty?.();
        }
        return Promise.resolve(taken);
      },
      handle,
      ...options,
    });
  }

  /** A loop that gathers kicks for KICK_DELAY_MS (F59, the outbox's). */
  const delayed = (options: Partial<ClaimLoopOptions<string>> = {}): ClaimLoop<string> =>
    loop(undefined, undefined, { kickDelayMs: KICK_DELAY_MS, ...options });

  it('should claim and handle until a claim comes back empty when kicked', async () => {
    queue.push('a', 'b', 'c', 'd', 'e');
    const sut = loop();
    sut.start();

    sut.kick();
    await sut.whenIdle();
    await sut.stop();

    expect(handled).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(claims).toBe(4);
  });

  it('should find work added elsewhere at the next poll, not before', async () => {
    const sut = loop();
    sut.start();
    queue.push('a');

    await settle();
    expect(handled).toEqual([]);
    clock.advance(POLL_MS);
    await sut.whenIdle();
    await sut.stop();

    expect(handled).toEqual(['a']);
  });

  it('should drain again when kicked after its last claim came back empty', async () => {
    let added = false;
    const sut = loop(undefined, () => {
      if (!added) {
        added = true;
        queue.push('late');
        sut.kick();
      }
    });
    sut.start();
    queue.push('a');

    sut.kick();
    await sut.whenIdle();
    await sut.stop();

    expect(handled).toEqual(['a', 'late']);
  });

  it('should go on with the other items when one fails', async () => {
    queue.push('a', 'bad', 'c');
    const sut = loop(async (item) => {
      if (item === 'bad') {
        throw new Error('boom');
      }
      handled.push(item);
    });
    sut.start();

    sut.kick();
    await sut.whenIdle();
    await sut.stop();

    expect(handled).toEqual(['a', 'c']);
  });

  it('should wait for the items in hand when stopped, then claim no more', async () => {
    queue.push('a', 'b', 'c', 'd');
    const held = gate();
    const started = gate();
    const sut = loop(async (item) => {
      started.open();
      await held.promise;
      handled.push(item);
    });
    sut.start();
    sut.kick();
    await started.promise;

    const stopped = sut.stop().then(() => [...handled]);
    await settle();
    held.open();

    expect(await stopped).toEqual(['a', 'b']);
    sut.kick();
    clock.advance(3 * POLL_MS);
    await settle();
    expect(claims).toBe(1);
    expect(queue).toEqual(['c', 'd']);
  });

  it('should claim once for the kicks of a kick delay, a later kick not postponing it', async () => {
    const sut = delayed();
    sut.start();

    queue.push('a');
    sut.kick();
    clock.advance(KICK_DELAY_MS - 1);
    queue.push('b');
    sut.kick();
    await settle();
    expect(claims).toBe(0);
    clock.advance(1);
    await sut.whenIdle();
    await sut.stop();

    expect(handled).toEqual(['a', 'b']);
    expect(claims).toBe(2);
  });

  it('should wait a kick delay again for a kick that came during a delayed drain', async () => {
    const held = gate();
    const sut = delayed({
      handle: async (item) => {
        await held.promise;
        handled.push(item);
      },
    });
    sut.start();
    queue.push('a');
    sut.kick();
    clock.advance(KICK_DELAY_MS);

    queue.push('late');
    sut.kick();
    held.open();
    await sut.whenIdle();
    clock.advance(KICK_DELAY_MS - 1);
    await settle();
    const claimsBeforeDelay = claims;
    clock.advance(1);
    await sut.whenIdle();
    await sut.stop();

    expect(handled).toEqual(['a', 'late']);
    expect([claimsBeforeDelay, claims]).toEqual([3, 4]);
  });

  it('should drain at once when asked to, whatever the kick delay', async () => {
    queue.push('left by a crash');
    const sut = delayed();
    sut.start();

    sut.drainNow();
    await sut.whenIdle();
    await sut.stop();

    expect(handled).toEqual(['left by a crash']);
  });

  it('should end a drain without another claim when a claim says it was the last', async () => {
    queue.push('a', 'b', 'c');
    const sut = loop(undefined, undefined, { isLastClaim: (claimed) => claimed.length < 2 });
    sut.start();

    sut.kick();
    await sut.whenIdle();
    await sut.stop();

    expect(handled).toEqual(['a', 'b', 'c']);
    expect(claims).toBe(2);
  });

  it('should log a callback that throws during a drain and go on polling', async () => {
    queue.push('a', 'b', 'c');
    let throws = true;
    const sut = loop(undefined, undefined, {
      isLastClaim: () => {
        if (throws) {
          throws = false;
          throw new Error('caller bug');
        }
        return false;
      },
    });
    sut.start();

    sut.kick();
    await expect(sut.whenIdle()).resolves.toBeUndefined();
    clock.advance(POLL_MS);
    await settle();
    await sut.whenIdle();
    await sut.stop();

    expect(handled).toEqual(['a', 'b', 'c']);
  });

  it('should let a claim that does the work need no handler', async () => {
    queue.push('a', 'b', 'c');
    const sut = new ClaimLoop<number>({
      name: 'test',
      pollIntervalMs: POLL_MS,
      clock,
      logger: silentLogger,
      claim: () => {
        const taken = queue.splice(0, 2);
        handled.push(...taken);
        return Promise.resolve(taken.length > 0 ? [taken.length] : []);
      },
    });
    sut.start();

    sut.kick();
    await sut.whenIdle();
    await sut.stop();

    expect(handled).toEqual(['a', 'b', 'c']);
  });

  it('should poll a poll interval after it last looked, not on a fixed beat', async () => {
    const sut = loop();
    sut.start();
    clock.advance(POLL_MS / 2);
    sut.kick();
    await sut.whenIdle();
    const afterKick = claims;

    clock.advance(POLL_MS / 2);
    await settle();
    const atFirstBeat = claims;
    clock.advance(POLL_MS / 2);
    await sut.whenIdle();
    await sut.stop();

    expect([afterKick, atFirstBeat, claims]).toEqual([1, 1, 2]);
  });

  it('should retry a failed claim after a doubling delay, kicks waiting meanwhile', async () => {
    let failing = 2;
    const sut = new ClaimLoop<string>({
      name: 'test',
      pollIntervalMs: POLL_MS,
      clock,
      logger: silentLogger,
      retry: { firstMs: 100, maxMs: 300 },
      claim: () => {
        claims += 1;
        if (failing > 0) {
          failing -= 1;
          return Promise.reject(new Error('down'));
        }
        return Promise.resolve(queue.splice(0));
      },
      handle: async (item) => {
        handled.push(item);
      },
    });
    sut.start();
    queue.push('a');

    sut.kick();
    await sut.whenIdle();
    sut.kick();
    clock.advance(199);
    await settle();
    const beforeFirstRetry = claims;
    clock.advance(1);
    await sut.whenIdle();
    clock.advance(299);
    await settle();
    const beforeSecondRetry = claims;
    clock.advance(1);
    await sut.whenIdle();
    queue.push('b');
    sut.kick();
    await sut.whenIdle();
    await sut.stop();

    expect([beforeFirstRetry, beforeSecondRetry]).toEqual([1, 2]);
    expect(handled).toEqual(['a', 'b']);
    expect(claims).toBe(6);
  });
});
