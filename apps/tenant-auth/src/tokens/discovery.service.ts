import { Inject, Injectable } from '@nestjs/common';
import { tokenIssuer } from '@agp/config';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';

export interface DiscoveryDocument {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  end_session_endpoint: string;
  client_id_metadata_document_supported: boolean;
  code_challenge_methods_supported: string[];
  response_modes_supported: string[];
  authorization_response_iss_parameter_supported: boolean;
  jwks_uri: string;
  grant_types_supported: string[];
  token_endpoint_auth_methods_supported: string[];
  scopes_supported: string[];
  id_token_signing_alg_values_supported: string[];
  token_endpoint_auth_signing_alg_values_supported: string[];
  response_types_supported: string[];
  subject_types_supported: string[];
  claims_supported: string[];
}

/** D6: the discovery document (OpenID Connect Discovery / RFC 8414), with browser sign-in's endpoints (I14). */
@Injectable()
export class DiscoveryService {
  private readonly cached: DiscoveryDocument;

  constructor(@Inject(TENANT_AUTH_ENV) env: TenantAuthEnv) {
    const issuer = tokenIssuer(env);
    this.cached = {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      // identity.md I24: people's MCP clients register themselves, or name a metadata document.
      registration_endpoint: `${issuer}/oauth/register`,
      end_session_endpoint: `${issuer}/oauth/logout`,
      client_id_metadata_document_supported: true,
      // identity.md I14: PKCE S256 only, the code in the query, `iss` beside it (RFC 9207).
      code_challenge_methods_supported: ['S256'],
      response_modes_supported: ['query'],
      authorization_response_iss_parameter_supported: true,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      grant_types_supported: [
        'client_credentials',
        'password',
        'authorization_code',
        'refresh_token',
      ],
      // `none`: the console, a public client that proves itself with PKCE.
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      scopes_supported: ['openid', 'offline_access', 'svc:api', 'mcp:call', 'telemetry:write'],
      id_token_signing_alg_values_supported: ['ES256'],
      token_endpoint_auth_signing_alg_values_supported: ['ES256'],
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      claims_supported: [
        'iss',
        'sub',
        'aud',
        'exp',
        'iat',
        'nbf',
        'jti',
        'tid',
        'kind',
        'scope',
        'perms',
        'name',
        'email',
        'nonce',
        'auth_time',
        'sid',
      ],
    };
  }

  document(): DiscoveryDocument {
    return this.cached;
  }
}
