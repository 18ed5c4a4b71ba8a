import { JsonRpcMessage } from './json-rpc';
import { asMasked, filterToolList, payloadText, toolOf, withWarnings } from './mcp-messages';

const call: JsonRpcMessage = {
  jsonrpc: '2.0',
  id: 4,
  method: 'tools/call',
  params: { name: 'lookup', arguments: { note: 'SSN 078-05-1120' } },
};

describe('MCP messages', () => {
  it('should take the text of the payload only, never the envelope', () => {
    expect(payloadText(call)).toBe('lookup\nSSN 078-05-1120');
    expect(payloadText({ jsonrpc: '2.0', id: 1, result: { content: [{ text: 'ok' }] } })).toBe(
      'ok',
    );
  });

  it('should name the tool of a tools/call and no other method', () => {
    expect(toolOf(call)).toBe('lookup');
    expect(toolOf({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
  });

  it('should keep only the granted tools of a tools/list result, and all of them for a null grant', () => {
    const listed: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: 2,
      result: { tools: [{ name: 'a' }, { name: 'b' }], nextCursor: 'c' },
    };

    expect(filterToolList(listed, ['b']).result).toEqual({
      tools: [{ name: 'b' }],
      nextCursor: 'c',
    });
    expect(filterToolList(listed, null)).toBe(listed);
  });

  it('should put the warnings under _meta of params for a request and of result for a response', () => {
    const response: JsonRpcMessage = { jsonrpc: '2.0', id: 4, result: { _meta: { x: 1 } } };

    expect(withWarnings(call, ['w']).params).toMatchObject({ _meta: { agp: { warnings: ['w'] } } });
    expect(withWarnings(response, ['w']).result).toEqual({
      _meta: { x: 1, agp: { warnings: ['w'] } },
    });
    const failed: JsonRpcMessage = { jsonrpc: '2.0', id: 4, error: { code: 1, message: 'no' } };
    expect(withWarnings(failed, ['w'])).toBe(failed);
  });

  it('should keep the envelope of the original when a mask replaced the whole message', () => {
    expect(asMasked(call, '[MASKED:MASKED]')).toEqual({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
    });
    expect(asMasked(call, { ...call, id: 99, params: { name: 'lookup' } })).toEqual({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'lookup' },
    });
  });
});
