import { DEFAULT_WEBHOOK_TOLERANCE_SECONDS } from '../webhooks/webhook-headers';

/**
 * Delivery ids seen within the webhook window (D19's replay protection). Older ones need no
 * memory: their timestamp is outside the window, so verification refuses them anyway.
 */
export class RecentDeliveries {
  private readonly seen = new Map<string, number>();

  constructor(private readonly windowSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS) {}

  /** False when the id was already seen within the window. */
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
