import { createHash, randomBytes } from 'node:crypto';

/**
 * A person's browser, in plain HTTP: it keeps tenant-auth's cookies and follows the sign-in page
 * and the consent page as a person would (identity.md I23), until tenant-auth redirects to the
 * client's redirect URI; that URL (with `code`, `state`, `iss`) is the answer.
 */
export class PersonBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly person: { tenant: string; email: string; password: string },
    private readonly redirectPrefix: string,
  ) {}

  /** From the authorization URL to the redirect back to the client, allowing or denying. */
  async authorize(authorizationUrl: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
    let page = await this.send('GET', authorizationUrl);
    if (page.location?.startsWith(this.redirectPrefix)) {
      return new URL(page.location);
    }
    if (/name="password"/.test(page.body)) {
      page = await this.send('POST', new URL('authorize/password', withSlash(authorizationUrl)), {
        request: field(page.body, 'request'),
        tenant: this.person.tenant,
        email: this.person.email,
        password: this.person.password,
      });
    }
    if (page.location?.startsWith(this.redirectPrefix)) {
      return new URL(page.location);
    }
    const consent = await this.send(
      'POST',
      new URL('authorize/consent', withSlash(authorizationUrl)),
      {
        request: field(page.body, 'request'),
        consent_token: field(page.body, 'consent_token'),
        decision,
      },
    );
    if (!consent.location?.startsWith(this.redirectPrefix)) {
      throw new Error(`consent answered ${consent.status}: ${consent.body.slice(0, 300)}`);
    }
    return new URL(consent.location);
  }

  private async send(
    method: 'GET' | 'POST',
    url: string | URL,
    form?: Record<string, string>,
  ): Promise<{ status: number; body: string; location?: string }> {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(this.cookies.size
          ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
          : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [name, value] = line.split(';')[0].split('=');
      if (/Max-Age=0/.test(line)) {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
    const location = response.headers.get('location') ?? undefined;
    return {
      status: response.status,
      body: await response.text(),
      ...(location ? { location: new URL(location, url).toString() } : {}),
    };
  }
}

/** `…/oauth/authorize?…` → `…/oauth/`, so `authorize/password` resolves beside it. */
function withSlash(authorizationUrl: string): string {
  const url = new URL(authorizationUrl);
  return `${url.origin}${url.pathname.replace(/authorize$/, '')}`;
}

function field(page: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]+)"`).exec(page);
  if (!match) {
    throw new Error(`no ${name} on the page: ${page.slice(0, 300)}`);
  }
  return match[1];
}

/** The PKCE pair of one authorization request (S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
