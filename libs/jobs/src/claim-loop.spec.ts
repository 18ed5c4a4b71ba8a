import { ManualClock, gate, settle } from '../test/manual-clock';
import { silentLogger } from '../test/jobs-test-schema';
import { ClaimLoop } from './claim-loop';

const POLL_MS = 1_000;

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
    });
  }

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
});
