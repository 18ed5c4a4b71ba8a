import { schedulerProvider } from '@agp/jobs';

import { TENANT_AUTH_DATABASE } from './database/tokens';
import { SigningKeysService } from './keys/signing-keys.service';
import { RECONCILE_EVERY_MS, RevocationsService } from './revocations/revocations.service';

/**
 * tenant-auth's scheduled work, each once per interval across replicas (F30): the revocation store
 * reconciled from the table every minute (identity.md I2; the store is shared, so one replica heals
 * it for all), the signing key's age checked every hour (D9). Both also run on every replica at
 * start, in their services.
 */
export const tenantAuthJobs = schedulerProvider({
  provide: Symbol.for('agp:tenant-auth:jobs'),
  database: TENANT_AUTH_DATABASE,
  inject: [RevocationsService, SigningKeysService],
  jobs: (revocations: RevocationsService, signingKeys: SigningKeysService) => [
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
  ],
});
