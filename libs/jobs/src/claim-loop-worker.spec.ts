import { ManualClock, gate, settle } from '../test/manual-clock';
import { silentLogger } from '../test/jobs-test-schema';
import { ClaimLoop } from './claim-loop';
import { ClaimLoopWorker } from './claim-loop-worker';

class QueueWorker extends ClaimLoopWorker<string> {
  protected readonly loop: ClaimLoop<string>;
  readonly handled: string[] = [];

  constructor(
    readonly queue: string[],
    handle: (item: string) => Promise<void>,
  ) {
    super();
    this.loop = new ClaimLoop({
      name: 'worker-test',
      pollIntervalMs: 1_000,
      clock: new ManualClock(new Date('2030-01-01T00:00:00Z')),
      logger: silentLogger,
      claim: () => Promise.resolve(this.queue.splice(0, 1)),
      handle: async (item) => {
        await handle(item);
        this.handled.push(item);
      },
    });
  }
}

describe(ClaimLoopWorker.name, () => {
  it('should claim nothing before the application starts it, and drain on a kick after', async () => {
    const sut = new QueueWorker(['a', 'b'], () => Promise.resolve());

    sut.kick();
    await settle();
    expect(sut.handled).toEqual([]);

    sut.onApplicationBootstrap();
    sut.kick();
    await settle();
    expect(sut.handled).toEqual(['a', 'b']);
    await sut.beforeApplicationShutdown();
  });

  it('should wait at shutdown for the item in hand', async () => {
    const slow = gate();
    const sut = new QueueWorker(['a'], () => slow.promise);
    sut.onApplicationBootstrap();
    sut.kick();
    await settle();

    let stopped = false;
    const stopping = sut.beforeApplicationShutdown().then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);

    slow.open();
    await stopping;
    expect(sut.handled).toEqual(['a']);
  });
});
