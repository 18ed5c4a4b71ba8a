import { StreamReader } from './stream-reader';

describe('StreamReader', () => {
  it('should read back the messages an SSE writer wrote, skipping priming and keep-alive events', async () => {
    const reader = new StreamReader();
    const writer = reader.writer;

    writer.open({});
    await writer.passThrough({ id: 'prime', retry: 1000 });
    await writer.message({ jsonrpc: '2.0', method: 'notifications/progress' });
    await writer.keepAlive();
    await writer.message({ jsonrpc: '2.0', id: 1, result: { text: 'a\nb' } }, 'e1');
    await writer.data('[DONE]');
    writer.end();

    expect(reader.messages()).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress' },
      { jsonrpc: '2.0', id: 1, result: { text: 'a\nb' } },
    ]);
    expect(writer.isClosed).toBe(true);
  });
});
