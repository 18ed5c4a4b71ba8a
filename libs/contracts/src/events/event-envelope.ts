/**
 * The one envelope every event travels in (STYLE.md §5). `id` is the idempotency key: JetStream
 * suppresses a re-published id (`Nats-Msg-Id`) and every consumer records it under a unique key.
 */
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  version: number;
  occurredAt: string;
  tenantId: string;
  correlationId: string;
  data: TData;
}
