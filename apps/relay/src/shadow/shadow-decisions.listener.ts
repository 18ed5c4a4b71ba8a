import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { AuditableEventData, EventData, EventEnvelope } from '@agp/contracts';
import { Tx } from '@agp/database';
import { EventConsumers } from '@agp/messaging';

import { RELAY_CONSUMERS } from '../database/tokens';
import { DiffHop } from './decision-diffs';
import { DecisionDiffsRepository } from './decision-diffs.repository';

/** D49, G8: the event id is the row's, so a redelivery inserts nothing. */
@Injectable()
export class ShadowDecisionsListener implements OnModuleInit {
  constructor(
    @Inject(RELAY_CONSUMERS) private readonly consumers: EventConsumers,
    private readonly diffs: DecisionDiffsRepository,
  ) {}

  onModuleInit(): void {
    this.consumers.register('shadow-decisions', ['POLICY_SHADOW_DECISION'], (event, tx) =>
      this.apply(event, tx),
    );
  }

  apply(
    event: EventEnvelope<'POLICY_SHADOW_DECISION', EventData<'POLICY_SHADOW_DECISION'>>,
    tx: Tx,
  ): Promise<void> {
    const { data } = event;
    return this.diffs.insertShadow(tx, event.tenantId, event.id, data.bindingId, {
      hopId: data.hopId,
      hopAt: data.hopAt,
      hop: diffHopOf(data, event.correlationId),
      enforced: data.enforced,
      shadow: data.shadow,
    });
  }
}

/** The hop's facts as an audit event carries them (parties, protocol, direction, tool). */
export function diffHopOf(data: AuditableEventData, correlationId?: string): DiffHop {
  const details = data.details ?? {};
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' ? value : undefined;
  const hop: DiffHop = {
    protocol: data.protocol,
    direction: text(details.direction),
    source: data.source,
    sink: data.sink,
    method: text(details.method),
    toolName: text(details.toolName),
    correlationId,
  };
  return JSON.parse(JSON.stringify(hop)) as DiffHop;
}
