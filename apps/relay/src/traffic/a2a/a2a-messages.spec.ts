import { JsonRpcMessage } from '../mcp/json-rpc';
import {
  a2aText,
  endsTask,
  isFinalEvent,
  isStreamingMethod,
  taskFacts,
  withA2aWarnings,
  withFileBytes,
  withoutFileBytes,
} from './a2a-messages';

const send03: JsonRpcMessage = {
  jsonrpc: '2.0',
  id: 1,
  method: 'message/send',
  params: {
    message: {
      kind: 'message',
      role: 'user',
      messageId: 'm1',
      parts: [
        { kind: 'text', text: 'hello' },
        { kind: 'data', data: { amount: 5, note: 'not text' } },
        { kind: 'file', file: { name: 'a.pdf', bytes: 'QUJD' } },
      ],
    },
  },
};

const send10: JsonRpcMessage = {
  jsonrpc: '2.0',
  id: 2,
  method: 'SendMessage',
  params: {
    message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'hi' }, { raw: 'WFla' }] },
  },
};

describe('A2A messages', () => {
  it('should tell a task that ended for good from one that waits or works (T113)', () => {
    const answer = (result: unknown): JsonRpcMessage => ({ jsonrpc: '2.0', id: null, result });

    expect(endsTask(answer({ kind: 'task', id: 't', status: { state: 'completed' } }))).toBe(true);
    expect(
      endsTask(
        answer({ statusUpdate: { taskId: 't', status: { state: 'TASK_STATE_CANCELLED' } } }),
      ),
    ).toBe(true);
    expect(endsTask(answer({ task: { id: 't', status: { state: 'TASK_STATE_FAILED' } } }))).toBe(
      true,
    );
    expect(endsTask(answer({ kind: 'task', id: 't', status: { state: 'input-required' } }))).toBe(
      false,
    );
    expect(endsTask(answer({ kind: 'task', id: 't', status: { state: 'working' } }))).toBe(false);
    expect(endsTask(answer({ kind: 'message', messageId: 'm' }))).toBe(false);
  });

  it('should read the text parts only, in both protocols (D38)', () => {
    expect(a2aText(send03)).toBe('hello');
    expect(a2aText(send10)).toBe('hi');
    expect(a2aText({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'boom' } })).toBe('boom');
  });

  it('should show file bytes by digest and put them back into what is forwarded', () => {
    const { json, files } = withoutFileBytes(send03);
    const shown = JSON.stringify(json);

    expect(shown).not.toContain('QUJD');
    expect(shown).toContain('sha256:');
    expect(withFileBytes(json, files)).toEqual(send03);
    expect(JSON.stringify(withoutFileBytes(send10).json)).not.toContain('WFla');
  });

  it('should put warnings under the sent message metadata and the answer object metadata', () => {
    const warned = withA2aWarnings(send10, ['watched']);
    const answer = withA2aWarnings(
      {
        jsonrpc: '2.0',
        id: 2,
        result: { task: { id: 't', status: { state: 'TASK_STATE_WORKING' } } },
      },
      ['watched'],
    );

    expect((warned.params as { message: { metadata: unknown } }).message.metadata).toEqual({
      agp: { warnings: ['watched'] },
    });
    expect(answer.result).toMatchObject({ task: { metadata: { agp: { warnings: ['watched'] } } } });
  });

  it.each<[string, unknown, boolean]>([
    ['a 1.0 working task', { task: { id: 't', status: { state: 'TASK_STATE_WORKING' } } }, false],
    [
      'a 1.0 completed update',
      { statusUpdate: { taskId: 't', status: { state: 'TASK_STATE_COMPLETED' } } },
      true,
    ],
    ['a 1.0 artifact', { artifactUpdate: { taskId: 't', artifact: {} } }, false],
    ['a 1.0 message', { message: { messageId: 'm' } }, true],
    [
      'a 0.3 final update',
      { kind: 'status-update', taskId: 't', status: { state: 'working' }, final: true },
      true,
    ],
    [
      'a 0.3 input-required task',
      { kind: 'task', id: 't', status: { state: 'input-required' } },
      true,
    ],
  ])('should tell whether %s ends the stream', (_what, result, isFinal) => {
    expect(isFinalEvent({ jsonrpc: '2.0', id: 1, result })).toBe(isFinal);
  });

  it('should name the task and its state of an answer', () => {
    const sut = taskFacts({
      jsonrpc: '2.0',
      id: 1,
      result: { statusUpdate: { taskId: 't9', status: { state: 'TASK_STATE_WORKING' } } },
    });

    expect(sut).toEqual({ a2aTaskId: 't9', a2aTaskState: 'TASK_STATE_WORKING' });
    expect(isStreamingMethod('message/stream')).toBe(true);
    expect(isStreamingMethod('SubscribeToTask')).toBe(true);
    expect(isStreamingMethod('GetTask')).toBe(false);
  });
});
