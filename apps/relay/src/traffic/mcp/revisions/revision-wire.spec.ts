import { JsonRpcMessage } from '../json-rpc';
import { headerMismatchOf } from './header-check';
import {
  clientEraOf,
  decodedHeaderValue,
  headerValueOf,
  legacyClientOf,
  modernHeadersOf,
  sessionIdOf,
  withEnvelope,
  withoutEnvelope,
} from './revision-wire';

const call = (params: Record<string, unknown>): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params,
});

describe('MCP revision wire (T96, T97)', () => {
  it('should tell a 2026-07-28 request from a 2025-era one', () => {
    const modern = call({
      name: 'x',
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
    });
    expect(clientEraOf({}, [modern])).toBe('modern');
    expect(clientEraOf({ 'mcp-protocol-version': '2026-07-28' }, [call({ name: 'x' })])).toBe(
      'modern',
    );
    expect(clientEraOf({ 'mcp-session-id': 's' }, [modern])).toBe('legacy');
    expect(clientEraOf({ 'mcp-protocol-version': '2025-11-25' }, [call({ name: 'x' })])).toBe(
      'legacy',
    );
    expect(clientEraOf({}, [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }])).toBe(
      'legacy',
    );
  });

  it('should carry a 2025 client in its session id and read it back', () => {
    const client = {
      protocolVersion: '2025-06-18',
      clientInfo: { name: 'c' },
      capabilities: { elicitation: {} },
    };
    expect(legacyClientOf({ 'mcp-session-id': sessionIdOf(client) })).toEqual(client);
    expect(legacyClientOf({ 'mcp-session-id': 'other' })).toBeUndefined();
  });

  it('should add and remove the envelope, keeping other _meta', () => {
    const client = { protocolVersion: '2025-11-25', clientInfo: { name: 'c' }, capabilities: {} };
    const enveloped = withEnvelope(call({ name: 'x', _meta: { progressToken: 7 } }), client);
    expect(enveloped.params).toEqual({
      name: 'x',
      _meta: {
        progressToken: 7,
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'c' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    });
    expect(withoutEnvelope(enveloped).params).toEqual({ name: 'x', _meta: { progressToken: 7 } });
  });

  it('should encode names outside plain ASCII with the Base64 sentinel, and decode them', () => {
    expect(headerValueOf('get_weather')).toBe('get_weather');
    expect(headerValueOf('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(decodedHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toBe('Hello, 世界');
    expect(modernHeadersOf(call({ name: 'greet' }))).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'greet',
    });
  });

  it('should find headers that contradict the body', () => {
    expect(
      headerMismatchOf(
        { 'mcp-method': 'tools/call', 'mcp-name': 'greet' },
        call({ name: 'greet' }),
      ),
    ).toBeUndefined();
    expect(headerMismatchOf({ 'mcp-method': 'tasks/get' }, call({ name: 'greet' }))).toContain(
      'Mcp-Method',
    );
    expect(headerMismatchOf({ 'mcp-name': 'other' }, call({ name: 'greet' }))).toContain(
      'Mcp-Name',
    );
    expect(
      headerMismatchOf({ 'mcp-name': '=?base64?Z3JlZXQ=?=' }, call({ name: 'greet' })),
    ).toBeUndefined();
    expect(headerMismatchOf({ 'mcp-name': '=?base64?***?=' }, call({ name: 'greet' }))).toContain(
      'characters',
    );
  });
});
