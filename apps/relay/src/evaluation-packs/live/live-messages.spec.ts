import { EvaluationResponse, Hop } from '../dto/pack-responses';
import { UnsendableInput, a2aRequestOf, llmRequestOf, mcpRequestOf } from './live-messages';

function evaluation(input: string, first: Partial<Hop> = {}): EvaluationResponse {
  const hop: Hop = {
    hopId: 'h',
    source: { type: 'AGENT', id: 'a' },
    sink: { type: 'MCP_SERVER', id: 'm' },
    expectedPolicyIds: [],
    expectedMaskedFields: [],
    expectedPatterns: [],
    assertions: [],
    ...first,
  };
  return {
    id: 'e',
    packId: 'p',
    name: 'n',
    source: hop.source,
    target: hop.sink,
    input,
    hops: [hop],
    enabled: true,
    createdAt: '',
    updatedAt: '',
  };
}

describe('LIVE messages', () => {
  it('should send a JSON-RPC request as written, or call the first hop tool with the input', () => {
    expect(mcpRequestOf(evaluation('{"method":"tools/list","id":"x"}'))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
    });
    expect(mcpRequestOf(evaluation('hello', { toolName: 'echo' }))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hello' } },
    });
    expect(() => mcpRequestOf(evaluation('{"a":1}'))).toThrow(UnsendableInput);
  });

  it('should send an A2A SendMessage of the input text, or of the parts it gives', () => {
    const plain = a2aRequestOf(evaluation('hi there'));
    const parts = a2aRequestOf(evaluation('{"parts":[{"data":{"x":1}}]}'));

    expect(plain).toMatchObject({
      method: 'SendMessage',
      params: { message: { role: 'ROLE_USER', parts: [{ text: 'hi there' }] } },
    });
    expect(parts.params).toMatchObject({ message: { parts: [{ data: { x: 1 } }] } });
  });

  it('should send one user message to the gateway model, or a chat request as written', () => {
    expect(llmRequestOf(evaluation('hi'), 'fast')).toEqual({
      model: 'fast',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(
      llmRequestOf(evaluation('{"model":"m","messages":[{"role":"user","content":"x"}]}'), 'fast'),
    ).toMatchObject({ model: 'm' });
    expect(() => llmRequestOf(evaluation('hi'), undefined)).toThrow(UnsendableInput);
  });
});
