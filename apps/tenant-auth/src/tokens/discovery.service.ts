import { Inject, Injectable } from '@nestjs/common';
import { tokenIssuer } from '@agp/config';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';

export interface DiscoveryDocument {
  issuer: string;
  token_endpoint: string;
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

/** D6: the discovery document (OpenID Connect Discovery / RFC 8414 fields that apply). */
@Injectable()
export class DiscoveryService {
  private readonly cached: DiscoveryDocument;

  constructor(@Inject(TENANT_AUTH_ENV) env: TenantAuthEnv) {
    const issuer = tokenIssuer(env);
    this.cached = {
      issuer,
      token_endpoint: `${issuer}/oauth/token`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      grant_types_supported: ['client_credentials', 'password'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ['svc:api', 'mcp:call'],
      id_token_signing_alg_values_supported: ['ES256'],
      token_endpoint_auth_signing_alg_values_supported: ['ES256'],
      response_types_supported: ['token'],
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
      ],
    };
  }

  document(): DiscoveryDocument {
    return this.cached;
  }
}
