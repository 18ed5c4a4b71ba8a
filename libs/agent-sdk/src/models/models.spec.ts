import { isTokenExpired, parseAccessToken } from './access-token';
import {
  parseAgentCardRefreshResult,
  parseAgentInfo,
  parseLlmGatewaySubscription,
  parseMcpServerInfo,
} from './models';
import { toolNamespace } from './tool-namespace';
import { ModelParseError } from './wire';

describe('client-library models', () => {
  it('should read an agent the same way when its fields are snake_case or camelCase', () => {
    const snake = parseAgentInfo({
      agent_id: 'a',
      name: 'n',
      agent_card_url: 'http://c',
      visibility: 'PUBLIC',
    });
    const camel = parseAgentInfo({
      agentId: 'a',
      name: 'n',
      agentCardUrl: 'http://c',
      visibility: 'PUBLIC',
    });

    expect(snake).toEqual(camel);
    expect(() =>
      parseAgentInfo({ agent_id: 'a', name: 'n', agent_card_url: 'u', visibility: 'X' }),
    ).toThrow(ModelParseError);
  });

  it('should read an MCP server from the specification’s names and the relay’s', () => {
    expect(
      parseMcpServerInfo({ mcp_server_id: 'm', name: 'n', protocol_version: '2025-06-18' }),
    ).toEqual({
      mcpServerId: 'm',
      name: 'n',
      protocolVersion: '2025-06-18',
    });
    expect(
      parseMcpServerInfo({ id: 'm', name: 'n', transport: 'STREAMABLE_HTTP', tools: null }),
    ).toEqual({
      mcpServerId: 'm',
      name: 'n',
      transport: 'STREAMABLE_HTTP',
      tools: null,
    });
  });

  it('should read an LLM gateway subscription from its own row or a D32 subscription', () => {
    expect(
      parseLlmGatewaySubscription({
        llm_gateway_id: 'g',
        llm_gateway_name: 'G',
        tenant_id: 't',
        subscribed_at: 'x',
      }),
    ).toEqual({ llmGatewayId: 'g', llmGatewayName: 'G', tenantId: 't', subscribedAt: 'x' });
    expect(parseLlmGatewaySubscription({ id: 's', targetId: 'g', createdAt: 'x' })).toEqual({
      llmGatewayId: 'g',
      subscribedAt: 'x',
    });
  });

  it('should read a card refresh result and refuse an unknown status', () => {
    expect(parseAgentCardRefreshResult({ status: 'updated', changed_fields: ['name'] })).toEqual({
      status: 'updated',
      changedFields: ['name'],
    });
    expect(() => parseAgentCardRefreshResult({ status: 'maybe' })).toThrow(ModelParseError);
  });

  it('should count a token as expired from 60 s before its expiry', () => {
    const token = parseAccessToken({ access_token: 't', expires_in: 900, scope: 'svc:api' }, 0);

    expect(isTokenExpired(token, 839_999)).toBe(false);
    expect(isTokenExpired(token, 840_000)).toBe(true);
    expect(isTokenExpired(token, 899_000, 0)).toBe(false);
  });
});

describe(toolNamespace.name, () => {
  it.each([
    ['weather', '1234567890abcdef', 'mcp_weather_12345678'],
    ['My Tools (prod)', 'abcdef01-2345', 'mcp_My_Tools__prod_abcdef01'],
    ['ok-name_1', 'ffffffff-0000', 'mcp_ok-name_1_ffffffff'],
    ['trailing!!', 'aaaaaaaa', 'mcp_trailing_aaaaaaaa'],
    ['émoji ☂', '12345678', 'mcp__moji_12345678'],
  ])('should namespace %p with id %p as %p', (name, id, expected) => {
    expect(toolNamespace(name, id)).toBe(expected);
  });

  it('should leave no trailing separator when the name is only symbols', () => {
    expect(toolNamespace('!!!', '12345678')).toBe('mcp_12345678');
  });
});
