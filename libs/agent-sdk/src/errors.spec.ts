import { ApiError, McpJsonRpcError, REFUSAL_CODES, refusalCodeOf } from './errors';

describe(refusalCodeOf.name, () => {
  it('should name the refusal when a JSON-RPC error carries data.agpCode', () => {
    const sut = new McpJsonRpcError('blocked by policy', -31001, {
      agpCode: 'blocked_by_policy',
      reasons: ['prompt injection'],
    });

    expect(refusalCodeOf(sut)).toBe('blocked_by_policy');
    expect(sut.agpCode).toBe('blocked_by_policy');
  });

  it('should name the refusal when an HTTP answer carries it in a JSON-RPC body or problem+json', () => {
    const rateLimited = new ApiError('429', 429, {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -31029, message: 'rate limited', data: { agpCode: 'rate_limited' } },
    });
    const llm = new ApiError('403', 403, {
      type: 'urn:agp:problem:kill-switch',
      agpCode: 'kill_switch',
      error: { code: 'kill_switch', agpCode: 'kill_switch' },
    });

    expect(refusalCodeOf(rateLimited)).toBe('rate_limited');
    expect(refusalCodeOf(llm)).toBe('kill_switch');
  });

  it('should name the refusal an A2A SDK error carries, also as the cause of another', () => {
    const transportError = { name: 'JsonRpcTransportError', data: { agpCode: 'review_pending' } };

    expect(refusalCodeOf(new Error('stream failed', { cause: transportError }))).toBe(
      'review_pending',
    );
  });

  it('should name nothing when the error is a server error, a timeout, or an unknown name', () => {
    expect(refusalCodeOf(new McpJsonRpcError('Request timed out', -32001))).toBeUndefined();
    expect(refusalCodeOf(new McpJsonRpcError('x', -31001, { agpCode: 'maybe' }))).toBeUndefined();
    expect(refusalCodeOf(undefined)).toBeUndefined();
  });
});

describe('REFUSAL_CODES', () => {
  it('should keep every code outside the JSON-RPC reserved range the SDKs use', () => {
    const codes = Object.values(REFUSAL_CODES);

    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.filter((code) => code >= -32768 && code <= -32000)).toEqual([]);
  });
});
