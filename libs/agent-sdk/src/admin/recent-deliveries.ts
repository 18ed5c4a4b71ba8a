import { DEFAULT_WEBHOOK_TOLERANCE_SECONDS } from '../webhooks/webhook-headers';

/** Older ones need no memory (D19). */
export class RecentDeliveries {
  private readonly seen = new Map<string, number>();

  constructor(private readonly windowSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS) {}

  remember(deliveryId: string, timestamp: number, nowMs = Date.now()): boolean {
    this.evict(nowMs);
    if (this.seen.has(deliveryId)) {
      return false;
    }
    this.seen.set(deliveryId, timestamp);
    return true;
  }

  forget(deliveryId: string): void {
    this.seen.delete(deliveryId);
  }

  private evict(nowMs: number): void {
    const oldest = Math.floor(nowMs / 1000) - 2 * this.windowSeconds;
    for (const [id, timestamp] of this.seen) {
      if (timestamp < oldest) {
        this.seen.delete(id);
      }
    }
  }
}
