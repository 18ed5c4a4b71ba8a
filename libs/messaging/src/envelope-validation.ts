import { EventEnvelope, isEventType, payloadClassOf } from '@agp/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { PoisonMessageError } from './event-transport';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A consumer validates before acting (STYLE.md §5). What fails here can never succeed, so it is
 * parked at once instead of redelivered.
 */
export function assertValidEnvelope(envelope: EventEnvelope): void {
  const problems: string[] = [];
  if (typeof envelope !== 'object' || envelope === null) {
    throw new PoisonMessageError('envelope is not an object');
  }
  if (!UUID.test(String(envelope.id))) {
    problems.push('id');
  }
  if (!isEventType(String(envelope.type))) {
    problems.push('type');
  }
  if (!UUID.test(String(envelope.tenantId))) {
    problems.push('tenantId');
  }
  if (typeof envelope.data !== 'object' || envelope.data === null) {
    problems.push('data');
  }
  if (problems.length === 0 && isEventType(envelope.type)) {
    const payload = plainToInstance(payloadClassOf(envelope.type), envelope.data);
    problems.push(...validateSync(payload, { forbidUnknownValues: false }).map((e) => `data.${e.property}`));
  }
  if (problems.length > 0) {
    throw new PoisonMessageError(`invalid event: ${problems.join(', ')}`);
  }
}
