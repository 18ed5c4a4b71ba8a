import { schedulerProvider } from '@agp/jobs';

import { TENANT_AUTH_DATABASE } from './database/tokens';
import { OAuthClients } from './mcp-clients/oauth-clients';
import { SigningKeysService } from './keys/signing-keys.service';
import { RECONCILE_EVERY_MS, RevocationsService } from './revocations/revocations.service';

/** Both also run on every replica at start, in their services (F30, I2, D9). */
export const tenantAuthJobs = schedulerProvider({
  provide: Symbol.for('agp:tenant-auth:jobs'),
  database: TENANT_AUTH_DATABASE,
  inject: [RevocationsService, SigningKeysService, OAuthClients],
  jobs: (
    revocations: RevocationsService,
    signingKeys: SigningKeysService,
    clients: OAuthClients,
  ) => [
    {
      name: 'tenant-auth-revocations',
      intervalMs: RECONCILE_EVERY_MS,
      work: () => revocations.reconcile(),
    },
    {
      name: 'tenant-auth-signing-key-age',
      intervalMs: 3_600_000,
      work: () => signingKeys.rotateIfOld(),
    },
    {
      name: 'tenant-auth-registered-clients',
      intervalMs: 3_600_000,
      work: async () => {
        await clients.pruneIdleRegistrations();
      },
    },
  ],
});
