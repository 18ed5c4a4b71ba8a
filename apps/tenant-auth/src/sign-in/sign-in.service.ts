import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { apiAudience, tokenIssuer } from '@agp/config';
import { Database, Tx } from '@agp/database';

import { TENANT_AUTH_ENV, TenantAuthEnv } from '../config/tenant-auth.env';
import { TENANT_AUTH_DATABASE } from '../database/tokens';
import { OAuthClients } from '../mcp-clients/oauth-clients';
import { TenantsRepository } from '../tenants/tenants.repository';
import { LocalUsers } from '../tokens/local-users';
import { TokenRateLimiter } from '../tokens/token-rate-limiter';
import { AuthorizeParams, parseAuthorize, redirectWith } from './authorize-params';
import { BrowserClient, browserClients } from './browser-clients';
import { consentPage } from './consent-page';
import {
  REQUEST_COOKIE,
  SESSION_COOKIE,
  clearCookie,
  isLoopbackUrl,
  readCookie,
  serializeCookie,
} from './cookies';
import { hashHandle, newHandle } from './handles';
import { renderMessagePage, renderSignInPage } from './sign-in-page';
import { AuthorizationRequestRow, SessionRow, SignInRepository } from './sign-in.repository';
import { BrowserRequest, SignInOutcome } from './sign-in.types';

/** I14: an authorization request is open for ten minutes; its code for one. */
const REQUEST_TTL_SEC = 600;
const CODE_TTL_SEC = 60;
const BAD_USER = 'The organisation, e-mail or password is wrong.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface SignedInUser {
  tenantId: string;
  userId: string;
  identityProviderId: string | null;
}

/** Browser sign-in at tenant-auth (identity.md I14–I15). */
@Injectable()
export class SignInService {
  private readonly clients: ReadonlyMap<string, BrowserClient>;
  private readonly issuer: string;
  private readonly isSecure: boolean;
  /** I22: a person's MCP client asks for `{base_url}/relay/mcp/{serverId}`. */
  private readonly mcpResourcePrefix: string;

  constructor(
    @Inject(TENANT_AUTH_DATABASE) private readonly database: Database,
    @Inject(TENANT_AUTH_ENV) private readonly env: TenantAuthEnv,
    private readonly repository: SignInRepository,
    private readonly tenants: TenantsRepository,
    private readonly localUsers: LocalUsers,
    private readonly limiter: TokenRateLimiter,
    private readonly oauthClients: OAuthClients,
  ) {
    this.clients = browserClients(env);
    this.issuer = tokenIssuer(env);
    this.mcpResourcePrefix = `${apiAudience(env).replace(/\/+$/, '')}/relay/mcp/`;
    this.isSecure = !isLoopbackUrl(env.PUBLIC_BASE_URL);
  }

  /** GET /oauth/authorize. */
  async authorize(request: BrowserRequest): Promise<SignInOutcome> {
    const clientId = request.fields.client_id;
    // I21: the console, a client ID metadata document (fetched now) or a registered client.
    const found = typeof clientId === 'string' ? await this.oauthClients.find(clientId) : null;
    if (found && 'refused' in found) {
      return this.message(400, 'Sign-in request refused', found.refused);
    }
    const known = found && 'client' in found ? [found.client] : [];
    const parsed = parseAuthorize(
      request.fields,
      new Map(known.map((c) => [c.id, c])),
      this.mcpResourcePrefix,
    );
    if (parsed.kind === 'page-error') {
      return this.message(400, 'Sign-in request refused', parsed.description);
    }
    if (parsed.kind === 'redirect-error') {
      const { redirectUri, state, error, description } = parsed;
      return this.redirect(
        redirectWith(redirectUri, {
          error,
          error_description: description,
          state,
          iss: this.issuer,
        }),
      );
    }
    const params = parsed.params;
    const session = await this.currentSession(request.cookieHeader);
    const requestId = randomUUID();
    // Each request stores a row before anyone signs in: counted per address like the token
    // endpoint (I6), and old rows go on the way.
    const limited = await this.database.asSystem(async (tx) => {
      const problem = await this.limiter.count(tx, [
        { key: `authorize:${request.address}`, limit: this.env.TOKEN_RATE_LIMIT_PER_ADDRESS },
      ]);
      if (!problem) {
        await this.repository.pruneExpired(tx);
        await this.repository.insertRequest(tx, requestId, params, this.inSeconds(REQUEST_TTL_SEC));
      }
      return problem;
    });
    if (limited) {
      return this.message(429, 'Too many sign-in attempts', 'Wait a minute and try again.');
    }
    if (session && params.prompt !== 'login' && (await this.isHintFor(params, session))) {
      // I15: a browser already signed in here is answered at once (single sign-on, silent renewal).
      return this.database.asSystem(async (tx) => {
        const open = await this.repository.findOpenRequest(tx, requestId);
        return this.answer(tx, open!, session, [], known[0]);
      });
    }
    if (params.prompt === 'none') {
      return this.redirect(
        redirectWith(params.redirectUri, {
          error: 'login_required',
          state: params.state,
          iss: this.issuer,
        }),
      );
    }
    return this.signInPage(200, requestId, params.tenantHint ?? '', '', undefined, [
      serializeCookie(REQUEST_COOKIE, requestId, {
        maxAgeSec: REQUEST_TTL_SEC,
        isSecure: this.isSecure,
      }),
    ]);
  }

