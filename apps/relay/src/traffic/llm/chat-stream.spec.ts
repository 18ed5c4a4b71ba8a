import { HopDecision } from '../../decisions/decision.types';
import { SseWriter } from '../pipeline/sse-writer';
import { ChatStream, ChatStreamHooks, StreamFailedEarly, WindowVerdict } from './chat-stream';
import { LlmPathErrorCode, LlmPathException } from './llm-path.exception';

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
  judge: (text: string, n: number) => WindowVerdict,
  cut?: Error,
): Promise<{ written: string[]; result: Awaited<ReturnType<ChatStream['run']>> }> {
  const written: string[] = [];
  const writer = { data: (payload: string) => Promise.resolve(void written.push(payload)) };
  const hooks: ChatStreamHooks = {
    judge: (_window, text, n) => Promise.resolve(judge(text, n)),
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
});
