import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EventData, EventEnvelope, PolicyLifecycleChange } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { RELAY_CONSUMERS } from '../database/tokens';
import { EvaluationRunsService } from './evaluation-runs.service';

/** The changes that move what version a group has bound (issue 6 §5). */
const BOUND_VERSION_CHANGES: readonly PolicyLifecycleChange[] = [
  'BINDING_CREATED',
  'BINDING_UPGRADED',
  'BINDING_DELETED',
];

/** POLICY_CHANGE runs: one replica handles each event (durable consumer), the executors run them. */
@Injectable()
export class PolicyChangeListener implements OnModuleInit {
  constructor(
    @Inject(RELAY_CONSUMERS) private readonly consumers: EventConsumers,
    private readonly runs: EvaluationRunsService,
  ) {}

  onModuleInit(): void {
    this.consumers.register('policy-change-runs', ['POLICY_LIFECYCLE'], (event, tx) =>
      this.apply(event, tx),
    );
  }

  async apply(
    event: EventEnvelope<'POLICY_LIFECYCLE', EventData<'POLICY_LIFECYCLE'>>,
    tx: Tx,
  ): Promise<void> {
    const { data } = event;
    if (!data.groupId || !BOUND_VERSION_CHANGES.includes(data.change)) {
      return;
    }
    await this.runs.startForPolicyChange(tx, event.tenantId, data.groupId, data.actor);
  }
}
