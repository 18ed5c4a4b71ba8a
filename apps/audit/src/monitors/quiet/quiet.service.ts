import { changedFields } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { EventParty } from '@agp/contracts';
import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database, Tx } from '@agp/database';
import { FieldError, Page, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { AUDIT_DATABASE, AUDIT_OUTBOX } from '../../database/tokens';
import { SuppressionLookup } from '../alerts/alert-raiser.service';
import { CustomMonitorsRepository } from '../custom/custom-monitors.repository';
import { detectorOfTemplate } from '../engine/custom/system-templates';
import { MonitorsErrorCode, MonitorsException } from '../monitors.exception';
import { CreateDowntimeDto } from './dto/create-downtime.dto';
import { CreateMuteDto } from './dto/create-mute.dto';
import { ListQuietQueryDto } from './dto/list-quiet-query.dto';
import { QuietTargetDto } from './dto/quiet-target.dto';
import { QuietRepository } from './quiet.repository';
import { isMuteActive, occurrenceAt, suppressionLookup } from './quiet-schedule';
import { Downtime, Mute, QuietTarget } from './quiet.types';

const SCOPE_FIELDS = {
  MONITOR: ['monitorId'],
  DETECTOR: ['detector'],
  SUBJECT: ['subjectType', 'subjectId'],
} as const;
const TARGET_FIELDS = ['monitorId', 'detector', 'subjectType', 'subjectId'] as const;
/** Who ends a mute that runs out by itself (M25). */
const EXPIRY_ACTOR: EventParty = { type: 'SERVICE', label: 'audit monitors' };
const PERIOD_MINUTES = { NONE: Infinity, DAILY: 1_440, WEEKLY: 10_080 } as const;

/** Mutes and scheduled downtimes (M22), each change recorded with its audit type. */
@Injectable()
export class QuietService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(AUDIT_OUTBOX) private readonly outbox: EventOutbox,
    private readonly quiet: QuietRepository,
    private readonly monitors: CustomMonitorsRepository,
  ) {}

  async lookupAt(tx: Tx, tenantId: string, at: Date): Promise<SuppressionLookup> {
    const { mutes, downtimes } = await this.quiet.inForce(tx, tenantId, at);
    return suppressionLookup(mutes, downtimes, at, detectorOfTemplate);
  }

  /** Called by the minute tick, which one replica runs (M12, M25). */
  async recordExpiries(at: Date, correlationId: string): Promise<number> {
    const tenants = await this.database.asSystem((tx) =>
      this.quiet.tenantsWithExpiredMutes(tx, at),
    );
    let recorded = 0;
    for (const tenantId of tenants) {
      recorded += await this.database.inTenant(tenantId, async (tx) => {
        const expired = await this.quiet.claimExpiredMutes(tx, tenantId, at);
        for (const mute of expired) {
          await this.record(
            tx,
            EXPIRY_ACTOR,
            { tenantId, correlationId },
            'MONITOR_UNMUTED',
            mute,
            `mute of ${describe(mute)} ran out at ${mute.endsAt?.toISOString() ?? ''}`,
          );
        }
        return expired.length;
      });
    }
    return recorded;
  }

  async mute(ctx: RequestContext, dto: CreateMuteDto): Promise<Mute> {
    const [actor, context] = [actorOf(ctx), eventContext(ctx)];
    const now = new Date();
    const errors = this.targetProblems(dto);
    if (dto.until && new Date(dto.until) <= now) {
      errors.push({ field: 'until', message: 'until must lie in the future' });
    }
    return this.database.inTenant(context.tenantId, async (tx) => {
      await this.checkTarget(tx, context.tenantId, dto, errors);
      const mute = await this.quiet.insertMute(tx, context.tenantId, {
        id: randomUUID(),
        ...this.target(dto),
        reason: dto.reason,
        startsAt: now,
        endsAt: dto.until ? new Date(dto.until) : null,
        createdByLabel: ctx.principal.label,
      });
      await this.record(
        tx,
        actor,
        context,
        'MONITOR_MUTED',
        mute,
        `muted ${describe(mute)} ${mute.endsAt ? `until ${mute.endsAt.toISOString()}` : 'until unmuted'}: ${mute.reason}`,
      );
      return mute;
    });
  }

  async unmute(ctx: RequestContext, id: string): Promise<Mute> {
    const [actor, context] = [actorOf(ctx), eventContext(ctx)];
    return this.database.inTenant(context.tenantId, async (tx) => {
      const mute = await this.quiet.findMute(tx, context.tenantId, id);
      if (!mute) {
        throw new MonitorsException(MonitorsErrorCode.MUTE_NOT_FOUND, `mute ${id} not found`);
      }
      const now = new Date();
      if (!isMuteActive(mute, now)) {
        throw new MonitorsException(MonitorsErrorCode.MUTE_ENDED, `mute ${id} has already ended`);
      }
      const ended = await this.quiet.endMute(tx, context.tenantId, id, now, ctx.principal.label);
      await this.record(
        tx,
        actor,
        context,
        'MONITOR_UNMUTED',
        ended,
        `unmuted ${describe(ended)}`,
        mute,
      );
      return ended;
    });
  }

  getMute(context: RequestContext, id: string): Promise<Mute> {
    return this.database.inTenant(context.tenantId, async (tx) => {
      const mute = await this.quiet.findMute(tx, context.tenantId, id);
      if (!mute) {
        throw new MonitorsException(MonitorsErrorCode.MUTE_NOT_FOUND, `mute ${id} not found`);
      }
      return mute;
    });
  }

  listMutes(context: RequestContext, query: ListQuietQueryDto): Promise<Page<Mute>> {
    return this.database.inTenant(context.tenantId, async (tx) => {
      const { items, total } = await this.quiet.listMutes(
        tx,
        context.tenantId,
        query.active ? new Date() : undefined,
        query.pageSize,
        pageOffset(query),
      );
      return pageOf(items, total, query);
    });
  }

  async schedule(ctx: RequestContext, dto: CreateDowntimeDto): Promise<Downtime> {
    const [actor, context] = [actorOf(ctx), eventContext(ctx)];
    const recurrence = dto.recurrence ?? 'NONE';
    const startsAt = new Date(dto.startsAt);
    const errors = this.targetProblems(dto);
    if (recurrence !== 'NONE' && dto.durationMinutes > PERIOD_MINUTES[recurrence]) {
      errors.push({
        field: 'durationMinutes',
        message: `a ${recurrence} window lasts at most ${PERIOD_MINUTES[recurrence]} minutes`,
      });
    }
    if (recurrence === 'NONE' && startsAt.getTime() + dto.durationMinutes * 60_000 <= Date.now()) {
      errors.push({ field: 'startsAt', message: 'a one-off downtime must end in the future' });
    }
    if (dto.repeatUntil && (recurrence === 'NONE' || new Date(dto.repeatUntil) <= startsAt)) {
      errors.push({
        field: 'repeatUntil',
        message: 'repeatUntil takes a recurrence and must follow startsAt',
      });
    }
    return this.database.inTenant(context.tenantId, async (tx) => {
      await this.checkTarget(tx, context.tenantId, dto, errors);
      const downtime = await this.quiet.insertDowntime(tx, context.tenantId, {
        id: randomUUID(),
        ...this.target(dto),
        reason: dto.reason,
        startsAt,
        durationMinutes: dto.durationMinutes,
        recurrence,
        repeatUntil: dto.repeatUntil ? new Date(dto.repeatUntil) : null,
        createdByLabel: ctx.principal.label,
      });
      await this.record(
        tx,
        actor,
        context,
        'MONITOR_DOWNTIME_SCHEDULED',
        downtime,
        `downtime for ${describe(downtime)} from ${startsAt.toISOString()} for ${downtime.durationMinutes} min (${recurrence}): ${downtime.reason}`,
      );
      return downtime;
    });
  }

  /** DELETE cancels a downtime (a window in progress ends now); a cancelled one is a 409. */
  async cancel(ctx: RequestContext, id: string): Promise<Downtime> {
    const [actor, context] = [actorOf(ctx), eventContext(ctx)];
    return this.database.inTenant(context.tenantId, async (tx) => {
      const downtime = await this.mustFindDowntime(tx, context.tenantId, id);
      if (downtime.cancelledAt) {
        throw new MonitorsException(
          MonitorsErrorCode.DOWNTIME_CANCELLED,
          `downtime ${id} is already cancelled`,
        );
      }
      const cancelled = await this.quiet.cancelDowntime(
        tx,
        context.tenantId,
        id,
        new Date(),
        ctx.principal.label,
      );
      await this.record(
        tx,
        actor,
        context,
        'MONITOR_DOWNTIME_CANCELLED',
        cancelled,
        `downtime for ${describe(cancelled)} cancelled`,
        downtime,
      );
      return cancelled;
    });
  }

  getDowntime(context: RequestContext, id: string): Promise<Downtime & { inEffect: boolean }> {
    return this.database.inTenant(context.tenantId, async (tx) => {
      const downtime = await this.mustFindDowntime(tx, context.tenantId, id);
      return { ...downtime, inEffect: occurrenceAt(downtime, new Date()) !== undefined };
    });
  }

  listDowntimes(context: RequestContext, query: ListQuietQueryDto): Promise<Page<Downtime>> {
    return this.database.inTenant(context.tenantId, async (tx) => {
      const { items, total } = await this.quiet.listDowntimes(
        tx,
        context.tenantId,
        query.active === false,
        query.pageSize,
        pageOffset(query),
      );
      return pageOf(items, total, query);
    });
  }

  private async mustFindDowntime(tx: Tx, tenantId: string, id: string): Promise<Downtime> {
    const downtime = await this.quiet.findDowntime(tx, tenantId, id);
    if (!downtime) {
      throw new MonitorsException(MonitorsErrorCode.DOWNTIME_NOT_FOUND, `downtime ${id} not found`);
    }
    return downtime;
  }

  /** The scope's fields are required and every other target field refused (D12: each named). */
  private targetProblems(dto: QuietTargetDto): FieldError[] {
    const wanted: readonly string[] = SCOPE_FIELDS[dto.scope];
    const errors: FieldError[] = [];
    for (const field of TARGET_FIELDS) {
      const given = dto[field] !== undefined;
      if (wanted.includes(field) && !given) {
        errors.push({ field, message: `${field} is required for scope ${dto.scope}` });
      } else if (!wanted.includes(field) && given) {
        errors.push({ field, message: `${field} does not apply to scope ${dto.scope}` });
      }
    }
    return errors;
  }

  /** A MONITOR target must be a monitor of the tenant (or a template); then any 400 is thrown. */
  private async checkTarget(
    tx: Tx,
    tenantId: string,
    dto: QuietTargetDto,
    errors: FieldError[],
  ): Promise<void> {
    if (dto.scope === 'MONITOR' && dto.monitorId && !detectorOfTemplate(dto.monitorId)) {
      if (!(await this.monitors.find(tx, tenantId, dto.monitorId))) {
        errors.push({ field: 'monitorId', message: `no monitor ${dto.monitorId} in this tenant` });
      }
    }
    if (errors.length > 0) {
      throw MonitorsException.invalid(errors);
    }
  }

  private target(dto: QuietTargetDto): QuietTarget {
    return {
      scope: dto.scope,
      monitorId: dto.monitorId?.toLowerCase() ?? null,
      detector: dto.detector ?? null,
      subjectType: dto.subjectType ?? null,
      subjectId: dto.subjectId?.toLowerCase() ?? null,
    };
  }

  private async record(
    tx: Tx,
    actor: EventParty,
    context: { tenantId: string; correlationId: string },
    type:
      | 'MONITOR_MUTED'
      | 'MONITOR_UNMUTED'
      | 'MONITOR_DOWNTIME_SCHEDULED'
      | 'MONITOR_DOWNTIME_CANCELLED',
    item: Mute | Downtime,
    summary: string,
    before?: Mute | Downtime,
  ): Promise<void> {
    const isDowntime = type.startsWith('MONITOR_DOWNTIME');
    await this.outbox.add(tx, type, context, {
      actor: actor,
      summary,
      details: {
        ...(isDowntime ? { downtimeId: item.id } : { muteId: item.id }),
        ...(JSON.parse(JSON.stringify(item)) as Record<string, unknown>),
        // D42: what the mute or downtime was and became.
        ...changedFields({
          target: { kind: isDowntime ? 'MONITOR_DOWNTIME' : 'MONITOR_MUTE', id: item.id },
          before,
          after: item,
        }),
      },
    });
  }
}

function describe(target: QuietTarget): string {
  switch (target.scope) {
    case 'MONITOR':
      return `monitor ${target.monitorId}`;
    case 'DETECTOR':
      return `detector ${target.detector}`;
    case 'SUBJECT':
      return `${target.subjectType} ${target.subjectId}`;
  }
}
