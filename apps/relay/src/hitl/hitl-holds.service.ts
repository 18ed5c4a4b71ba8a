import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { hitlEventData } from './hitl-events';
import { HitlRepository, StoredHitlRequest } from './hitl.repository';
import { HitlWaiters } from './hitl-waiters';
import { HitlStatus, HoldInput } from './hitl.types';

/** How a hold ended for the caller that waited on it (D34). */
export type HoldOutcome =
  | { kind: 'RELEASED'; request: StoredHitlRequest }
  | { kind: 'REJECTED'; request: StoredHitlRequest }
  | { kind: 'PENDING'; request: StoredHitlRequest; retryAfterSeconds: number }
  | { kind: 'REFUSED'; request?: StoredHitlRequest; why: string };

/** What the traffic paths ask of human review: hold, wait, release on resend (D34). */
@Injectable()
export class HitlHolds {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly holds: HitlRepository,
    private readonly waiters: HitlWaiters,
  ) {}

  /** One transaction: durable before the caller waits; `alongside` is what delivery needs. */
  async hold(
    input: HoldInput,
    alongside?: (tx: Tx, request: StoredHitlRequest) => Promise<void>,
  ): Promise<StoredHitlRequest> {
    return this.database.inTenant(input.tenantId, async (tx) => {
      const request = await this.holds.insert(tx, input);
      await alongside?.(tx, request);
      await this.outbox.add(
        tx,
        'HITL',
        { tenantId: input.tenantId, correlationId: input.correlationId },
        hitlEventData(request, 'held for human review'),
      );
      return request;
    });
  }

  /** Waits up to `seconds` for a person; released (exactly once) when approved in time. */
  async awaitDecision(
    request: StoredHitlRequest,
    seconds: number,
    signal?: AbortSignal,
  ): Promise<HoldOutcome> {
    const status = await this.waiters.wait(request.id, seconds, signal);
    if (status === 'APPROVED') {
      return this.release(request, 'WAIT');
    }
    if (status === 'REJECTED') {
      return { kind: 'REJECTED', request };
    }
    if (status === 'EXPIRED' || status === 'RELEASED') {
      return { kind: 'REFUSED', request, why: `the hold is ${status}` };
    }
    return { kind: 'PENDING', request, retryAfterSeconds: Math.min(30, Math.max(1, seconds)) };
  }

  /** For holds the relay delivers itself (`HitlDeliveries`); releases nothing. */
  awaitStatus(
    request: StoredHitlRequest,
    seconds: number,
    signal?: AbortSignal,
  ): Promise<HitlStatus | 'TIMEOUT'> {
    return this.waiters.wait(request.id, seconds, signal);
  }

  /**
   * G18: a LIVE evaluation's hold ends EXPIRED at once, with HITL_GUARD saying why, so no review
   * or resend releases it later; false when it was no longer PENDING.
   */
  async withdraw(tenantId: string, id: string, why: string): Promise<boolean> {
    const expired = await this.database.inTenant(tenantId, async (tx) => {
      const request = await this.holds.expire(tx, tenantId, id);
      if (request) {
        await this.outbox.add(
          tx,
          'HITL_GUARD',
          { tenantId, correlationId: request.correlationId },
          hitlEventData(request, why, { guard: 'EXPIRED', why }),
        );
      }
      return request;
    });
    if (expired) {
      this.waiters.notify(id, 'EXPIRED');
    }
    return expired !== undefined;
  }

  /** D34: same message digest by the same agent releases once; else HITL_GUARD. */
  async releaseOnResend(
    tenantId: string,
    agentId: string,
    id: string,
    resendDigest: string,
    correlationId: string,
  ): Promise<HoldOutcome | undefined> {
    const request = await this.database.inTenant(tenantId, (tx) =>
      this.holds.find(tx, tenantId, id),
    );
    if (!request || request.agentId !== agentId) {
      return undefined;
    }
    const refuse = async (why: string): Promise<HoldOutcome> => {
      await this.guard(request, why, correlationId);
      return { kind: 'REFUSED', request, why };
    };
    if (request.resendDigest !== resendDigest) {
      return refuse('the resent message is not the one that was held');
    }
    switch (request.status) {
      case 'PENDING':
        return { kind: 'PENDING', request, retryAfterSeconds: 30 };
      case 'REJECTED':
        return { kind: 'REJECTED', request };
      case 'APPROVED':
        return this.release(request, 'RESEND', correlationId);
      case 'EXPIRED':
      case 'RELEASED':
        return refuse(`the hold is ${request.status}`);
    }
  }

  /** Release and guard events carry the held hop's correlation id; a resend's own is in details. */
  private async release(
    request: StoredHitlRequest,
    via: 'WAIT' | 'RESEND',
    correlationId = request.correlationId,
  ): Promise<HoldOutcome> {
    const released = await this.database.inTenant(request.tenantId, async (tx) => {
      const won = await this.holds.release(tx, request.tenantId, request.id);
      if (won) {
        await this.outbox.add(
          tx,
          'HITL_RELEASED',
          { tenantId: request.tenantId, correlationId: request.correlationId },
          hitlEventData(won, 'released after approval', { via, resendRequest: correlationId }),
        );
      }
      return won;
    });
    if (released) {
      return { kind: 'RELEASED', request: released };
    }
    const why = 'the hold was already released';
    await this.guard(request, why, correlationId);
    return { kind: 'REFUSED', request, why };
  }

  private async guard(
    request: StoredHitlRequest,
    why: string,
    correlationId: string,
  ): Promise<void> {
    await this.database.inTenant(request.tenantId, (tx) =>
      this.outbox.add(
        tx,
        'HITL_GUARD',
        { tenantId: request.tenantId, correlationId: request.correlationId },
        hitlEventData(request, `release refused: ${why}`, {
          guard: 'RELEASE_REFUSED',
          why,
          resendRequest: correlationId,
        }),
      ),
    );
  }
}
