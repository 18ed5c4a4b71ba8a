// An OpenID Connect identity provider of the test's own: panva's oidc-provider, in its own process
// (it is ESM and Koa; tenant-auth meets it over HTTP only, as it would Okta or Entra). Whoever
// comes to its authorization endpoint is signed in at once as the account last set through
// POST /test/account, so a test drives the whole redirect dance with plain HTTP.
//   IDP_CLIENT_ID, IDP_CLIENT_SECRET, IDP_REDIRECT_URIS (comma-separated); prints `listening <port>`.
import { createServer } from 'node:http';

import Provider from 'oidc-provider';

let account = {
  sub: 'upstream-user',
  email: 'user@example.org',
  email_verified: true,
  name: 'User',
  groups: [],
};
let provider;

const server = createServer(async (req, res) => {
  try {
    if (req.method === 'POST' && req.url === '/test/account') {
      let body = '';
      for await (const chunk of req) body += chunk;
      account = JSON.parse(body);
      res.writeHead(204).end();
      return;
    }
    if (req.url.startsWith('/interaction/')) {
      const details = await provider.interactionDetails(req, res);
      const result =
        details.prompt.name === 'login'
          ? { login: { accountId: account.sub } }
          : { consent: { grantId: await grantFor(details) } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
      return;
    }
    provider.callback()(req, res);
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});

async function grantFor(details) {
  const grant = new provider.Grant({
    accountId: details.session.accountId,
    clientId: details.params.client_id,
  });
  grant.addOIDCScope(String(details.params.scope));
  return grant.save();
}

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  provider = new Provider(`http://127.0.0.1:${port}`, {
    clients: [
      {
        client_id: process.env.IDP_CLIENT_ID,
        client_secret: process.env.IDP_CLIENT_SECRET,
        redirect_uris: process.env.IDP_REDIRECT_URIS.split(','),
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      groups: ['groups'],
    },
    scopes: ['openid', 'email', 'profile', 'groups'],
    // The claims go in the ID token itself, which is all tenant-auth reads (identity.md I17).
    conformIdTokenClaims: false,
    cookies: { keys: ['test-idp-cookie-key'] },
    pkce: { required: () => true },
    findAccount: (_ctx, sub) =>
      sub === account.sub ? { accountId: sub, claims: () => ({ ...account, sub }) } : undefined,
  });
  process.stdout.write(`listening ${port}\n`);
});
