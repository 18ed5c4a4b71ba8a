import { Action, AuditEventType, Protocol } from '@agp/contracts';

/** What a list, an export or a dashboard selects; every reader builds its WHERE from this. */
export interface EventFilter {
  eventTypes?: AuditEventType[];
  protocols?: Protocol[];
  actions?: Action[];
  actorType?: string;
  actorId?: string;
  sourceType?: string;
  sourceId?: string;
  sinkType?: string;
  sinkId?: string;
  policyId?: string;
  correlationId?: string;
  from?: Date;
  to?: Date;
}

export function whereOf(
  tenantId: string,
  filter: EventFilter,
  param: (value: unknown) => string,
): string {
  const clauses = [`tenant_id = ${param(tenantId)}::uuid`];
  const list = (column: string, values?: readonly string[]): void => {
    if (values && values.length > 0) {
      clauses.push(`${column} IN (${values.map((value) => param(value)).join(', ')})`);
    }
  };
  const equal = (column: string, value?: string): void => {
    if (value !== undefined) {
      clauses.push(`${column} = ${param(value)}`);
    }
  };
  list('event_type', filter.eventTypes);
  list('protocol', filter.protocols);
  list('action', filter.actions);
  equal('actor_type', filter.actorType);
  equal('actor_id', filter.actorId);
  equal('source_type', filter.sourceType);
  equal('source_id', filter.sourceId);
  equal('sink_type', filter.sinkType);
  equal('sink_id', filter.sinkId);
  equal('correlation_id', filter.correlationId);
  if (filter.policyId !== undefined) {
    clauses.push(`${param(filter.policyId)}::uuid = ANY(policy_ids)`);
  }
  if (filter.from) {
    clauses.push(`occurred_at >= ${param(filter.from.toISOString())}::timestamptz`);
  }
  if (filter.to) {
    clauses.push(`occurred_at < ${param(filter.to.toISOString())}::timestamptz`);
  }
  return clauses.join(' AND ');
}

export function placeholders(params: unknown[]): (value: unknown) => string {
  return (value) => {
    params.push(value);
    return `$${params.length}`;
  };
}
