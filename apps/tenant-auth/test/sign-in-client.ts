import { createHash, randomBytes } from 'node:crypto';

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
