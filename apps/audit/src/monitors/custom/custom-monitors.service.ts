import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { changedFields } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { ChangedFields } from '@agp/contracts';
import { Database, isUniqueViolation, Tx } from '@agp/database';
import { Page, pageOf, pageOffset } from '@agp/http';
import { EventOutbox } from '@agp/messaging';

import { AUDIT_DATABASE, AUDIT_OUTBOX } from '../../database/tokens';
import { AlertRaiserService } from '../alerts/alert-raiser.service';
import { MonitorConfigService } from '../config/monitor-config.service';
import { MonitorsErrorCode, MonitorsException } from '../monitors.exception';
import { CreateMonitorDto } from './dto/create-monitor.dto';
import { ListMonitorsQueryDto } from './dto/list-monitors-query.dto';
import { UpdateMonitorDto } from './dto/update-monitor.dto';
import { CustomMonitorsRepository, MonitorFields } from './custom-monitors.repository';
import {
  MonitorDefinition,
  MonitorResponse,
  toMonitorResponse,
} from '../engine/custom/monitor-definition';
import { monitorProblems } from './monitor-rules';
import {
  detectorOfTemplate,
  systemTemplate,
  systemTemplates,
} from '../engine/custom/system-templates';

/** What an optional field of a monitor is when not given (or reset with null). */
const OPTIONAL_DEFAULTS = {
  description: null,
  comparison: 'ABOVE',
  minVolume: 0,
  severity: 'MEDIUM',
  enabled: true,
} as const;

