import { JsMsg } from '@nats-io/jetstream';

import { BatchConsumerLoop } from './batch-consumption';

/** Messages as `consume()` yields them, one per tick, then the end of the stream. */
async function* arriving(count: number): AsyncGenerator<JsMsg> {
  for (let i = 0; i < count; i += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    yield { seq: i } as unknown as JsMsg;
  }
}

const seqs = (batch: JsMsg[]): number[] => batch.map((message) => message.seq);

describe(BatchConsumerLoop.name, () => {
  it('should hand every message over once, in order, one batch at a time by default', async () => {
    const batches: number[][] = [];
    let running = 0;
    let most = 0;
    await new BatchConsumerLoop(arriving(200), 30, async (batch) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      batches.push(seqs(batch));
      running -= 1;
    }).run();
    expect(batches.flat()).toEqual([...Array(200).keys()]);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(30);
    expect(most).toBe(1);
  });

  it('should handle two batches at once when asked, each message still once', async () => {
    const seen: number[] = [];
    let running = 0;
    let most = 0;
    await new BatchConsumerLoop(
      arriving(300),
      20,
      async (batch) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(...seqs(batch));
        running -= 1;
      },
      2,
    ).run();
    expect([...seen].sort((a, b) => a - b)).toEqual([...Array(300).keys()]);
    expect(most).toBe(2);
  });

  it('should stop taking batches and reject when a handler fails, after those in hand are done', async () => {
    const handled: number[][] = [];
    const loop = new BatchConsumerLoop(
      arriving(100),
      10,
      async (batch) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (batch.some((message) => message.seq >= 40)) {
          throw new Error('connection closed');
        }
        handled.push(seqs(batch));
      },
      2,
    );
    await expect(loop.run()).rejects.toThrow('connection closed');
    expect(handled.flat().every((seq) => seq < 40)).toBe(true);
  });

  it('should gather messages that trickle in for the linger time into one batch (F42)', async () => {
    async function* trickling(): AsyncGenerator<JsMsg> {
      for (let i = 0; i < 10; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 3));
        yield { seq: i } as unknown as JsMsg;
      }
      // Open, as a consumer is: the last batch goes when its wait is over, not at the end.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const batches: Array<{ seqs: number[]; at: number }> = [];
    const started = Date.now();
    await new BatchConsumerLoop(
      trickling(),
      100,
      async (batch) => {
        batches.push({ seqs: seqs(batch), at: Date.now() - started });
      },
      2,
      200,
    ).run();
    expect(batches.map((b) => b.seqs)).toEqual([[...Array(10).keys()]]);
    expect(batches[0].at).toBeLessThan(450);
  });

  it('should not wait once a batch is full, whatever the linger time', async () => {
    const batches: number[][] = [];
    await new BatchConsumerLoop(
      arriving(30),
      10,
      async (batch) => {
        batches.push(seqs(batch));
      },
      1,
      60_000,
    ).run();
    expect(batches).toEqual([
      [...Array(10).keys()],
      [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
      [20, 21, 22, 23, 24, 25, 26, 27, 28, 29],
    ]);
  });
});
