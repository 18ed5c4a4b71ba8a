import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Ip,
  Post,
  Res,
  UseFilters,
} from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { Public } from '@agp/auth';
import { FastifyReply } from 'fastify';
import { JSONWebKeySet } from 'jose';

import { SigningKeysService } from '../keys/signing-keys.service';
import { BrowserTokens } from '../sign-in/code-grants';
import { DiscoveryDocument, DiscoveryService } from './discovery.service';
import { OAuthErrorFilter } from './oauth-error.filter';
import { OAUTH_ERROR_SCHEMA } from './oauth.error';
import { TokenService } from './token.service';
import { IssuedToken } from './token-signer';

/** D6: the three routes that need no bearer token. */
@Controller('tenant-auth/v1')
export class TokenController {
  constructor(
    private readonly tokens: TokenService,
    private readonly keys: SigningKeysService,
    private readonly discovery: DiscoveryService,
  ) {}

  @Public()
  @Post('oauth/token')
  @HttpCode(200)
  @UseFilters(OAuthErrorFilter)
  @ApiResponse({ status: 200, description: 'The token (D7, D9).' })
  @ApiResponse({
    status: 400,
    description: 'RFC 6749 §5.2: a bad request, grant or scope (D7).',
    content: { 'application/json': { schema: OAUTH_ERROR_SCHEMA } },
  })
  @ApiResponse({
    status: 401,
    description: 'RFC 6749 §5.2: invalid_client, with a Basic challenge (D7).',
    content: { 'application/json': { schema: OAUTH_ERROR_SCHEMA } },
  })
  @ApiResponse({ status: 429, description: 'Too many token requests; see Retry-After (F17).' })
  async token(
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
    @Ip() address: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IssuedToken | BrowserTokens> {
    void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return this.tokens.token({ body, authorization, address });
  }

  @Public()
  @Get('.well-known/jwks.json')
  async jwks(@Res({ passthrough: true }) reply: FastifyReply): Promise<JSONWebKeySet> {
    void reply.header('cache-control', 'public, max-age=60');
    return this.keys.jwks();
  }

  @Public()
  @Get('.well-known/openid-configuration')
  openidConfiguration(): DiscoveryDocument {
    return this.discovery.document();
  }
}
