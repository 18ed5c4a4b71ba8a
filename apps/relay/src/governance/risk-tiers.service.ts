import { Inject, Injectable } from '@nestjs/common';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';
import { FieldError } from '@agp/http';

import { RELAY_DATABASE } from '../database/tokens';
import { PutRiskTiersDto } from './dto/put-risk-tiers.dto';
import { GovernanceEvents } from './governance-events';
import { reviewDueAt } from './governance-snapshot';
import { GovernanceErrorCode, GovernanceException } from './governance.exception';
import { GovernanceRepository } from './governance.repository';
import { DEFAULT_RISK_TIERS, RiskTier, changedTiers, removedTiers } from './risk-tiers';

/** The tenant's risk tiers (G1): a list it defines, LOW / MEDIUM / HIGH / CRITICAL until it does. */
@Injectable()
export class RiskTiersService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly repository: GovernanceRepository,
    private readonly events: GovernanceEvents,
  ) {}

  async tiersOf(tx: Tx, tenantId: string): Promise<readonly RiskTier[]> {
    return (await this.repository.tiers(tx, tenantId)) ?? DEFAULT_RISK_TIERS;
  }

  /** 400 entries for a tier name the tenant does not define. */
  tierProblems(tiers: readonly RiskTier[], name: string | undefined): FieldError[] {
    return name === undefined || tiers.some((tier) => tier.name === name)
      ? []
      : [
          {
            field: 'riskTier',
            message: `riskTier must be one of ${tiers.map((tier) => tier.name).join(', ')}`,
          },
        ];
  }

  async get(ctx: RequestContext): Promise<{ tiers: readonly RiskTier[] }> {
    return this.database.inTenant(ctx.tenantId, async (tx) => ({
      tiers: await this.tiersOf(tx, ctx.tenantId),
    }));
  }

  /** A tier still in use cannot go (409); a cadence change moves its records' due dates. */
  async put(ctx: RequestContext, dto: PutRiskTiersDto): Promise<{ tiers: readonly RiskTier[] }> {
    const names = dto.tiers.map((tier) => tier.name);
    const duplicates = names.filter((name, i) => names.indexOf(name) !== i);
    if (duplicates.length > 0) {
      throw GovernanceException.invalid([
        {
          field: 'tiers',
          message: `tier names must be unique: ${[...new Set(duplicates)].join(', ')}`,
        },
      ]);
    }
    const after: RiskTier[] = dto.tiers.map((tier) => ({ ...tier }));
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const before = await this.tiersOf(tx, ctx.tenantId);
      const removed = removedTiers(before, after);
      if (removed.length > 0) {
        const inUse = await this.repository.recordIdsWhere(tx, ctx.tenantId, {
          riskTiers: removed,
        });
        if (inUse.length > 0) {
          throw new GovernanceException(
            GovernanceErrorCode.TierInUse,
            `risk tiers still given to ${inUse.length} record(s) cannot be removed: ${removed.join(', ')}`,
          );
        }
      }
      await this.repository.putTiers(tx, ctx.tenantId, after);
      const context = { ...eventContext(ctx), actor: actorOf(ctx) };
      const changed = changedTiers(before, after);
      const moved = changed.length
        ? await this.repository.recordIdsWhere(tx, ctx.tenantId, { riskTiers: changed })
        : [];
      for (const id of moved) {
        const record = (await this.repository.findRecord(tx, ctx.tenantId, id))!;
        const updated = await this.repository.updateRecord(tx, ctx.tenantId, id, {
          reviewDueAt: reviewDueAt(after, record),
        });
        await this.events.recordChange(
          tx,
          context,
          'RECORD_UPDATED',
          after,
          updated,
          `risk tier ${record.riskTier} redefined`,
        );
      }
      await this.events.recordTiersChanged(tx, context, before, after);
      return { tiers: after };
    });
  }
}
