import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { changedFields } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { EventOutbox } from '@agp/messaging';

import { AUDIT_DATABASE, AUDIT_OUTBOX } from '../database/tokens';
import { UpdateRetentionDto } from './dto/update-retention.dto';
import { RetentionRepository, withDefaults } from './retention.repository';
import { RetentionPolicy } from './retention.types';

/** `GET`/`PUT /audit/v1/retention` (issue 5, item 6). */
@Injectable()
export class RetentionService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(RetentionRepository) private readonly repository: RetentionRepository,
    @Inject(AUDIT_OUTBOX) private readonly outbox: EventOutbox,
  ) {}

  get(tenantId: string): Promise<RetentionPolicy> {
    return this.database.inTenant(tenantId, (tx) => this.repository.find(tx, tenantId));
  }

  /** The change and its RETENTION_POLICY_CHANGED audit event commit together (D5). */
  update(ctx: RequestContext, dto: UpdateRetentionDto): Promise<RetentionPolicy> {
    const { tenantId } = ctx;
    return this.database.inTenant(tenantId, async (tx) => {
      const before = await this.repository.find(tx, tenantId, true);
      const after = await this.repository.save(
        tx,
        tenantId,
        withDefaults({ ...dto.days }),
        dto.captureContent ?? before.captureContent,
      );
      await this.outbox.add(tx, 'RETENTION_POLICY_CHANGED', eventContext(ctx), {
        actor: actorOf(ctx),
        protocol: 'REST',
        summary: 'audit retention policy changed',
        details: {
          before: { days: before.days, captureContent: before.captureContent },
          after: { days: after.days, captureContent: after.captureContent },
          // D42: the changed fields, as every administrative change records them.
          ...changedFields({
            target: { kind: 'RETENTION_POLICY', id: tenantId },
            before: { days: before.days, captureContent: before.captureContent },
            after: { days: after.days, captureContent: after.captureContent },
          }),
        },
      });
      return after;
    });
  }
}
