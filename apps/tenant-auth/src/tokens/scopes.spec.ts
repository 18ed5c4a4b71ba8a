import { OAuthError } from './oauth.error';
import { scopeOf } from './scopes';

describe(scopeOf.name, () => {
  it('should default to svc:api when no scope is asked for', () => {
    expect(scopeOf(undefined)).toBe('svc:api');
    expect(scopeOf('  ')).toBe('svc:api');
  });

  it('should give mcp:call when it is asked for', () => {
    expect(scopeOf('mcp:call')).toBe('mcp:call');
  });

  it('should give telemetry:write, the scope agents send OTLP with (D54), when it is asked for', () => {
    expect(scopeOf('telemetry:write')).toBe('telemetry:write');
  });

  it('should refuse with invalid_scope when a scope is unknown or two audiences are asked for', () => {
    expect(() => scopeOf('admin')).toThrow(OAuthError);
    expect(() => scopeOf('svc:api mcp:call')).toThrow(
      expect.objectContaining({ error: 'invalid_scope' }),
    );
  });
});