/** Custom monitors and the SYSTEM_TEMPLATE view of the built-in detectors (issue 17, M23). */
@Injectable()
export class CustomMonitorsService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(AUDIT_OUTBOX) private readonly outbox: EventOutbox,
    private readonly monitors: CustomMonitorsRepository,
    private readonly config: MonitorConfigService,
    private readonly raiser: AlertRaiserService,
  ) {}

  list(context: RequestContext, query: ListMonitorsQueryDto): Promise<Page<MonitorResponse>> {
    return this.database.inTenant(context.tenantId, async (tx) => {
      const templates = systemTemplates(await this.config.settingsOf(tx, context.tenantId));
      const custom = (await this.monitors.list(tx, context.tenantId)).map(toMonitorResponse);
      const all = [...templates, ...custom].filter(
        (m) => !query.monitorType || m.monitorType === query.monitorType,
      );
      const offset = pageOffset(query);
      return pageOf(all.slice(offset, offset + query.pageSize), all.length, query);
    });
  }

  get(context: RequestContext, id: string): Promise<MonitorResponse> {
    return this.database.inTenant(context.tenantId, async (tx) => {
      const detector = detectorOfTemplate(id);
      if (detector) {
        const settings = await this.config.settingsOf(tx, context.tenantId);
        return systemTemplate(detector, settings.detectors[detector]);
      }
      return toMonitorResponse(await this.mustFind(tx, context.tenantId, id));
    });
  }

  async create(ctx: RequestContext, dto: CreateMonitorDto): Promise<MonitorResponse> {
    const [actor, context] = [actorOf(ctx), eventContext(ctx)];
    const fields: MonitorFields = {
      name: dto.name,
      description: dto.description ?? OPTIONAL_DEFAULTS.description,
      monitorType: dto.monitorType,
      metric: dto.metric,
      aggregation: dto.aggregation,
      window: dto.window,
      groupBy: dto.groupBy,
      comparison: dto.comparison ?? OPTIONAL_DEFAULTS.comparison,
      threshold: dto.threshold,
      minVolume: dto.minVolume ?? OPTIONAL_DEFAULTS.minVolume,
      severity: dto.severity ?? OPTIONAL_DEFAULTS.severity,
      enabled: dto.enabled ?? OPTIONAL_DEFAULTS.enabled,
      updatedByLabel: ctx.principal.label,
    };
    this.check(fields);
    return this.withUniqueName(fields.name, () =>
      this.database.inTenant(context.tenantId, async (tx) => {
        const created = await this.monitors.insert(tx, context.tenantId, randomUUID(), fields);
        await this.outbox.add(tx, 'MONITOR_CREATED', context, {
          actor: actor,
          summary: `monitor ${created.name} created (${describe(created)})`,
          details: {
            monitorId: created.id,
            monitor: toMonitorResponse(created),
            ...monitorChanges({ after: toMonitorResponse(created) }),
          },
        });
        return toMonitorResponse(created);
      }),
    );
  }

  async update(ctx: RequestContext, id: string, dto: UpdateMonitorDto): Promise<MonitorResponse> {
    const [actor, context] = [actorOf(ctx), eventContext(ctx)];
    this.refuseTemplate(id, 'changed through PUT /audit/v1/monitors/config');
    return this.withUniqueName(dto.name, () =>
      this.database.inTenant(context.tenantId, async (tx) => {
        const current = await this.mustFind(tx, context.tenantId, id, true);
        // `null` resets an optional field to its default (PatchType lets null through only there).
        const given = Object.fromEntries(
          Object.entries(dto)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, v ?? OPTIONAL_DEFAULTS[k as keyof typeof OPTIONAL_DEFAULTS]]),
        );
        const fields: MonitorFields = { ...current, ...given, updatedByLabel: ctx.principal.label };
        this.check(fields);
        const updated = await this.monitors.update(tx, context.tenantId, id, fields);
        await this.outbox.add(tx, 'MONITOR_CONFIG_CHANGED', context, {
          actor: actor,
          summary: `monitor ${updated.name} changed (${describe(updated)})`,
          changedDetectors: [],
          settings: { monitor: { ...toMonitorResponse(updated) } },
          details: {
            monitorId: id,
            changed: Object.keys(given),
            ...monitorChanges({
              before: toMonitorResponse(current),
              after: toMonitorResponse(updated),
            }),
          },
        });
        return toMonitorResponse(updated);
      }),
    );
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    const [actor, context] = [actorOf(ctx), eventContext(ctx)];
    this.refuseTemplate(id, 'turned off through PUT /audit/v1/monitors/config');
    await this.database.inTenant(context.tenantId, async (tx) => {
      const current = await this.mustFind(tx, context.tenantId, id, true);
      await this.raiser.resolveClosed(
        tx,
        context.tenantId,
        [],
        [id],
        [],
        context.correlationId,
        new Date(),
      );
      await this.monitors.delete(tx, context.tenantId, id);
      await this.outbox.add(tx, 'MONITOR_DELETED', context, {
        actor: actor,
        summary: `monitor ${current.name} deleted`,
        details: {
          monitorId: id,
          monitor: toMonitorResponse(current),
          ...monitorChanges({ before: toMonitorResponse(current) }),
        },
      });
    });
  }

  private check(fields: MonitorFields): void {
    const problems = monitorProblems(fields);
    if (problems.length > 0) {
      throw MonitorsException.invalid(problems);
    }
  }

  private refuseTemplate(id: string, how: string): void {
    const detector = detectorOfTemplate(id);
    if (detector) {
      throw new MonitorsException(
        MonitorsErrorCode.SYSTEM_TEMPLATE_READ_ONLY,
        `${detector} is a SYSTEM_TEMPLATE monitor: its settings are ${how}`,
      );
    }
  }

  private async mustFind(
    tx: Tx,
    tenantId: string,
    id: string,
    forUpdate = false,
  ): Promise<MonitorDefinition> {
    const found = await this.monitors.find(tx, tenantId, id, forUpdate);
    if (!found) {
      throw new MonitorsException(MonitorsErrorCode.MONITOR_NOT_FOUND, `monitor ${id} not found`);
    }
    return found;
  }

  private async withUniqueName<T>(name: string | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new MonitorsException(
          MonitorsErrorCode.MONITOR_NAME_TAKEN,
          `a monitor named ${name ?? ''} already exists`,
        );
      }
      throw error;
    }
  }
}

function describe(monitor: MonitorDefinition): string {
  return `${monitor.monitorType} ${monitor.aggregation} of ${monitor.metric} over ${monitor.window} by ${monitor.groupBy}, ${monitor.comparison} ${monitor.threshold}`;
}

/** D42: a custom monitor's changed fields (its last editor and timestamps are not administered). */
function monitorChanges(values: {
  before?: MonitorResponse;
  after?: MonitorResponse;
}): ChangedFields {
  const monitor = (values.after ?? values.before)!;
  return changedFields({
    target: { kind: 'MONITOR', id: monitor.id, name: monitor.name },
    ignore: ['updatedByLabel'],
    ...values,
  });
}
