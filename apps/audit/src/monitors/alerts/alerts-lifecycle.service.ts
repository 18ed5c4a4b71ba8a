import { Inject, Injectable } from '@nestjs/common';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { DismissReason } from '@agp/contracts';
import { Database } from '@agp/database';
import { EventOutbox } from '@agp/messaging';

import { AUDIT_DATABASE, AUDIT_OUTBOX } from '../../database/tokens';
import { MonitorConfigService } from '../config/monitor-config.service';
import { MonitorsException } from '../monitors.exception';
import { AlertResponse, toAlertResponse } from './alert-response';
import { LifecycleOperation, lifecycleFields, nextState } from '../engine/alert-transitions';
import { AlertsRepository } from './alerts.repository';
import { sourceOf } from './alert-source';

export interface LifecycleRequest {
  note?: string;
  reason?: DismissReason;
}

/** D14: acknowledge, resolve, dismiss and reopen; each appends history and emits one event. */
@Injectable()
export class AlertsLifecycleService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(AUDIT_OUTBOX) private readonly outbox: EventOutbox,
    private readonly alerts: AlertsRepository,
    private readonly config: MonitorConfigService,
  ) {}

  change(
    ctx: RequestContext,
    alertId: string,
    operation: LifecycleOperation,
    request: LifecycleRequest,
  ): Promise<AlertResponse> {
    const { tenantId } = ctx;
    return this.database.inTenant(tenantId, async (tx) => {
      const alert = await this.alerts.find(tx, tenantId, alertId, true);
      if (!alert) {
        throw MonitorsException.alertNotFound(alertId);
      }
      const next = nextState(alert.status, operation);
      if (!next) {
        throw MonitorsException.transitionNotAllowed(operation, alert.status);
      }
      if (operation === 'reopen') {
        const other = await this.alerts.findOtherActive(tx, tenantId, alert);
        if (other) {
          throw MonitorsException.anotherAlertActive(other);
        }
      }
      const at = new Date();
      const settings = await this.config.settingsOf(tx, tenantId);
      const fields = lifecycleFields(operation, {
        at,
        actorLabel: ctx.principal.label,
        reason: request.reason,
        suppressionHours: settings.dismissSuppressionHours,
      });
      await this.alerts.applyLifecycle(tx, tenantId, alertId, fields);
      const note = request.note ?? null;
      await this.alerts.appendHistory(tx, tenantId, {
        alertId,
        at,
        action: next.action,
        actorId: ctx.principal.subject,
        actorLabel: ctx.principal.label,
        note,
      });
      await this.outbox.add(tx, 'MONITOR_ALERT_LIFECYCLE_CHANGED', eventContext(ctx), {
        actor: actorOf(ctx),
        summary: `${alert.detector} alert ${next.action.toLowerCase()} by ${ctx.principal.label}`,
        alertId,
        ...sourceOf(alert),
        subject: { type: alert.subjectType, id: alert.subjectId },
        lifecycleAction: next.action,
        fromStatus: alert.status,
        toStatus: next.to,
        ...(note !== null ? { note } : {}),
        ...(request.reason ? { dismissedReason: request.reason } : {}),
      });
      const updated = await this.alerts.find(tx, tenantId, alertId);
      return toAlertResponse(
        updated ?? alert,
        await this.alerts.historyOf(tx, tenantId, [alertId]),
      );
    });
  }
}
