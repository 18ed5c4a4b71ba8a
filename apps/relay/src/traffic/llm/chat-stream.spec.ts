import { HopDecision } from '../../decisions/decision.types';
import { SseWriter } from '../pipeline/sse-writer';
import {
  ChatStream,
  ChatStreamHooks,
  StreamFailedEarly,
  WINDOW_CHARS,
  WindowVerdict,
} from './chat-stream';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';
import { WholeAnswer } from './stream-window';

function decision(action: HopDecision['action'], mask: HopDecision['mask'] = []): HopDecision {
  return {
    action,
    isBlocked: action === 'BLOCK',
    failOpen: false,
    reasons: [],
    mask,
    detections: [],
    maskedFields: mask.length > 0 ? ['choices'] : [],
    bindings: [],
    maskedMessage: { text: '', json: null },
  };
}

function sse(words: string[]): string[] {
  const chunk = (delta: object, finish: string | null = null): string =>
    `data: ${JSON.stringify({ id: 'c1', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return [...words.map((w) => chunk({ content: w })), chunk({}, 'stop'), 'data: [DONE]\n\n'];
}

async function* body(events: string[], cut?: Error): AsyncIterable<string> {
  for (const event of events) {
    yield event;
  }
  if (cut) {
    throw cut;
  }
}

function run(
  events: string[],
  judge: (text: string, n: number, whole?: WholeAnswer) => WindowVerdict,
  cut?: Error,
  checksWhole = false,
): Promise<{ written: string[]; result: Awaited<ReturnType<ChatStream['run']>> }> {
  const written: string[] = [];
  const writer = { data: (payload: string) => Promise.resolve(void written.push(payload)) };
  const hooks: ChatStreamHooks = {
    checksWhole,
    judge: (_window, text, n, whole) => Promise.resolve(judge(text, n, whole)),
    hold: () => Promise.reject(new Error('not held in these tests')),
    stopReason: () => Promise.resolve(undefined),
  };
  const sut = new ChatStream(() => writer as unknown as SseWriter, hooks, false);
  return sut
    .run(body(events, cut), new AbortController().signal)
    .then((result) => ({ written, result }));
}

function textOf(written: string[]): string {
  return written
    .filter((w) => w.startsWith('{'))
    .map((w) => JSON.parse(w) as { choices?: Array<{ delta?: { content?: string } }> })
    .map((c) => c.choices?.[0]?.delta?.content ?? '')
    .join('');
}

describe(ChatStream.name, () => {
  it('should release every word once its window is judged, and end with [DONE]', async () => {
    const sut = await run(sse(['Hello', ' wide', ' world']), () => ({
      kind: 'deliver',
      decision: decision('LOG'),
      decisionId: 'd',
    }));

    expect(textOf(sut.written)).toBe('Hello wide world');
    expect(sut.written.at(-1)).toBe('[DONE]');
    expect(sut.result.outcome).toBe('SUCCESS');
  });

  it('should mask a value that arrives in pieces as a whole', async () => {
    const mask = [{ path: '', pattern: '\\b\\d{3}-\\d{2}-\\d{4}\\b', label: 'SSN' }];
    const sut = await run(sse(['SSN', ' 123-', '45-', '6789', ' ok']), (text) => ({
      kind: 'deliver',
      decision: decision(/\d{3}-\d{2}-\d{4}/.test(text) ? 'MASK' : 'LOG', mask),
      decisionId: 'd',
    }));

    expect(textOf(sut.written)).toBe('SSN [MASKED:SSN] ok');
  });

  it('should write nothing of a blocked window and answer the refusal itself when nothing was sent', async () => {
    const refusal = new LlmPathException(LlmPathErrorCode.Blocked, 'blocked by policy: secret');

    const sut = run(sse(['the', ' secret', ' is']), () => ({
      kind: 'refuse',
      refusal,
      action: 'BLOCK',
      outcome: 'BLOCKED',
    }));

    await expect(sut).rejects.toBe(refusal);
  });

  it('should end with an error event when a later window is blocked', async () => {
    const refusal = new LlmPathException(LlmPathErrorCode.Blocked, 'blocked by policy: secret');

    const sut = await run(sse(['fine', ' then', ' AKIAXXXX', ' more']), (text) =>
      text.includes('AKIA')
        ? { kind: 'refuse', refusal, action: 'BLOCK', outcome: 'BLOCKED' }
        : { kind: 'deliver', decision: decision('LOG'), decisionId: 'd' },
    );

    expect(textOf(sut.written)).not.toContain('AKIA');
    expect(JSON.parse(sut.written.at(-1)!)).toMatchObject({ error: { code: 'blocked_by_policy' } });
    expect(sut.result.outcome).toBe('BLOCKED');
  });

  it('should throw StreamFailedEarly and write nothing when the provider breaks before a word is released', async () => {
    const cut = new Error('other side closed');

    const sut = run(
      sse(['Hel']).slice(0, 1),
      () => ({ kind: 'deliver', decision: decision('LOG'), decisionId: 'd' }),
      cut,
    );

    await expect(sut).rejects.toEqual(expect.any(StreamFailedEarly));
    await expect(sut).rejects.toMatchObject({ fault: cut });
  });

  it('should end with an error event, and no failover, when the provider breaks after text was written', async () => {
    const events = sse(['one', ' two', ' three']).slice(0, 3);

    const sut = await run(
      events,
      () => ({ kind: 'deliver', decision: decision('LOG'), decisionId: 'd' }),
      new Error('other side closed'),
    );

    expect(textOf(sut.written)).toBe('one ');
    expect(JSON.parse(sut.written.at(-1)!)).toMatchObject({ error: { code: 'upstream_failed' } });
    expect(sut.result).toMatchObject({ outcome: 'ERROR', reason: 'other side closed' });
  });

  describe('an answer checked whole when the stream ends (GR35)', () => {
    const deliver = (): WindowVerdict => ({
      kind: 'deliver',
      decision: decision('LOG'),
      decisionId: 'd',
    });

    it('should give the last window the whole answer, and no window before it', async () => {
      const seen: Array<WholeAnswer | undefined> = [];

      await run(
        sse(['{"sku": ', '"a-1", ', '"qty": 2}']),
        (_text, _n, whole) => {
          seen.push(whole);
          return deliver();
        },
        undefined,
        true,
      );

      expect(seen.length).toBeGreaterThan(1);
      expect(seen.slice(0, -1).every((w) => w === undefined)).toBe(true);
      expect(seen.at(-1)).toEqual({
        completion: {
          object: 'chat.completion',
          model: 'm',
          choices: [
            { index: 0, message: { role: 'assistant', content: '{"sku": "a-1", "qty": 2}' } },
          ],
        },
        oversized: [],
      });
    });

    it('should judge a last, empty window when everything was sent, and end with an error event if it is refused', async () => {
      const refusal = new LlmPathException(LlmPathErrorCode.Blocked, 'blocked by policy: invalid');
      const texts: string[] = [];
      // Each word fills a window (WINDOW_CHARS), so nothing is left for the last one.
      const long = (word: string): string => `${word.padEnd(WINDOW_CHARS, '.')} `;

      const sut = await run(
        sse([long('one'), long('two')]),
        (text, _n, whole) => {
          texts.push(text);
          return whole
            ? { kind: 'refuse', refusal, action: 'BLOCK', outcome: 'BLOCKED' }
            : deliver();
        },
        undefined,
        true,
      );

      expect(texts.at(-1)).toBe('');
      expect(textOf(sut.written)).toBe(long('one') + long('two'));
      expect(JSON.parse(sut.written.at(-1)!)).toMatchObject({
        error: { code: 'blocked_by_policy' },
      });
      expect(sut.written).not.toContain('[DONE]');
      expect(sut.result).toMatchObject({ outcome: 'BLOCKED', action: 'BLOCK' });
    });

    it('should judge no extra window when the answer is not checked', async () => {
      const texts: string[] = [];

      await run(sse(['one ', 'two ']), (text) => {
        texts.push(text);
        return deliver();
      });

      expect(texts).not.toContain('');
    });

    it('should assemble tool calls streamed in pieces, with no text content', async () => {
      const chunk = (delta: object, finish: string | null = null): string =>
        `data: ${JSON.stringify({ id: 'c1', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const events = [
        chunk({ role: 'assistant', content: null }),
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: 'quote', arguments: '' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"sku":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"a-1"}' } }] }),
        chunk({}, 'tool_calls'),
        'data: [DONE]\n\n',
      ];
      let last: WholeAnswer | undefined;

      await run(
        events,
        (_text, _n, whole) => {
          last = whole ?? last;
          return deliver();
        },
        undefined,
        true,
      );

      expect(last?.completion.choices).toEqual([
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'quote', arguments: '{"sku":"a-1"}' },
              },
            ],
          },
        },
      ]);
    });
  });
});
