import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { AUDIT_DATABASE } from '../database/tokens';
import { canonicalJson } from './canonical-json';
import { CheckpointHead } from './checkpoint.types';
import { CheckpointsRepository } from './checkpoints.repository';
import { SigningKeysService } from './signing-keys.service';

function sameHeads(a: CheckpointHead[] | undefined, b: CheckpointHead[]): boolean {
  return a !== undefined && canonicalJson(a) === canonicalJson(b);
}

/** Every few minutes, a signed checkpoint per tenant whose chains moved (issue 5, item 5). */
@Injectable()
export class CheckpointsService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(CheckpointsRepository) private readonly repository: CheckpointsRepository,
    @Inject(SigningKeysService) private readonly keys: SigningKeysService,
  ) {}

  /** Returns how many checkpoints were made (one replica at a time: `auditJobs`, F30). */
  async createCheckpoints(now = new Date()): Promise<number> {
    await this.keys.prepare();
    return this.database.asSystem(async (tx) => {
      const heads = await this.repository.allHeads(tx);
      const previous = await this.repository.latestHeadsPerTenant(tx);
      let count = 0;
      for (const [tenantId, tenantHeads] of heads) {
        if (sameHeads(previous.get(tenantId), tenantHeads)) {
          continue;
        }
        const id = randomUUID();
        const createdAt = now.toISOString();
        const { kid, jws } = await this.keys.sign({
          checkpointId: id,
          tenantId,
          createdAt,
          heads: tenantHeads,
        });
        await this.repository.insert(tx, { id, tenantId, createdAt, kid, heads: tenantHeads, jws });
        count += 1;
      }
      return count;
    });
  }
}
