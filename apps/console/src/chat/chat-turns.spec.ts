import { contextIdOf, resultText, turnOf } from './chat-turns';

describe('chat turns', () => {
  it('should show a completed task by its artifacts’ text when the agent answers', () => {
    const reply = {
      result: {
        kind: 'task',
        contextId: 'c-1',
        status: { state: 'completed' },
        artifacts: [{ parts: [{ kind: 'text', text: 'echo: hi' }] }],
      },
    };

    const sut = turnOf('1', reply);

    expect(sut).toEqual({ kind: 'agent', id: '1', text: 'echo: hi', state: 'completed' });
    expect(contextIdOf(reply)).toBe('c-1');
  });

  it('should show a message answer by its parts and a task without artifacts by its status message', () => {
    expect(resultText({ kind: 'message', parts: [{ kind: 'text', text: 'hello' }] })).toBe('hello');
    expect(
      resultText({
        kind: 'task',
        status: { message: { parts: [{ kind: 'text', text: 'working' }] } },
      }),
    ).toBe('working');
  });

  it('should show a hold with its request id when the message waits for a reviewer', () => {
    const sut = turnOf('2', {
      error: {
        code: -31004,
        message: 'held',
        data: { agpCode: 'review_pending', hitlRequestId: 'h-1', reasons: ['payments'] },
      },
    });

    expect(sut).toMatchObject({ kind: 'held', hitlRequestId: 'h-1', reasons: ['payments'] });
  });

  it('should name the refusal when a policy or a kill switch refuses the message', () => {
    const blocked = turnOf('3', {
      error: {
        code: -31001,
        message: 'blocked',
        data: { agpCode: 'blocked_by_policy', reasons: ['x'] },
      },
    });
    const stopped = turnOf('4', {
      error: { code: -31005, message: 'kill', data: { agpCode: 'kill_switch' } },
    });

    expect(blocked).toMatchObject({ kind: 'refused', text: 'Blocked by policy', reasons: ['x'] });
    expect(stopped).toMatchObject({ kind: 'refused', text: 'Stopped: a kill switch is engaged' });
  });

  it('should show a failure with the error’s message when the error is not the platform’s', () => {
    expect(turnOf('5', { error: { code: -32603, message: 'agent down' } })).toEqual({
      kind: 'failed',
      id: '5',
      text: 'agent down',
    });
  });

  it('should carry the relay’s disclosure and marking when the answer’s metadata has them (D45)', () => {
    const reply = {
      result: {
        kind: 'task',
        status: { state: 'completed' },
        artifacts: [{ parts: [{ kind: 'text', text: 'echo: hi' }] }],
        metadata: {
          agp: {
            aiDisclosure: { text: 'You are talking to an AI agent.' },
            syntheticContent: { aiGenerated: true, mode: 'ai-originated' },
          },
        },
      },
    };

    const sut = turnOf('1', reply);
    const unmarked = turnOf('2', { result: { kind: 'message', parts: [{ text: 'plain' }] } });

    expect(sut).toEqual({
      kind: 'agent',
      id: '1',
      text: 'echo: hi',
      state: 'completed',
      disclosure: 'You are talking to an AI agent.',
      isMarked: true,
    });
    expect(unmarked).toEqual({ kind: 'agent', id: '2', text: 'plain' });
  });
});
