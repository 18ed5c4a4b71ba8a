import { Tx } from '@agp/database';

import { hashHandle, newHandle } from './handles';
import { renderConsentPage } from './sign-in-page';
import { AuthorizationRequestRow, SessionRow, SignInRepository } from './sign-in.repository';
import { SignInOutcome } from './sign-in.types';

/** identity.md I23: the person has signed in; the request now waits for their consent. */
export async function consentPage(
  tx: Tx,
  repository: SignInRepository,
  open: AuthorizationRequestRow,
  session: SessionRow,
  page: { action: string; clientName: string },
): Promise<SignInOutcome> {
  const consentToken = newHandle('agp_cs_');
  await repository.awaitConsent(tx, open.id, session, hashHandle(consentToken));
  const html = renderConsentPage({
    action: page.action,
    requestId: open.id,
    consentToken,
    clientName: page.clientName,
    redirectHost: new URL(open.params.redirectUri).host || open.params.redirectUri,
    resource: open.params.resource ?? '',
    scope: open.params.scope,
  });
  return { kind: 'page', status: 200, html, cookies: [] };
}
