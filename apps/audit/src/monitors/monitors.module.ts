import { DynamicModule, Module } from '@nestjs/common';

import { AlertRaiserService } from './alerts/alert-raiser.service';
import { AlertsController } from './alerts/alerts.controller';
import { AlertsLifecycleService } from './alerts/alerts-lifecycle.service';
import { AlertsQueryService } from './alerts/alerts-query.service';
import { AlertsRepository } from './alerts/alerts.repository';
import { MonitorConfigController } from './config/monitor-config.controller';
import { MonitorConfigRepository } from './config/monitor-config.repository';
import { MonitorConfigService } from './config/monitor-config.service';
import { DetectorEvaluatorService } from './tick/detector-evaluator.service';
import { DetectorTickService } from './tick/detector-tick.service';
import { HistoryDispersionRepository } from './tick/history-dispersion.repository';
import { HistoryDispersionService } from './tick/history-dispersion.service';
import { MonitorsScheduler } from './tick/monitors.scheduler';
import { CustomMonitorsController } from './custom/custom-monitors.controller';
import { CustomMonitorsEvaluatorService } from './custom/custom-monitors-evaluator.service';
import { CustomMonitorsRepository } from './custom/custom-monitors.repository';
import { CustomMonitorsService } from './custom/custom-monitors.service';
import { MetricSeriesListener } from './custom/metric-series.listener';
import { MetricSeriesRepository } from './custom/metric-series.repository';
import { MetricSeriesService } from './custom/metric-series.service';
import { RollupSeriesRepository } from './custom/rollup-series.repository';
import { GovernanceEvaluatorService } from './governance/governance-evaluator.service';
import { GovernanceListener } from './governance/governance.listener';
import { GovernanceProjectionRepository } from './governance/governance-projection.repository';
import { QuietController } from './quiet/quiet.controller';
import { EventFindingsListener } from './event-findings/event-findings.listener';
import { QuietRepository } from './quiet/quiet.repository';
import { QuietService } from './quiet/quiet.service';
import { IngestedEventsModule } from '../ingest/ingested-events.module';
import { MONITORS_OPTIONS, MonitorsOptions } from './monitors.options';
import { RollupsListener } from './rollups/rollups.listener';
import { RollupsRepository } from './rollups/rollups.repository';
import { RollupsService } from './rollups/rollups.service';

/** Monitors and alerts (issue 7, M16, D14). */
@Module({})
export class MonitorsModule {
  static forRoot(options: MonitorsOptions = {}): DynamicModule {
    return {
      module: MonitorsModule,
      imports: [IngestedEventsModule],
      controllers: [
        AlertsController,
        MonitorConfigController,
        QuietController,
        CustomMonitorsController,
      ],
      providers: [
        { provide: MONITORS_OPTIONS, useValue: options },
        AlertsRepository,
        AlertsQueryService,
        AlertsLifecycleService,
        AlertRaiserService,
        MonitorConfigRepository,
        MonitorConfigService,
        RollupsRepository,
        RollupsService,
        RollupsListener,
        DetectorEvaluatorService,
        HistoryDispersionRepository,
        HistoryDispersionService,
        DetectorTickService,
        MonitorsScheduler,
        GovernanceProjectionRepository,
        GovernanceListener,
        GovernanceEvaluatorService,
        CustomMonitorsRepository,
        CustomMonitorsService,
        CustomMonitorsEvaluatorService,
        RollupSeriesRepository,
        MetricSeriesRepository,
        MetricSeriesService,
        MetricSeriesListener,
        QuietRepository,
        QuietService,
        EventFindingsListener,
      ],
      exports: [DetectorTickService, RollupsService, RollupsRepository, MetricSeriesService],
    };
  }
}
