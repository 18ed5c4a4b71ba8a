import { Inject, Injectable } from '@nestjs/common';
import { changedFields } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { Detector } from '@agp/contracts';
import { Database, Tx } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { AUDIT_DATABASE, AUDIT_OUTBOX } from '../../database/tokens';
import {
  DetectorSettings,
  MonitorSettings,
  StoredMonitorSettings,
  ALL_DETECTORS,
  changedDetectors,
  effectiveSettings,
} from '../engine/detector-settings';
import { UpdateMonitorConfigDto } from './dto/update-monitor-config.dto';
import { MonitorConfigRepository } from './monitor-config.repository';

export interface MonitorConfigResponse {
  dismissSuppressionHours: number;
  detectors: Array<{ detector: Detector } & DetectorSettings>;
  updatedAt: string | null;
  updatedByLabel: string | null;
}

@Injectable()
export class MonitorConfigService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(AUDIT_OUTBOX) private readonly outbox: EventOutbox,
    private readonly configs: MonitorConfigRepository,
  ) {}

  async settingsOf(tx: Tx, tenantId: string): Promise<MonitorSettings> {
    return effectiveSettings((await this.configs.find(tx, tenantId))?.settings);
  }

  get(ctx: RequestContext): Promise<MonitorConfigResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const stored = await this.configs.find(tx, ctx.tenantId);
      return toResponse(
        effectiveSettings(stored?.settings),
        stored?.updatedAt,
        stored?.updatedByLabel,
      );
    });
  }

  update(ctx: RequestContext, dto: UpdateMonitorConfigDto): Promise<MonitorConfigResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.configs.lock(tx, ctx.tenantId);
      const before = effectiveSettings((await this.configs.find(tx, ctx.tenantId))?.settings);
      const stored = toStored(dto);
      const after = effectiveSettings(stored);
      await this.configs.save(tx, ctx.tenantId, stored, ctx.principal.label);
      const changed = changedDetectors(before, after);
      if (changed.length > 0 || before.dismissSuppressionHours !== after.dismissSuppressionHours) {
        await this.outbox.add(tx, 'MONITOR_CONFIG_CHANGED', eventContext(ctx), {
          actor: actorOf(ctx),
          summary: `monitor settings changed${changed.length ? ` for ${changed.join(', ')}` : ''}`,
          changedDetectors: changed,
          settings: {
            dismissSuppressionHours: { hours: after.dismissSuppressionHours },
            ...after.detectors,
          },
          // D42: the changed settings before and after.
          details: {
            ...changedFields({
              target: { kind: 'MONITOR_CONFIG', id: ctx.tenantId },
              before: {
                dismissSuppressionHours: before.dismissSuppressionHours,
                ...before.detectors,
              },
              after: { dismissSuppressionHours: after.dismissSuppressionHours, ...after.detectors },
            }),
          },
        });
      }
      const saved = await this.configs.find(tx, ctx.tenantId);
      return toResponse(after, saved?.updatedAt, saved?.updatedByLabel);
    });
  }
}

function toStored(dto: UpdateMonitorConfigDto): StoredMonitorSettings {
  const detectors: StoredMonitorSettings['detectors'] = {};
  for (const { detector, ...overrides } of dto.detectors ?? []) {
    detectors[detector] = { ...detectors[detector], ...withoutUndefined(overrides) };
  }
  return { dismissSuppressionHours: dto.dismissSuppressionHours, detectors };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function toResponse(
  settings: MonitorSettings,
  updatedAt: Date | undefined,
  updatedByLabel: string | null | undefined,
): MonitorConfigResponse {
  return {
    dismissSuppressionHours: settings.dismissSuppressionHours,
    detectors: ALL_DETECTORS.map((detector) => ({ detector, ...settings.detectors[detector] })),
    updatedAt: updatedAt ? updatedAt.toISOString() : null,
    updatedByLabel: updatedByLabel ?? null,
  };
}
