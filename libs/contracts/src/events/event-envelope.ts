/** `id` is the idempotency key (§5). */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  version: number;
  occurredAt: string;
  tenantId: string;
  correlationId: string;
  data: TData;
}
