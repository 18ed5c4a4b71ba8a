import { Inject, Injectable } from '@nestjs/common';
import { PolicyLifecycleData } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';
import { actorOf, eventContext, RequestContext } from '@agp/auth';

import { RELAY_OUTBOX } from '../database/tokens';

/**
 * Records POLICY_LIFECYCLE with the change (D5, D18). Every replica's decision cache drops the
 * tenant on hearing it (R3), this replica's before the commit returns (decision-cache.ts).
 */
@Injectable()
export class PolicyChangeRecorder {
  constructor(@Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox) {}

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
}

function summaryOf(data: Omit<PolicyLifecycleData, 'actor'>): string {
  const what = [data.groupName, data.version ? `v${data.version}` : undefined]
    .filter(Boolean)
    .join(' ');
  return `${data.change}${what ? ` ${what}` : ''}`;
}
