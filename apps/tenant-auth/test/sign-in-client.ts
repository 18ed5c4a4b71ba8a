import { ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';

import { TenantAuthHarness, randomAddress } from './tenant-auth-harness';

export const CONSOLE_REDIRECT = 'http://agp.test/auth/callback';
const AUTHORIZE = '/tenant-auth/v1/oauth/authorize';

/** A browser of the test's own: its cookies for tenant-auth, and the PKCE pair of its request. */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  readonly verifier = randomBytes(32).toString('base64url');
  readonly challenge = createHash('sha256').update(this.verifier).digest('base64url');
  private readonly address = randomAddress();

  constructor(private readonly harness: TenantAuthHarness) {}

  authorizeUrl(extra: Record<string, string> = {}): string {
    const params = new URLSearchParams({
      client_id: 'agp-console',
      redirect_uri: CONSOLE_REDIRECT,
      response_type: 'code',
      scope: 'openid svc:api offline_access',
      state: 'state-1',
      nonce: 'nonce-1',
      code_challenge: this.challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    return `${AUTHORIZE}?${params.toString()}`;
  }

  async get(url: string): Promise<Answer> {
    return this.send('GET', url);
  }

  async post(url: string, form: Record<string, string>): Promise<Answer> {
    return this.send('POST', url, new URLSearchParams(form).toString());
  }

  private async send(method: 'GET' | 'POST', url: string, payload?: string): Promise<Answer> {
    const response = await this.harness.app.inject({
      method,
      url,
      headers: {
        'x-forwarded-for': this.address,
        ...(payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(this.cookies.size
          ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
          : {}),
      },
      ...(payload ? { payload } : {}),
    });
    const setCookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const [name, value] = pair.split('=');
      if (/Max-Age=0/.test(line)) {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
    const location = response.headers.location;
    return {
      status: response.statusCode,
      body: response.body,
      location,
      setCookies,
      headers: response.headers,
    };
  }

  /** The request id the sign-in page's forms carry. */
  static requestIdOf(page: string): string {
    return /name="request" value="([^"]+)"/.exec(page)![1];
  }
}

export interface Answer {
  status: number;
  body: string;
  location?: string;
  setCookies: string[];
  headers: Record<string, unknown>;
}

export function codeOf(location: string | undefined): string {
  const url = new URL(location!);
  return url.searchParams.get('code')!;
}

/** The test's identity provider (test/oidc-idp.mjs) in a process of its own. */
export class TestIdentityProvider {
  private constructor(
    private readonly child: ChildProcess,
    readonly issuer: string,
  ) {}

  static async start(
    clientId: string,
    clientSecret: string,
    redirectUri: string,
  ): Promise<TestIdentityProvider> {
    const child = spawn(process.execPath, [join(__dirname, 'oidc-idp.mjs')], {
      env: {
        ...process.env,
        IDP_CLIENT_ID: clientId,
        IDP_CLIENT_SECRET: clientSecret,
        IDP_REDIRECT_URIS: redirectUri,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(child.stdout, 'data')) as Buffer[];
    const port = /listening (\d+)/.exec(line.toString())![1];
    return new TestIdentityProvider(child, `http://127.0.0.1:${port}`);
  }

  async signInAs(account: Record<string, unknown>): Promise<void> {
    await fetch(`${this.issuer}/test/account`, { method: 'POST', body: JSON.stringify(account) });
  }

  /**
   * Follows the provider's redirects from `url` as a browser would (with its cookies) until it
   * sends the browser back to tenant-auth; answers that address.
   */
  async follow(url: string): Promise<string> {
    const jar = new Map<string, string>();
    let next = url;
    for (let hop = 0; hop < 10; hop += 1) {
      if (!next.startsWith(this.issuer)) {
        return next;
      }
      const response = await fetch(next, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      next = new URL(response.headers.get('location')!, next).toString();
    }
    throw new Error('the identity provider did not send the browser back');
  }

  async stop(): Promise<void> {
    this.child.kill();
    await once(this.child, 'exit');
  }
}
