import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { StoredHitlRequest } from './hitl.repository';

/** Delivered inside the approval's transaction; nothing when it can no longer be delivered. */
export interface HeldHopDelivery {
  deliver(
    tx: Tx,
    request: StoredHitlRequest,
  ): Promise<{ deliveryId: string } | { refused: string }>;
}

/**
 * D34: holds the relay delivers itself on approval (pushes), by method. Nothing kept in memory,
 * so an approval on any replica delivers a hold made on any other.
 */
@Injectable()
export class HitlDeliveries {
  private readonly byMethod = new Map<string, HeldHopDelivery>();

  register(method: string, delivery: HeldHopDelivery): void {
    this.byMethod.set(method, delivery);
  }

  of(request: StoredHitlRequest): HeldHopDelivery | undefined {
    return request.method ? this.byMethod.get(request.method) : undefined;
  }
}
