import { UnreadableBody } from '../pipeline/json-rpc-body';
import { invalidMessage, kindOf, parseBody } from './json-rpc';

describe('parseBody', () => {
  it('should accept a request, a notification and a response when each is well formed', () => {
    const sut = parseBody([
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'a', result: {} },
    ]);

    expect('messages' in sut && sut.messages.map(kindOf)).toEqual([
      'request',
      'notification',
      'response',
    ]);
    expect('isBatch' in sut && sut.isBatch).toBe(true);
  });

  it('should answer a parse error naming the message, as the MCP SDK server does, when one of a batch is wrong', () => {
    const sut = parseBody([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '1.0', id: 7 },
    ]);

    expect(sut).toEqual({
      invalid: {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32700,
          message: 'Parse error: Invalid JSON-RPC message',
          data: { reason: 'message 1: jsonrpc must be "2.0"' },
        },
      },
    });
  });

  it('should refuse an empty batch', () => {
    expect(parseBody([])).toMatchObject({ invalid: { error: { code: -32600 } } });
  });

  it('should answer the MCP SDK server parse error when the body was not JSON', () => {
    expect(parseBody(new UnreadableBody('Unexpected end of JSON input'))).toEqual({
      invalid: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: Invalid JSON' },
      },
    });
  });
});

describe('invalidMessage', () => {
  it.each([
    [null, 'a JSON-RPC message must be an object'],
    [{ jsonrpc: '2.0', id: {}, method: 'x' }, 'id must be a string or a number'],
    [{ jsonrpc: '2.0', id: 1, method: '' }, 'method must be a non-empty string'],
    [{ jsonrpc: '2.0', id: 1, method: 'x', params: 3 }, 'params must be an object or an array'],
    [{ jsonrpc: '2.0', id: null, method: 'x' }, 'a request id must not be null'],
    [{ jsonrpc: '2.0' }, 'a message needs a method (request, notification) or an id (response)'],
    [
      { jsonrpc: '2.0', id: 1, result: 1, error: {} },
      'a response carries exactly one of result and error',
    ],
    [{ jsonrpc: '2.0', id: 1, error: { code: 'x' } }, 'error must be {code, message}'],
  ])('should say why %j is not a message', (value, why) => {
    expect(invalidMessage(value)).toBe(why);
  });
});
