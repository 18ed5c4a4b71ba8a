import { Inject, Injectable } from '@nestjs/common';
import { RequestContext, actorOf } from '@agp/auth';
import { Database, Tx } from '@agp/database';
import { Page, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { DecideHitlRequestDto } from './dto/decide-hitl-request.dto';
import { ListHitlRequestsQueryDto } from './dto/list-hitl-requests-query.dto';
import { HitlDeliveries } from './hitl-deliveries';
import { HitlErrorCode, HitlException } from './hitl.exception';
import { hitlEventData } from './hitl-events';
import { HitlRepository, StoredHitlRequest } from './hitl.repository';
import { canMove } from './hitl-transitions';
import { HitlWaiters } from './hitl-waiters';
import { HitlRequestResponse } from './hitl.types';

function toResponse(request: StoredHitlRequest): HitlRequestResponse {
  const { tenantId: _tenant, resendDigest: _digest, ...visible } = request;
  const until = request.decidedAt ?? request.releasedAt ?? new Date().toISOString();
  return {
    ...visible,
    waitedSeconds: Math.max(
      0,
      Math.round((Date.parse(until) - Date.parse(request.createdAt)) / 1000),
    ),
  };
}

/** The reviewers' side of D34: list, read, approve, reject (HITL_REQUESTS:READ / WRITE). */
@Injectable()
export class HitlService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly holds: HitlRepository,
    private readonly waiters: HitlWaiters,
    private readonly deliveries: HitlDeliveries,
  ) {}

  async list(
    ctx: RequestContext,
    query: ListHitlRequestsQueryDto,
  ): Promise<Page<HitlRequestResponse>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.holds.list(tx, ctx.tenantId, query, query.pageSize, pageOffset(query)),
    );
    return pageOf(items.map(toResponse), total, query);
  }

  async get(ctx: RequestContext, id: string): Promise<HitlRequestResponse> {
    return toResponse(
      await this.database.inTenant(ctx.tenantId, async (tx) =>
        this.mustFind(await this.holds.find(tx, ctx.tenantId, id), id),
      ),
    );
  }

  approve(
    ctx: RequestContext,
    id: string,
    dto: DecideHitlRequestDto,
  ): Promise<HitlRequestResponse> {
    return this.decide(ctx, id, 'APPROVED', dto);
  }

  reject(ctx: RequestContext, id: string, dto: DecideHitlRequestDto): Promise<HitlRequestResponse> {
    return this.decide(ctx, id, 'REJECTED', dto);
  }

  /** 409 naming the current status for any move D34 does not allow (a hold past its expiry too). */
  private async decide(
    ctx: RequestContext,
    id: string,
    status: 'APPROVED' | 'REJECTED',
    dto: DecideHitlRequestDto,
  ): Promise<HitlRequestResponse> {
    const decided = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = this.mustFind(await this.holds.find(tx, ctx.tenantId, id), id);
      const by = { id: ctx.principal.subject, label: ctx.principal.label };
      const updated = canMove(current.status, status)
        ? await this.holds.decide(tx, ctx.tenantId, id, status, by, dto.note ?? null)
        : undefined;
      if (!updated) {
        const shown = current.status === 'PENDING' ? 'PENDING past its expiry' : current.status;
        throw new HitlException(
          HitlErrorCode.InvalidTransition,
          `HITL request ${id} is ${shown}; only a PENDING request can be ${status.toLowerCase()}`,
        );
      }
      // The held hop's correlation id, so its trace tells the whole story (D13).
      await this.outbox.add(
        tx,
        'HITL_RESOLUTION',
        { tenantId: ctx.tenantId, correlationId: updated.correlationId },
        hitlEventData(
          updated,
          `${status.toLowerCase()} by ${by.label}`,
          { note: dto.note ?? null, decidedInRequest: ctx.correlationId },
          actorOf(ctx),
        ),
      );
      return status === 'APPROVED' ? this.deliverApproved(tx, updated) : updated;
    });
    this.waiters.notify(id, status);
    return toResponse(decided);
  }

  /** A push hold is delivered in the approval's transaction, or left APPROVED with HITL_GUARD. */
  private async deliverApproved(tx: Tx, approved: StoredHitlRequest): Promise<StoredHitlRequest> {
    const delivery = this.deliveries.of(approved);
    if (!delivery) {
      return approved;
    }
    const { tenantId, correlationId } = approved;
    const outcome = await delivery.deliver(tx, approved);
    const released =
      'deliveryId' in outcome ? await this.holds.release(tx, tenantId, approved.id) : undefined;
    if (!released || 'refused' in outcome) {
      const why = 'refused' in outcome ? outcome.refused : 'the hold was already released';
      await this.outbox.add(
        tx,
        'HITL_GUARD',
        { tenantId, correlationId },
        hitlEventData(approved, `release refused: ${why}`, { guard: 'RELEASE_REFUSED', why }),
      );
      return approved;
    }
    await this.outbox.add(
      tx,
      'HITL_RELEASED',
      { tenantId, correlationId },
      hitlEventData(released, 'delivered after approval', {
        via: 'APPROVAL',
        deliveryId: outcome.deliveryId,
      }),
    );
    return released;
  }

  private mustFind(request: StoredHitlRequest | undefined, id: string): StoredHitlRequest {
    if (!request) {
      throw new HitlException(HitlErrorCode.NotFound, `HITL request ${id} not found`);
    }
    return request;
  }
}
