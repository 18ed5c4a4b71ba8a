import { Body, Controller, Get, Ip, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { Public } from '@agp/auth';
import { uuidParam } from '@agp/http';
import { FastifyReply, FastifyRequest } from 'fastify';

import { ConsentService } from './consent.service';
import { FederationService } from './federation.service';
import { SIGN_IN_PAGE_CSP } from './sign-in-page';
import { SignInService } from './sign-in.service';
import { BrowserRequest, SignInOutcome } from './sign-in.types';

type Fields = Record<string, unknown>;

/** The browser routes answer pages and redirects, never JSON (D6). */
const HTML = { 'text/html': {} };

/** Pages and redirects, never JSON (I14, I17, D6). */
@ApiResponse({ status: 200, description: 'A sign-in page.', content: HTML })
@ApiResponse({ status: 303, description: 'On to the client, the IdP or the next page.' })
@ApiResponse({ status: 400, description: 'A page naming the bad request.', content: HTML })
@ApiResponse({
  status: 401,
  description: 'The sign-in page again, the credentials refused.',
  content: HTML,
})
@ApiResponse({
  status: 403,
  description: 'A page refusing an address whose domain the tenant has not verified.',
  content: HTML,
})
@ApiResponse({ status: 429, description: 'Too many sign-in attempts (a page).', content: HTML })
@Controller('tenant-auth/v1')
export class SignInController {
  constructor(
    private readonly signIn: SignInService,
    private readonly federation: FederationService,
    private readonly consent: ConsentService,
  ) {}

  @Public()
  @Get('oauth/authorize')
  async authorize(
    @Query() query: Fields,
    @Req() req: FastifyRequest,
    @Ip() ip: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.signIn.authorize(browser(req, ip, query)));
  }

  @Public()
  @Post('oauth/authorize/password')
  async password(
    @Body() body: Fields,
    @Req() req: FastifyRequest,
    @Ip() ip: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.signIn.signInWithPassword(browser(req, ip, body)));
  }

  /** identity.md I23: a person's answer to an MCP client's request (Allow or Deny). */
  @Public()
  @Post('oauth/authorize/consent')
  async consentAnswer(
    @Body() body: Fields,
    @Req() req: FastifyRequest,
    @Ip() ip: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.consent.answer(browser(req, ip, body)));
  }

  @Public()
  @Post('oauth/authorize/federated')
  async federated(
    @Body() body: Fields,
    @Req() req: FastifyRequest,
    @Ip() ip: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.federation.start(browser(req, ip, body)));
  }

  @Public()
  @Get('identity-providers/:id/callback')
  async callback(
    @Param('id', uuidParam('id')) id: string,
    @Req() req: FastifyRequest,
    @Ip() ip: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    send(reply, await this.federation.callback(id, query, browser(req, ip, {})));
  }

  @Public()
  @Get('oauth/logout')
  async logout(
    @Query() query: Fields,
    @Req() req: FastifyRequest,
    @Ip() ip: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.signIn.signOut(browser(req, ip, query)));
  }
}

function browser(req: FastifyRequest, address: string, fields: unknown): BrowserRequest {
  return {
    cookieHeader: req.headers.cookie,
    address,
    fields: fields && typeof fields === 'object' ? (fields as Fields) : {},
  };
}

function send(reply: FastifyReply, outcome: SignInOutcome): void {
  void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
  if (outcome.cookies.length > 0) {
    void reply.header('set-cookie', outcome.cookies);
  }
  if (outcome.kind === 'redirect') {
    void reply.status(303).header('location', outcome.location).send();
    return;
  }
  void reply
    .status(outcome.status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', SIGN_IN_PAGE_CSP)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .send(outcome.html);
}
