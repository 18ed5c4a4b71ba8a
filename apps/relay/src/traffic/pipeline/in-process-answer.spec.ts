import { jsonResponse, streamResponse } from './in-process-answer';

describe('in-process answers (MK18, MK32)', () => {
  it('should drop the publisher side decision ids from a single answer and from each of a batch', async () => {
    const refusal = (id: number) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -31005, message: 'killed', data: { decisionId: `d${id}`, reasons: ['off'] } },
    });

    const single = jsonResponse(200, refusal(1));
    const batch = jsonResponse(200, [refusal(2), { jsonrpc: '2.0', id: 3, result: {} }]);

    expect(JSON.parse(await single.body.text())).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -31005, message: 'killed', data: { reasons: ['off'] } },
    });
    expect(JSON.parse(await batch.body.text())).toEqual([
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -31005, message: 'killed', data: { reasons: ['off'] } },
      },
      { jsonrpc: '2.0', id: 3, result: {} },
    ]);
    expect(single.headers['content-type']).toBe('application/json');
  });

  it('should drop the publisher side decision and review ids from each streamed message', async () => {
    const pending = {
      jsonrpc: '2.0' as const,
      id: 4,
      error: { code: -31006, message: 'held', data: { decisionId: 'd4', hitlRequestId: 'h4' } },
    };
    const answer = streamResponse(
      {
        run: async (writer) => {
          await writer.message(pending);
          writer.end();
        },
        cancel: () => undefined,
      },
      {},
      new AbortController().signal,
    );

    const text = await answer.body.text();

    expect(text).not.toContain('d4');
    expect(text).not.toContain('h4');
    expect(text).toContain('"code":-31006');
  });
});
