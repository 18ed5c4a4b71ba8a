import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { Scheduler } from '@agp/jobs';
import { Logger } from 'pino';

import { TENANT_AUTH_DATABASE } from './database/tokens';
import { SigningKeysService } from './keys/signing-keys.service';
import { RECONCILE_EVERY_MS, RevocationsService } from './revocations/revocations.service';

/**
 * tenant-auth's scheduled work, each once per interval across replicas (F28): the revocation store
 * reconciled from the table every minute (identity.md I2; the store is shared, so one replica heals
 * it for all), the signing key's age checked every hour (D9). Both also run on every replica at
 * start, in their services.
 */
@Injectable()
export class TenantAuthJobs implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly scheduler: Scheduler;

  constructor(
    @Inject(TENANT_AUTH_DATABASE) database: Database,
    @Inject(ROOT_LOGGER) logger: Logger,
    revocations: RevocationsService,
    signingKeys: SigningKeysService,
  ) {
    this.scheduler = new Scheduler(database, logger);
    this.scheduler.every('tenant-auth-revocations', RECONCILE_EVERY_MS, () =>
      revocations.reconcile(),
    );
    this.scheduler.every('tenant-auth-signing-key-age', 3_600_000, () => signingKeys.rotateIfOld());
  }

  onApplicationBootstrap(): void {
    this.scheduler.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.scheduler.stop();
  }
}
