import { Inject, Injectable } from '@nestjs/common';
import { PolicyLifecycleData } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RequestContext, actorOf, eventContext } from '../common/request-context';
import { RELAY_OUTBOX } from '../database/tokens';
import { DecisionCache } from '../decisions/decision-cache';

/**
 * Records POLICY_LIFECYCLE with the change (D5, D18) and, once committed, drops this replica's
 * decision cache for the tenant; the other replicas drop theirs when the event reaches them (R3).
 */
@Injectable()
export class PolicyChangeRecorder {
  constructor(
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly cache: DecisionCache,
  ) {}

  async record(
    tx: Tx,
    ctx: RequestContext,
    data: Omit<PolicyLifecycleData, 'actor'>,
  ): Promise<void> {
    await this.outbox.add(tx, 'POLICY_LIFECYCLE', eventContext(ctx), {
      actor: actorOf(ctx),
      summary: summaryOf(data),
      // The audit export's policyId column (D17): a policy is a policy group (R12).
      ...(data.groupId ? { policyIds: [data.groupId] } : {}),
      ...data,
    });
  }

  /** Call after the transaction committed. */
  committed(tenantId: string): void {
    this.cache.invalidate(tenantId);
  }
}

function summaryOf(data: Omit<PolicyLifecycleData, 'actor'>): string {
  const what = [data.groupName, data.version ? `v${data.version}` : undefined]
    .filter(Boolean)
    .join(' ');
  return `${data.change}${what ? ` ${what}` : ''}`;
}
