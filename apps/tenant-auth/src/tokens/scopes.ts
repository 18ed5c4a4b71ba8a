import { SCOPES, Scope } from '@agp/contracts';

import { OAuthError } from './oauth.error';

/** D8: one audience per token, so one of `svc:api` (default) or `mcp:call` (D54). */
export function scopeOf(requested: string | undefined): Scope {
  const scopes = [...new Set((requested ?? '').split(' ').filter(Boolean))];
  if (scopes.length === 0) {
    return 'svc:api';
  }
  const unknown = scopes.find((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown) {
    throw new OAuthError('invalid_scope', `unknown scope ${unknown}`);
  }
  if (scopes.length > 1) {
    throw new OAuthError('invalid_scope', 'request svc:api or mcp:call, one audience per token');
  }
  return scopes[0] as Scope;
}
