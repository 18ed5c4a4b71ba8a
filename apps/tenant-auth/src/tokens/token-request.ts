import { OAuthError } from './oauth.error';

/** What the token endpoint was sent: the body (JSON or form, D7), the Authorization header, the address. */
export interface TokenRequest {
  body: unknown;
  authorization?: string;
  address: string;
}

export type TokenParams = Record<string, string>;

/** The parameters as strings; a repeated or non-string parameter is invalid_request (RFC 6749 §3.2). */
export function paramsOf(body: unknown): TokenParams {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new OAuthError('invalid_request', 'the body must be a form or a JSON object');
  }
  const params: TokenParams = {};
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value !== 'string') {
      throw new OAuthError('invalid_request', `parameter ${name} must be given once, as a string`);
    }
    params[name] = value;
  }
  return params;
}

export function required(params: TokenParams, name: string): string {
  const value = params[name];
  if (!value) {
    throw new OAuthError('invalid_request', `parameter ${name} is required`);
  }
  return value;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** D7: the client secret in the body or HTTP Basic (RFC 6749 §2.3.1), never both. */
export function clientCredentialsOf(
  params: TokenParams,
  authorization: string | undefined,
): ClientCredentials {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization?.trim() ?? '');
  if (basic) {
    if (params.client_secret !== undefined) {
      throw new OAuthError('invalid_request', 'use one client authentication method, not two');
    }
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) {
      throw new OAuthError('invalid_client', 'client authentication failed');
    }
    const clientId = safeDecode(decoded.slice(0, colon));
    if (params.client_id !== undefined && params.client_id !== clientId) {
      throw new OAuthError('invalid_request', 'client_id differs from the authenticated client');
    }
    return { clientId, clientSecret: safeDecode(decoded.slice(colon + 1)) };
  }
  return {
    clientId: required(params, 'client_id'),
    clientSecret: required(params, 'client_secret'),
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw new OAuthError('invalid_client', 'client authentication failed');
  }
}
