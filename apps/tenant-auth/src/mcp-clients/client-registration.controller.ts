import { Body, Controller, HttpCode, Inject, Ip, Post, Res, UseFilters } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { Public } from '@agp/auth';
import { Database } from '@agp/database';
import { FastifyReply } from 'fastify';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { OAuthErrorFilter } from '../tokens/oauth-error.filter';
import { OAUTH_ERROR_SCHEMA, OAuthError } from '../tokens/oauth.error';
import { TokenRateLimiter } from '../tokens/token-rate-limiter';
import { ClientMetadata, metadataProblem } from './client-metadata';
import { OAuthClients } from './oauth-clients';

const ISSUED_FIELDS = new Set([
  'client_id',
  'client_secret',
  'client_id_issued_at',
  'client_secret_expires_at',
]);

// Open, like the MCP specification expects (a person's client registers before anyone signs in),
// counted per address like the token endpoint; public clients only (I24, RFC 7591).
@Controller('tenant-auth/v1')
export class ClientRegistrationController {
  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    private readonly clients: OAuthClients,
    private readonly limiter: TokenRateLimiter,
  ) {}

  @Public()
  @Post('oauth/register')
  @HttpCode(201)
  @UseFilters(OAuthErrorFilter)
  @ApiResponse({ status: 201, description: 'The registered client (RFC 7591 §3.2.1).' })
  @ApiResponse({
    status: 400,
    description: 'RFC 7591 §3.2.2: invalid_redirect_uri or invalid_client_metadata.',
    content: { 'application/json': { schema: OAUTH_ERROR_SCHEMA } },
  })
  @ApiResponse({ status: 429, description: 'Too many registrations from this address.' })
  async register(
    @Body() body: unknown,
    @Ip() address: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const limited = await this.database.asSystem((tx) =>
      this.limiter.count(tx, [
        { key: `register:${address}`, limit: this.env.TOKEN_RATE_LIMIT_PER_ADDRESS },
      ]),
    );
    if (limited) {
      throw limited;
    }
    const problem = metadataProblem(body);
    if (problem) {
      throw new OAuthError(problem.error, problem.description);
    }
    // Whatever the client sent as its own id or secret is not metadata it may choose.
    const given = Object.fromEntries(
      Object.entries(body as ClientMetadata).filter(([field]) => !ISSUED_FIELDS.has(field)),
    ) as ClientMetadata;
    const metadata: ClientMetadata = {
      ...given,
      token_endpoint_auth_method: 'none',
      grant_types: given.grant_types ?? ['authorization_code'],
      response_types: ['code'],
    };
    const clientId = await this.clients.register(metadata);
    return {
      ...metadata,
      client_id: clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
    };
  }
}
