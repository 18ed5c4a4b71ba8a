import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { Page, pageOf, pageOffset } from '@agp/http';

import { AUDIT_DATABASE } from '../../database/tokens';
import { MonitorsException } from '../monitors.exception';
import { AlertResponse, toAlertResponse } from './alert-response';
import { AlertsRepository } from './alerts.repository';
import { ListAlertsQueryDto } from './dto/list-alerts-query.dto';

@Injectable()
export class AlertsQueryService {
  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    private readonly alerts: AlertsRepository,
  ) {}

  list(tenantId: string, query: ListAlertsQueryDto): Promise<Page<AlertResponse>> {
    return this.database.inTenant(tenantId, async (tx) => {
      const filter = {
        statuses: query.status,
        severities: query.severity,
        detectors: query.detector,
        monitorId: query.monitorId,
        subjectType: query.subjectType,
        subjectId: query.subjectId,
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
      };
      const { rows, total } = await this.alerts.list(
        tx,
        tenantId,
        filter,
        query.pageSize,
        pageOffset(query),
      );
      const history = await this.alerts.historyOf(
        tx,
        tenantId,
        rows.map((row) => row.id),
      );
      const items = rows.map((row) =>
        toAlertResponse(
          row,
          history.filter((entry) => entry.alertId === row.id),
        ),
      );
      return pageOf(items, total, query);
    });
  }

  get(tenantId: string, alertId: string): Promise<AlertResponse> {
    return this.database.inTenant(tenantId, async (tx) => {
      const alert = await this.alerts.find(tx, tenantId, alertId);
      if (!alert) {
        throw MonitorsException.alertNotFound(alertId);
      }
      return toAlertResponse(alert, await this.alerts.historyOf(tx, tenantId, [alertId]));
    });
  }
}
