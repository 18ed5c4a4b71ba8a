import { Inject, Injectable } from '@nestjs/common';
import { changedFields } from '@agp/admin-changes';
import { EventParty, GovernanceChange } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_OUTBOX } from '../database/tokens';
import { GovernanceRecordRow, snapshotOf } from './governance-snapshot';
import { GovernanceRepository } from './governance.repository';
import { RiskTier } from './risk-tiers';

export interface ChangeContext {
  tenantId: string;
  correlationId: string;
  actor: EventParty;
}

/** Issue 17, D5: the whole state after, since the audit's governance detectors live on it alone. */
@Injectable()
export class GovernanceEvents {
  constructor(
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly repository: GovernanceRepository,
  ) {}

  async recordChange(
    tx: Tx,
    context: ChangeContext,
    change: GovernanceChange,
    tiers: readonly RiskTier[],
    record: GovernanceRecordRow,
    summary: string,
    extra: Record<string, unknown> = {},
    isDeleted = false,
    values?: { before?: GovernanceRecordRow; after?: GovernanceRecordRow },
  ): Promise<void> {
    const attested = await this.repository.latestAttestedAt(tx, context.tenantId, [record.id]);
    const incidents = await this.repository.openIncidents(tx, context.tenantId, [record.id]);
    const snapshot = snapshotOf(
      tiers,
      record,
      attested.get(record.id),
      isDeleted ? [] : (incidents.get(record.id) ?? []),
      isDeleted,
    );
    await this.outbox.add(
      tx,
      'GOVERNANCE_LIFECYCLE',
      { tenantId: context.tenantId, correlationId: context.correlationId },
      {
        actor: context.actor,
        sink: { type: record.subjectType, id: record.subjectId, label: record.subjectName },
        summary: `${record.subjectType} ${record.subjectName}: ${summary}`,
        details: {
          change,
          recordId: record.id,
          ...extra,
          // D42: the record's changed fields, when the change is an administrator's edit.
          ...(values
            ? changedFields({
                target: { kind: 'GOVERNANCE_RECORD', id: record.id, name: record.subjectName },
                ignore: ['revision'],
                ...values,
              })
            : {}),
        },
        change,
        record: snapshot,
      },
    );
  }

  async recordTiersChanged(
    tx: Tx,
    context: ChangeContext,
    before: readonly RiskTier[],
    tiers: readonly RiskTier[],
  ): Promise<void> {
    await this.outbox.add(
      tx,
      'GOVERNANCE_LIFECYCLE',
      { tenantId: context.tenantId, correlationId: context.correlationId },
      {
        actor: context.actor,
        summary: `risk tiers set: ${tiers.map((tier) => tier.name).join(', ')}`,
        details: {
          change: 'RISK_TIERS_CHANGED',
          tiers,
          ...changedFields({
            target: { kind: 'RISK_TIERS', id: context.tenantId },
            before: { tiers: before },
            after: { tiers },
          }),
        },
        change: 'RISK_TIERS_CHANGED',
      },
    );
  }
}
