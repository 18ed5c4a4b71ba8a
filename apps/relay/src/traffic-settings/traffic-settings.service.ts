import { Inject, Injectable } from '@nestjs/common';
import { recordAdminChange } from '@agp/admin-changes';
import { RequestContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import {
  AiDisclosureMode,
  ContentMarkingMode,
  Durability,
  TRAFFIC_SETTINGS_KIND,
  ToolDriftAction,
  TrafficSettings,
  canonicalUsd,
} from './traffic-settings.types';
import { UpdateTrafficSettingsDto } from './dto/update-traffic-settings.dto';
import { TrafficSettingsRepository } from './traffic-settings.repository';

/** The tenant's traffic settings as the API shows them. */
export interface TrafficSettingsResponse {
  rateLimits: {
    tenantPerMinute: number | null;
    agentPerMinute: number | null;
    subscriptionPerMinute: number | null;
  };
  contentCapture: boolean;
  hitlWaitSeconds: number;
  hitlExpirySeconds: number;
  /** traffic.md T52: when a delivered request's records are durable. */
  durability: Durability;
  /** D55: the share of matching hops a SHADOW binding sees (governance.md G9). */
  shadowSampleRate: number;
  /** traffic.md T85: browser origins the MCP path serves; null: the platform's own only. */
  allowedOrigins: string[] | null;
  /** D51: what a drifted or shadowing tool gets. */
  toolDrift: ToolDriftAction;
  /** D45, D57: telling a person they talk to an AI (traffic.md T70). */
  aiDisclosure: AiDisclosureMode;
  /** null: the platform's words (traffic.md T70). */
  aiDisclosureText: string | null;
  /** D45: marking agent content delivered to a person, machine-readable (traffic.md T72). */
  contentMarking: ContentMarkingMode;
  /** D60, payments.md PY6: USD as a decimal string; payments above it wait for a person. */
  paymentReviewThreshold: string | null;
}

function toResponse(settings: TrafficSettings): TrafficSettingsResponse {
  return {
    rateLimits: {
      tenantPerMinute: settings.tenantPerMinute,
      agentPerMinute: settings.agentPerMinute,
      subscriptionPerMinute: settings.subscriptionPerMinute,
    },
    contentCapture: settings.contentCapture,
    hitlWaitSeconds: settings.hitlWaitSeconds,
    hitlExpirySeconds: settings.hitlExpirySeconds,
    durability: settings.durability,
    shadowSampleRate: settings.shadowSampleRate,
    allowedOrigins: settings.allowedOrigins,
    toolDrift: settings.toolDrift,
    aiDisclosure: settings.aiDisclosure,
    aiDisclosureText: settings.aiDisclosureText,
    contentMarking: settings.contentMarking,
    paymentReviewThreshold: settings.paymentReviewThreshold,
  };
}

/** `/relay/v1/traffic-settings`: rate limits (D36), content capture (D40), human review (D34). */
@Injectable()
export class TrafficSettingsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly repository: TrafficSettingsRepository,
  ) {}

  async get(ctx: RequestContext): Promise<TrafficSettingsResponse> {
    return toResponse(
      await this.database.inTenant(ctx.tenantId, (tx) => this.repository.read(tx, ctx.tenantId)),
    );
  }

  async update(
    ctx: RequestContext,
    dto: UpdateTrafficSettingsDto,
  ): Promise<TrafficSettingsResponse> {
    const updated = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const current = await this.lockAndRead(tx, ctx.tenantId);
      const next: TrafficSettings = {
        tenantPerMinute: pick(dto.rateLimits?.tenantPerMinute, current.tenantPerMinute),
        agentPerMinute: pick(dto.rateLimits?.agentPerMinute, current.agentPerMinute),
        subscriptionPerMinute: pick(
          dto.rateLimits?.subscriptionPerMinute,
          current.subscriptionPerMinute,
        ),
        contentCapture: dto.contentCapture ?? current.contentCapture,
        hitlWaitSeconds: dto.hitlWaitSeconds ?? current.hitlWaitSeconds,
        hitlExpirySeconds: dto.hitlExpirySeconds ?? current.hitlExpirySeconds,
        durability: dto.durability ?? current.durability,
        shadowSampleRate: dto.shadowSampleRate ?? current.shadowSampleRate,
        allowedOrigins:
          dto.allowedOrigins === undefined ? current.allowedOrigins : dto.allowedOrigins,
        toolDrift: dto.toolDrift ?? current.toolDrift,
        aiDisclosure: dto.aiDisclosure ?? current.aiDisclosure,
        aiDisclosureText:
          dto.aiDisclosureText === undefined ? current.aiDisclosureText : dto.aiDisclosureText,
        contentMarking: dto.contentMarking ?? current.contentMarking,
        paymentReviewThreshold:
          dto.paymentReviewThreshold === undefined
            ? current.paymentReviewThreshold
            : dto.paymentReviewThreshold === null
              ? null
              : canonicalUsd(dto.paymentReviewThreshold),
      };
      // Recorded on change only: a PATCH that changes nothing leaves no event.
      if (JSON.stringify(toResponse(next)) === JSON.stringify(toResponse(current))) {
        return current;
      }
      await this.repository.write(tx, ctx.tenantId, next);
      // D42: settings that govern traffic are administered; no specification type names them.
      // The event is also how every replica's traffic paths hear of the change (T2, T50).
      await recordAdminChange(this.outbox, tx, ctx, 'UPDATED', {
        target: { kind: TRAFFIC_SETTINGS_KIND, id: ctx.tenantId },
        before: toResponse(current),
        after: toResponse(next),
      });
      return next;
    });
    return toResponse(updated);
  }

  /** Locked (created if missing), so two concurrent PATCHes of different fields both stick. */
  private async lockAndRead(tx: Tx, tenantId: string): Promise<TrafficSettings> {
    await this.repository.ensure(tx, tenantId);
    return this.repository.read(tx, tenantId, true);
  }
}

/** A PATCH field: absent keeps the current value, null clears it. */
function pick(value: number | null | undefined, current: number | null): number | null {
  return value === undefined ? current : value;
}