  /** POST /oauth/authorize/password: the local user's form. */
  async signInWithPassword(request: BrowserRequest): Promise<SignInOutcome> {
    const fields = textFields(request.fields, ['request', 'tenant', 'email', 'password']);
    const open = await this.openRequest(request.cookieHeader, fields.request);
    if (!open) {
      return this.expired();
    }
    const answer = await this.localUsers.signIn(
      fields.tenant,
      fields.email,
      fields.password,
      request.address,
    );
    if (answer.kind !== 'signed-in') {
      const status = answer.kind === 'limited' ? 429 : 401;
      const error =
        answer.kind === 'limited' ? 'Too many attempts; wait a minute and try again.' : BAD_USER;
      return this.signInPage(status, open.id, fields.tenant, fields.email, error);
    }
    return this.complete(open.id, { ...answer.user, identityProviderId: null });
  }

  /** Ends the sign-in of the request `requestId` for `user`. */
  async complete(requestId: string, user: SignedInUser): Promise<SignInOutcome> {
    const handle = newHandle('agp_ss_');
    const session: SessionRow = {
      sessionId: randomUUID(),
      tenantId: user.tenantId,
      userId: user.userId,
      identityProviderId: user.identityProviderId,
      authTime: new Date(),
    };
    return this.database.asSystem(async (tx) => {
      const open = await this.repository.findOpenRequest(tx, requestId);
      if (!open) {
        return this.expired();
      }
      await this.repository.insertSession(
        tx,
        hashHandle(handle),
        session,
        this.inSeconds(this.env.SIGN_IN_SESSION_TTL_SEC),
      );
      const cookie = serializeCookie(SESSION_COOKIE, handle, {
        maxAgeSec: this.env.SIGN_IN_SESSION_TTL_SEC,
        isSecure: this.isSecure,
      });
      return this.answer(tx, open, session, [cookie]);
    });
  }

  /** GET /oauth/logout (RP-initiated logout): the session and its refresh tokens end here. */
  async signOut(request: BrowserRequest): Promise<SignInOutcome> {
    const handle = readCookie(request.cookieHeader, SESSION_COOKIE);
    if (handle) {
      await this.database.asSystem(async (tx) => {
        const session = await this.repository.findSession(tx, hashHandle(handle));
        if (session) {
          await this.repository.removeSession(tx, session.sessionId);
        }
      });
    }
    const cleared = [clearCookie(SESSION_COOKIE, this.isSecure)];
    const target = request.fields.post_logout_redirect_uri;
    const clientId = request.fields.client_id;
    const client = typeof clientId === 'string' ? this.clients.get(clientId) : undefined;
    if (typeof target === 'string' && client?.postLogoutRedirectUris.has(target)) {
      const state = typeof request.fields.state === 'string' ? request.fields.state : null;
      return this.redirect(redirectWith(target, { state }), cleared);
    }
    return { ...this.message(200, 'Signed out', 'You are signed out.'), cookies: cleared };
  }

