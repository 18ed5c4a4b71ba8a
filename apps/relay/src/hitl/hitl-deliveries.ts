import { Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';

import { StoredHitlRequest } from './hitl.repository';

/**
 * How a held hop that no sender resends is delivered once approved: inside the approval's own
 * transaction, answering the id of what carries it (a webhook delivery), or nothing when it can no
 * longer be delivered.
 */
export interface HeldHopDelivery {
  deliver(
    tx: Tx,
    request: StoredHitlRequest,
  ): Promise<{ deliveryId: string } | { refused: string }>;
}

/**
 * The held hops the relay delivers itself when a person approves them (D34, traffic.md "A held
 * push is delivered when approved"), by the hop's method. Every other hold is released to the
 * sender that waits or resends. Registered by the traffic paths at start; nothing about one hold is
 * kept in memory, so an approval on any replica delivers a hold made on any other.
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
