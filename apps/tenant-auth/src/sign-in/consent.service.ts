import { timingSafeEqual } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { tokenIssuer } from '@agp/config';
import { Database } from '@agp/database';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { redirectWith } from './authorize-params';
import { REQUEST_COOKIE, clearCookie, isLoopbackUrl } from './cookies';
import { hashHandle } from './handles';
import { AuthorizationRequestRow } from './sign-in.repository';
import { SignInRepository } from './sign-in.repository';
import { SignInService, textFields } from './sign-in.service';
import { BrowserRequest, SignInOutcome } from './sign-in.types';

/** identity.md I23: the consent form's answer (RFC 6749, §4.1.2.1). */
@Injectable()
export class ConsentService {
  private readonly issuer: string;
  private readonly isSecure: boolean;

  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) env: TenantAuthEnv,
    private readonly repository: SignInRepository,
    private readonly signIn: SignInService,
  ) {
    this.issuer = tokenIssuer(env);
    this.isSecure = !isLoopbackUrl(env.PUBLIC_BASE_URL);
  }

  async answer(request: BrowserRequest): Promise<SignInOutcome> {
    const fields = textFields(request.fields, ['request', 'consent_token', 'decision']);
    const started = await this.signIn.openRequest(request.cookieHeader, fields.request);
    if (!started) {
      return this.signIn.expired();
    }
    return this.database.asSystem(async (tx) => {
      const open = await this.repository.findOpenRequest(tx, started.id);
      if (!open || !isTokenRight(open, fields.consent_token)) {
        return this.signIn.message(
          400,
          'Consent refused',
          'This consent page has expired or was not shown to you. Start again from your application.',
        );
      }
      const cleared = [clearCookie(REQUEST_COOKIE, this.isSecure)];
      if (fields.decision !== 'allow') {
        await this.repository.abandon(tx, open.id);
        const location = redirectWith(open.params.redirectUri, {
          error: 'access_denied',
          error_description: 'the person did not allow access',
          state: open.params.state,
          iss: this.issuer,
        });
        return this.signIn.redirect(location, cleared);
      }
      const who = open.awaitingConsent!.who;
      return this.signIn.issueCode(tx, open, { ...who, identityProviderId: null }, []);
    });
  }
}

function isTokenRight(open: AuthorizationRequestRow, token: string): boolean {
  if (!open.awaitingConsent || !token) {
    return false;
  }
  const given = Buffer.from(hashHandle(token));
  const stored = Buffer.from(open.awaitingConsent.consentHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}
