import * as oauth from 'oauth4webapi';

/**
 * Browser sign-in against tenant-auth (identity.md I14–I16): authorization code with PKCE through
 * oauth4webapi. Tokens live in this module's memory only, never in web storage; a reload signs in
 * again through tenant-auth's session cookie without a prompt. Only the PKCE verifier, state and
 * nonce of a sign-in under way wait in sessionStorage, for the return from the sign-in page.
 */
const CLIENT: oauth.Client = { client_id: 'agp-console', token_endpoint_auth_method: 'none' };
const PENDING_KEY = 'agp.sign-in';
/** Where a sign-in whose code is being traded returns to, kept until it is done. */
const RETURNING_KEY = 'agp.sign-in.return';
const ISSUER = new URL('/tenant-auth/v1', window.location.origin);
const REDIRECT_URI = `${window.location.origin}/auth/callback`;
// Plain http only where the console itself is on plain http (localhost, the embedded default).
const HTTP_OPTIONS = { [oauth.allowInsecureRequests]: window.location.protocol === 'http:' };

interface Pending {
  verifier: string;
  state: string;
  nonce: string;
  returnTo: string;
}

interface Tokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt: number;
}

let server: Promise<oauth.AuthorizationServer> | undefined;
let tokens: Tokens | undefined;
let refreshing: Promise<void> | undefined;

function authorizationServer(): Promise<oauth.AuthorizationServer> {
  // The document is fetched from this origin and names the issuer as tenant-auth's
  // PUBLIC_BASE_URL does; that name is what `iss` and the tokens are checked against.
  server ??= oauth.discoveryRequest(ISSUER, HTTP_OPTIONS).then(async (response) => {
    const { issuer } = (await response.clone().json()) as { issuer: string };
    return oauth.processDiscoveryResponse(new URL(issuer), response);
  });
  return server;
}

/** Sends the browser to tenant-auth's sign-in. */
export async function signIn(
  returnTo = window.location.pathname + window.location.search,
): Promise<never> {
  const as = await authorizationServer();
  const pending: Pending = {
    verifier: oauth.generateRandomCodeVerifier(),
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    returnTo: returnTo.startsWith('/auth/') ? '/' : returnTo,
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: CLIENT.client_id,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid svc:api offline_access',
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
  }).toString();
  window.location.assign(url.toString());
  return new Promise<never>(() => undefined);
}

/** On /auth/callback: checks state, trades the code (PKCE) and checks the ID token's nonce. */
export async function completeSignIn(currentUrl: URL): Promise<string> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as Pending | null;
  sessionStorage.removeItem(PENDING_KEY);
  if (!pending) {
    // This return was already used: the callback reloaded while its code was being traded, or
    // opened again from history. A code is good once, so a fresh sign-in (its own state, nonce and
    // verifier) replaces it, back to the page the first one was for; no dead end on a reload.
    return signIn(sessionStorage.getItem(RETURNING_KEY) ?? '/');
  }
  sessionStorage.setItem(RETURNING_KEY, pending.returnTo);
  const as = await authorizationServer();
  const params = oauth.validateAuthResponse(as, CLIENT, currentUrl, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    CLIENT,
    oauth.None(),
    params,
    REDIRECT_URI,
    pending.verifier,
    HTTP_OPTIONS,
  );
  const result = await oauth.processAuthorizationCodeResponse(as, CLIENT, response, {
    expectedNonce: pending.nonce,
    requireIdToken: true,
  });
  keep(result);
  sessionStorage.removeItem(RETURNING_KEY);
  return pending.returnTo;
}

function keep(result: oauth.TokenEndpointResponse): void {
  tokens = {
    accessToken: result.access_token,
    refreshToken: result.refresh_token ?? tokens?.refreshToken,
    expiresAt: Date.now() + (result.expires_in ?? 900) * 1000,
  };
}

/** A valid access token, refreshed (with rotation, I16) a minute before it expires. */
export async function accessToken(): Promise<string> {
  if (!tokens) {
    return signIn();
  }
  if (tokens.expiresAt - Date.now() < 60_000) {
    refreshing ??= refresh().finally(() => {
      refreshing = undefined;
    });
    await refreshing;
  }
  return tokens.accessToken;
}

async function refresh(): Promise<void> {
  const as = await authorizationServer();
  if (!tokens?.refreshToken) {
    await signIn();
    return;
  }
  try {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      CLIENT,
      oauth.None(),
      tokens.refreshToken,
      HTTP_OPTIONS,
    );
    keep(await oauth.processRefreshTokenResponse(as, CLIENT, response));
  } catch {
    tokens = undefined;
    await signIn();
  }
}

/** The signed-in user's tenant: the access token's `tid` (read, not verified: the API verifies). */
export function currentTenantId(): string | undefined {
  const payload = tokens?.accessToken.split('.')[1];
  if (!payload) {
    return undefined;
  }
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return (JSON.parse(json) as { tid?: string }).tid;
}

export function isSignedIn(): boolean {
  return tokens !== undefined;
}

/** Ends the session at tenant-auth (and its refresh tokens), then comes back to the console. */
export async function signOut(): Promise<void> {
  const as = await authorizationServer();
  tokens = undefined;
  const url = new URL(as.end_session_endpoint!);
  url.search = new URLSearchParams({
    client_id: CLIENT.client_id,
    post_logout_redirect_uri: `${window.location.origin}/`,
  }).toString();
  window.location.assign(url.toString());
}
