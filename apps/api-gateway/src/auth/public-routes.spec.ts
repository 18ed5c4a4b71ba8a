import { needsToken } from './public-routes';

describe(needsToken.name, () => {
  it('should require a token on every proxied path but the public ones', () => {
    expect(needsToken('/tenant-auth/v1/users')).toBe(true);
    expect(needsToken('/relay/mcp/abc')).toBe(true);
    expect(needsToken('/audit/v1/events/export?eventType=HITL')).toBe(true);
    expect(needsToken('/tenant-auth/v1/oauth/token')).toBe(false);
    expect(needsToken('/tenant-auth/v1/.well-known/jwks.json?x=1')).toBe(false);
    expect(needsToken('/tenant-auth/v1/.well-known/openid-configuration')).toBe(false);
    expect(needsToken('/tenant-auth/v1/oauth/authorize?client_id=agp-console')).toBe(false);
    expect(needsToken('/tenant-auth/v1/oauth/logout')).toBe(false);
    expect(needsToken('/relay/v1/licences/keys')).toBe(false);
    expect(needsToken('/relay/v1/licences/verify')).toBe(true);
    expect(
      needsToken(
        '/tenant-auth/v1/identity-providers/0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab/callback?code=x',
      ),
    ).toBe(false);
    expect(needsToken('/relay/a2a-push/0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab')).toBe(false);
    const channel = '/relay/channels/0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab/events';
    expect(needsToken(channel)).toBe(false);
    expect(needsToken(`${channel}/1b9e1a4c-1d2f-4e5a-9b7c-1234567890ab`)).toBe(false);
  });

  it('should not treat a look-alike of a public path as public', () => {
    expect(needsToken('/tenant-auth/v1/oauth/token/../users')).toBe(true);
    expect(needsToken('/tenant-auth/v1/oauth/tokens')).toBe(true);
    expect(needsToken('/tenant-auth/v1/.well-known/jwks.json/x')).toBe(true);
    expect(
      needsToken('/tenant-auth/v1/identity-providers/0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab'),
    ).toBe(true);
    expect(needsToken('/tenant-auth/v1/identity-providers/x/../users/callback')).toBe(true);
    expect(needsToken('/relay/a2a-push/0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab/x')).toBe(true);
    expect(needsToken('/relay/a2a-push/../v1/agents')).toBe(true);
    expect(needsToken('/relay/channels/0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab')).toBe(true);
    expect(needsToken('/relay/channels/0b9e1a4c-1d2f-4e5a-9b7c-1234567890ab/events/x')).toBe(true);
  });

  it('should leave the gateway health probes to the gateway', () => {
    expect(needsToken('/health/live')).toBe(false);
  });
});
