import { randomUUID } from 'node:crypto';

import { api, token } from '../mcp/bench-platform';

/**
 * A person of the bench tenant (D43): created with a password, subscribed to `agentId`
 * (USER_TO_AGENT, once the relay has heard of them), signed in with the password grant: the
 * token the console holds (D56).
 */
export async function arrangePerson(
  gateway: string,
  adminToken: string,
  agentId: string,
): Promise<string> {
  const email = `person-${randomUUID().slice(0, 8)}@bench.example`;
  const password = `Pw-${randomUUID()}`;
  const user = await api<{ id: string }>(gateway, adminToken, 'POST', '/tenant-auth/v1/users', {
    email,
    displayName: 'Bench Person',
    password,
  });
  for (let i = 0; ; i += 1) {
    try {
      await api(gateway, adminToken, 'POST', '/relay/v1/subscriptions', {
        kind: 'USER_TO_AGENT',
        sourceId: user.id,
        targetId: agentId,
      });
      break;
    } catch (error) {
      if (i > 200) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return token(gateway, { grant_type: 'password', tenant: 'bench', username: email, password });
}
