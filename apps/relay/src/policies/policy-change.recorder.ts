import { Inject, Injectable } from '@nestjs/common';
import { changedFields } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { ChangeTarget, PolicyLifecycleData } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_OUTBOX } from '../database/tokens';

/** D5, D18, R3: this replica's cache drops the tenant before the commit returns. */
@Injectable()
export class PolicyChangeRecorder {
  constructor(@Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox) {}

  /** `values`: the group, version, binding or settings before and after, for D42's changed fields. */
  async record(
    tx: Tx,
    ctx: RequestContext,
    data: Omit<PolicyLifecycleData, 'actor'>,
    values: { before?: object; after?: object } = {},
  ): Promise<void> {
    await this.outbox.add(tx, 'POLICY_LIFECYCLE', eventContext(ctx), {
      actor: actorOf(ctx),
      summary: summaryOf(data),
      // The audit export's policyId column (D17): a policy is a policy group (R12).
      ...(data.groupId ? { policyIds: [data.groupId] } : {}),
      ...data,
      details: {
        ...data.details,
        ...changedFields({ target: targetOf(data, ctx.tenantId), ...values }),
      },
    });
  }
}

function targetOf(data: Omit<PolicyLifecycleData, 'actor'>, tenantId: string): ChangeTarget {
  if (data.bindingId) {
    return { kind: 'POLICY_BINDING', id: data.bindingId, name: data.groupName };
  }
  if (data.versionId) {
    return {
      kind: 'POLICY_VERSION',
      id: data.versionId,
      name: `${data.groupName} v${data.version}`,
    };
  }
  if (data.groupId) {
    return { kind: 'POLICY_GROUP', id: data.groupId, name: data.groupName };
  }
  return { kind: 'POLICY_SETTINGS', id: tenantId };
}

function summaryOf(data: Omit<PolicyLifecycleData, 'actor'>): string {
  const what = [data.groupName, data.version ? `v${data.version}` : undefined]
    .filter(Boolean)
    .join(' ');
  return `${data.change}${what ? ` ${what}` : ''}`;
}
