import { createHash } from 'node:crypto';

/** identity.md I15: the sign-in pages are plain HTML forms rendered here, with no script at all. */
const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f1f3f5; color: #1a1b1e; }
  main { background: #fff; padding: 2rem 2.25rem; border-radius: 10px; width: min(24rem, 92vw);
         box-shadow: 0 1px 3px rgba(0,0,0,.12), 0 8px 24px rgba(0,0,0,.06); }
  h1 { font-size: 1.35rem; margin: 0 0 .25rem; } p.sub { margin: 0 0 1.25rem; color: #495057; }
  label { display: block; font-weight: 600; font-size: .9rem; margin: .9rem 0 .3rem; }
  input { box-sizing: border-box; width: 100%; padding: .6rem .7rem; font: inherit; border: 1px solid #868e96; border-radius: 6px; }
  input:focus-visible, button:focus-visible { outline: 3px solid #1c7ed6; outline-offset: 2px; }
  button { margin-top: 1.2rem; width: 100%; padding: .65rem; font: inherit; font-weight: 600; border-radius: 6px; cursor: pointer; }
  button.primary { background: #1864ab; color: #fff; border: 0; }
  button.secondary { background: #fff; color: #1864ab; border: 1px solid #1864ab; }
  .error { background: #fff5f5; color: #a51111; border: 1px solid #ffa8a8; border-radius: 6px; padding: .6rem .75rem; margin-bottom: .5rem; }
  .or { text-align: center; color: #495057; margin: 1.4rem 0 0; font-size: .9rem; }
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

export const SIGN_IN_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_HASH}'`,
  "script-src 'none'",
  "img-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · Agent Governance Platform</title>
<style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export interface SignInPageModel {
  /** The path the forms post to: `<issuer path>/oauth/authorize`. */
  action: string;
  requestId: string;
  tenant: string;
  email: string;
  error?: string;
}

export function renderSignInPage(model: SignInPageModel): string {
  const tenant = escapeHtml(model.tenant);
  const email = escapeHtml(model.email);
  const request = escapeHtml(model.requestId);
  const error = model.error
    ? `<div class="error" role="alert">${escapeHtml(model.error)}</div>`
    : '';
  return layout(
    'Sign in',
    `<h1>Sign in</h1><p class="sub">Agent Governance Platform console</p>${error}
<form method="post" action="${escapeHtml(model.action)}/password">
  <input type="hidden" name="request" value="${request}">
  <label for="tenant">Organisation</label>
  <input id="tenant" name="tenant" value="${tenant}" autocomplete="organization" required autocapitalize="none" spellcheck="false">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" value="${email}" autocomplete="username" required>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button class="primary" type="submit">Sign in</button>
</form>
<p class="or">or, if your organisation signs in with its identity provider</p>
<form method="post" action="${escapeHtml(model.action)}/federated">
  <input type="hidden" name="request" value="${request}">
  <label for="sso-tenant">Organisation</label>
  <input id="sso-tenant" name="tenant" value="${tenant}" autocomplete="organization" required autocapitalize="none" spellcheck="false">
  <label for="sso-email">Work e-mail</label>
  <input id="sso-email" name="email" type="email" value="${email}" autocomplete="username" required>
  <button class="secondary" type="submit">Continue with your identity provider</button>
</form>`,
  );
}

export function renderMessagePage(title: string, message: string): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="sub" role="status">${escapeHtml(message)}</p>`,
  );
}

export interface ConsentPageModel {
  /** The path the form posts to: `<issuer path>/oauth/authorize/consent`. */
  action: string;
  requestId: string;
  /** I23: proves the answer comes from this page (stored hashed on the request). */
  consentToken: string;
  clientName: string;
  /** Where the client sends the code: shown, since a client's name proves nothing. */
  redirectHost: string;
  resource: string;
  scope: string;
}

/** identity.md I23: a person's own MCP client asks to call one MCP server as them. */
export function renderConsentPage(model: ConsentPageModel): string {
  const hidden = `<input type="hidden" name="request" value="${escapeHtml(model.requestId)}">
  <input type="hidden" name="consent_token" value="${escapeHtml(model.consentToken)}">`;
  const stays = model.scope.split(' ').includes('offline_access')
    ? '<p class="sub">It will stay connected until you sign out or the grant ends.</p>'
    : '';
  return layout(
    'Allow access',
    `<h1>Allow access?</h1>
<p class="sub"><strong>${escapeHtml(model.clientName)}</strong> (returning to ${escapeHtml(model.redirectHost)}) wants to call the MCP server at</p>
<p><code>${escapeHtml(model.resource)}</code></p>
<p class="sub">as you, under your organisation's policies; every call is audited.</p>${stays}
<form method="post" action="${escapeHtml(model.action)}">
  ${hidden}
  <button class="primary" type="submit" name="decision" value="allow">Allow</button>
  <button class="secondary" type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}
