export interface RedeliveryPolicy {
  maxDeliveries: number;
  backoffMs: readonly number[];
}

export const DEFAULT_REDELIVERY: RedeliveryPolicy = {
  maxDeliveries: 6,
  backoffMs: [1_000, 5_000, 15_000, 30_000, 60_000],
};

export function redeliveryDelay(policy: RedeliveryPolicy, deliveryCount: number): number {
  const index = Math.min(Math.max(deliveryCount - 1, 0), policy.backoffMs.length - 1);
  return policy.backoffMs[index] ?? 1_000;
}
