import { EventEnvelope, isEventType } from '@agp/contracts';

import { PoisonMessageError } from './event-transport';
import { invalidPayloadProperties } from './payload-validation';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What fails here can never succeed, so it is parked at once instead of redelivered (§5). */
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
    problems.push(
      ...invalidPayloadProperties(envelope.type, envelope.data as object).map(
        (property) => `data.${property}`,
      ),
    );
  }
  if (problems.length > 0) {
    throw new PoisonMessageError(`invalid event: ${problems.join(', ')}`);
  }
}