  /** The open request the form names, only if this browser started it (its request cookie). */
  async openRequest(
    cookieHeader: string | undefined,
    requestId: string,
  ): Promise<AuthorizationRequestRow | null> {
    if (!UUID.test(requestId) || readCookie(cookieHeader, REQUEST_COOKIE) !== requestId) {
      return null;
    }
    return this.database.asSystem((tx) => this.repository.findOpenRequest(tx, requestId));
  }

  signInPage(
    status: number,
    requestId: string,
    tenant: string,
    email: string,
    error?: string,
    cookies: string[] = [],
  ): SignInOutcome {
    const action = `${new URL(this.issuer).pathname}/oauth/authorize`;
    const html = renderSignInPage({ action, requestId, tenant, email, error });
    return { kind: 'page', status, html, cookies };
  }

  message(status: number, title: string, text: string): SignInOutcome {
    return { kind: 'page', status, html: renderMessagePage(title, text), cookies: [] };
  }

  expired(): SignInOutcome {
    return this.message(
      400,
      'Sign-in expired',
      'This sign-in page has expired or was opened in another browser. Go back to the console and sign in again.',
    );
  }

  /** A signed-in person's answer to the client (I14, I23). */
  private async answer(
    tx: Tx,
    open: AuthorizationRequestRow,
    session: SessionRow,
    cookies: string[],
    client?: BrowserClient,
  ): Promise<SignInOutcome> {
    if (!open.params.resource) {
      return this.issueCode(tx, open, session, cookies);
    }
    const found = client ? { client } : await this.oauthClients.find(open.params.clientId);
    const page = await consentPage(tx, this.repository, open, session, {
      action: `${new URL(this.issuer).pathname}/oauth/authorize/consent`,
      clientName: ('client' in found ? found.client.name : undefined) ?? open.params.clientId,
    });
    return { ...page, cookies };
  }

  /** The code for the person who signed in; the redirect back to the client with it and `iss`. */
  async issueCode(
    tx: Tx,
    open: AuthorizationRequestRow,
    session: SessionRow,
    cookies: string[],
  ): Promise<SignInOutcome> {
    const code = newHandle('agp_ac_');
    await this.repository.complete(
      tx,
      open.id,
      hashHandle(code),
      session,
      this.inSeconds(CODE_TTL_SEC),
    );
    const location = redirectWith(open.params.redirectUri, {
      code,
      state: open.params.state,
      iss: this.issuer,
    });
    return this.redirect(location, [...cookies, clearCookie(REQUEST_COOKIE, this.isSecure)]);
  }

  private async currentSession(cookieHeader: string | undefined): Promise<SessionRow | null> {
    const handle = readCookie(cookieHeader, SESSION_COOKIE);
    if (!handle) {
      return null;
    }
    const session = await this.database.asSystem((tx) =>
      this.repository.findSession(tx, hashHandle(handle)),
    );
    // A disabled user or suspended tenant has no session any more (I2).
    return session && (await this.localUsers.current(session.tenantId, session.userId))
      ? session
      : null;
  }

  /** A tenant hint other than the session's tenant asks for a new sign-in. */
  private async isHintFor(params: AuthorizeParams, session: SessionRow): Promise<boolean> {
    if (!params.tenantHint) {
      return true;
    }
    const tenant = await this.database.asSystem((tx) =>
      this.tenants.findBySlugOrId(tx, params.tenantHint!),
    );
    return tenant?.id === session.tenantId;
  }

  redirect(location: string, cookies: string[] = []): SignInOutcome {
    return { kind: 'redirect', location, cookies };
  }

  private inSeconds(seconds: number): Date {
    return new Date(Date.now() + seconds * 1000);
  }
}

/** The named form fields as strings (a missing or repeated one is empty: the page asks again). */
export function textFields<K extends string>(
  fields: Record<string, unknown>,
  names: readonly K[],
): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const name of names) {
    const value = fields[name];
    const text = typeof value === 'string' ? value.slice(0, 500) : '';
    // A password is taken as typed; everything else without stray blanks.
    out[name] = name === 'password' ? text : text.trim();
  }
  return out;
}
