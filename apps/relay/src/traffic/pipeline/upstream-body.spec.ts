import { Readable } from 'node:stream';

import { Dispatcher } from 'undici';

import { readBodyWithin } from './upstream-body';

function answerOf(chunks: string[], headers: Record<string, string> = {}): Dispatcher.ResponseData {
  const stream = Readable.from(chunks.map((c) => Buffer.from(c)));
  const body = Object.assign(stream, {
    text: async () => {
      const parts: Buffer[] = [];
      for await (const chunk of stream) {
        parts.push(chunk as Buffer);
      }
      return Buffer.concat(parts).toString('utf8');
    },
  });
  return { body, headers } as unknown as Dispatcher.ResponseData;
}

const tooLarge = (): Error => new Error('too large');

describe('readBodyWithin', () => {
  it('should read a body whose declared length is within the limit in one piece', async () => {
    const answer = answerOf(['{"a":', '1}'], { 'content-length': '7' });
    const text = jest.spyOn(answer.body, 'text');

    await expect(readBodyWithin(answer, 100, tooLarge)).resolves.toBe('{"a":1}');
    expect(text).toHaveBeenCalledTimes(1);
  });

  it('should read a body without a length chunk by chunk', async () => {
    await expect(readBodyWithin(answerOf(['ab', 'cd']), 4, tooLarge)).resolves.toBe('abcd');
  });

  it('should refuse a body that grows over the limit whatever its declared length', async () => {
    await expect(readBodyWithin(answerOf(['abc', 'def']), 5, tooLarge)).rejects.toThrow(
      'too large',
    );
    const lying = answerOf(['abc', 'def'], { 'content-length': '999' });
    await expect(readBodyWithin(lying, 5, tooLarge)).rejects.toThrow('too large');
  });
});
