import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

// Beside dist/ and src/ alike: the script is plain ESM, run by Node as it is.
const IDP_SCRIPT = join(__dirname, '..', 'assets', 'oidc-idp.mjs');

/**
 * An OpenID Connect identity provider of the test's own (assets/oidc-idp.mjs: panva's
 * oidc-provider, ESM and Koa, so in a process of its own): whoever comes to it is signed in as the
 * account last given to `signInAs`, so a test drives the redirects with HTTP or a real browser.
 */
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
    const child = spawn(process.execPath, [IDP_SCRIPT], {
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

  // Follows the provider's redirects from `url` as a browser would (with its cookies) until it
  // sends the browser back to tenant-auth; answers that address.
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
