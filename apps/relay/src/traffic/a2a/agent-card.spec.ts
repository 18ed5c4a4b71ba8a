import { changedFields, endpointOf, invalidCard, proxiedCard } from './agent-card';

const v1 = {
  name: 'echo',
  version: '1.0.0',
  supportedInterfaces: [
    { url: 'http://agent.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'http://agent.example/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  securitySchemes: { own: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
  securityRequirements: [{ schemes: { own: { list: [] } } }],
  skills: [{ id: 's', name: 's', securityRequirements: [{ schemes: { own: { list: [] } } }] }],
  signatures: [{ protected: 'x', signature: 'y' }],
};

const v03 = {
  name: 'legacy',
  url: 'http://agent.example/rpc',
  protocolVersion: '0.3.0',
  additionalInterfaces: [{ url: 'http://agent.example/grpc', transport: 'GRPC' }],
  securitySchemes: { own: { type: 'http', scheme: 'bearer' } },
  security: [{ own: [] }],
};

const relayUrl = 'http://agp.test/relay/a2a/7d1c1f1e-3c1a-4c55-9a8e-2c5d0b0f0a01';
const tokenUrl = 'http://agp.test/tenant-auth/v1/oauth/token';

describe('agent card', () => {
  it('should find the JSON-RPC interface of a 1.0 card and the url of a 0.3 card', () => {
    expect(endpointOf(v1)).toEqual({ url: 'http://agent.example/a2a', protocolVersion: '1.0' });
    expect(endpointOf(v03)).toEqual({ url: 'http://agent.example/rpc', protocolVersion: '0.3.0' });
  });

  it('should advertise pushes only when the agent sends them (T44)', () => {
    const pushing = proxiedCard(
      { ...v1, capabilities: { streaming: true, pushNotifications: true } },
      relayUrl,
      tokenUrl,
    );
    const silent = proxiedCard({ ...v03, capabilities: { streaming: true } }, relayUrl, tokenUrl);

    expect(pushing.capabilities).toEqual({ streaming: true, pushNotifications: true });
    expect(silent.capabilities).toEqual({ streaming: true, pushNotifications: false });
  });

  it('should refuse a card without a JSON-RPC interface or a name', () => {
    expect(invalidCard({ name: 'x', url: 'http://a', preferredTransport: 'GRPC' })).toMatch(
      /JSON-RPC/,
    );
    expect(invalidCard({ url: 'http://a' })).toMatch(/name/);
    expect(invalidCard([])).toMatch(/object/);
    expect(invalidCard(v1)).toBeUndefined();
  });

  it('should point a 1.0 card at the relay with the platform scheme and drop what vouched for the original', () => {
    const sut = proxiedCard(v1, relayUrl, tokenUrl);

    expect(sut.supportedInterfaces).toEqual([
      { url: relayUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
    ]);
    expect(sut.securitySchemes).toEqual({
      agp_oauth2: {
        oauth2SecurityScheme: {
          description: expect.any(String),
          flows: { clientCredentials: { tokenUrl, scopes: { 'mcp:call': expect.any(String) } } },
        },
      },
    });
    expect(sut.securityRequirements).toEqual([{ schemes: { agp_oauth2: { list: ['mcp:call'] } } }]);
    expect(sut.signatures).toBeUndefined();
    expect(sut.skills).toEqual([{ id: 's', name: 's' }]);
    expect(JSON.stringify(sut)).not.toContain('agent.example');
  });

  it('should point a 0.3 card url at the relay with an oauth2 scheme', () => {
    const sut = proxiedCard(v03, relayUrl, tokenUrl);

    expect(sut).toMatchObject({
      url: relayUrl,
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [],
      security: [{ agp_oauth2: ['mcp:call'] }],
      securitySchemes: {
        agp_oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl } } },
      },
    });
  });

  it('should name the top-level fields that changed, added or removed', () => {
    const after = { ...v1, version: '1.1.0', description: 'new', skills: [] };
    const { signatures: _dropped, ...withoutSignatures } = after;

    expect(changedFields(v1, withoutSignatures)).toEqual([
      'description',
      'signatures',
      'skills',
      'version',
    ]);
    expect(changedFields(v1, { ...v1 })).toEqual([]);
  });
});
