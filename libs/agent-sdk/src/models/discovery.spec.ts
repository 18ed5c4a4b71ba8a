import {
  discoveryQueryString,
  parseDiscoveredAgent,
  parseDiscoveredMcpServer,
  parseDiscoveryPage,
} from './discovery';
import { ModelParseError } from './wire';

describe('discovery models', () => {
  it('should read a discovered agent with its skills and modes when the relay answers camel case', () => {
    const agent = parseDiscoveredAgent({
      id: 'a1',
      name: 'Polyglot',
      agentCardUrl: 'https://p/relay/a2a/a1/.well-known/agent-card.json',
      visibility: 'INTERNAL',
      skills: [{ id: 'translate', name: 'Translation', tags: ['language'] }],
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      score: 0.42,
    });

    expect(agent).toEqual({
      agentId: 'a1',
      name: 'Polyglot',
      agentCardUrl: 'https://p/relay/a2a/a1/.well-known/agent-card.json',
      visibility: 'INTERNAL',
      skills: [{ id: 'translate', name: 'Translation', tags: ['language'] }],
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      score: 0.42,
    });
  });

  it('should read snake case aliases and refuse an unknown visibility', () => {
    const server = parseDiscoveredMcpServer({
      mcp_server_id: 's1',
      name: 'crm',
      relay_url: 'https://p/relay/mcp/s1',
      tools: ['echo'],
    });

    expect(server).toEqual({
      mcpServerId: 's1',
      name: 'crm',
      relayUrl: 'https://p/relay/mcp/s1',
      tools: ['echo'],
      score: 0,
    });
    expect(() =>
      parseDiscoveredAgent({ id: 'a', name: 'n', agentCardUrl: 'u', visibility: 'SECRET' }),
    ).toThrow(ModelParseError);
  });

  it('should read a page with a null cursor on the last page and refuse one without items', () => {
    expect(parseDiscoveryPage({ items: [], nextCursor: null }, String)).toEqual({
      items: [],
      nextCursor: null,
    });
    expect(() => parseDiscoveryPage({ nextCursor: 'x' }, String)).toThrow(ModelParseError);
  });

  it('should put only the given filters in the query string, encoded', () => {
    expect(discoveryQueryString({ q: 'translate & check', tag: undefined, limit: 5 })).toBe(
      '?q=translate+%26+check&limit=5',
    );
    expect(discoveryQueryString({})).toBe('');
  });
});
