import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { JobRuns, ScheduledJob } from '@agp/jobs';
import { Logger } from 'pino';

import { AUDIT_DATABASE } from '../../database/tokens';
import { AlertRaiserService, RaiseOutcome } from '../alerts/alert-raiser.service';
import { GOVERNANCE_DETECTORS } from '../engine/detector-settings';
import { MonitorConfigService } from '../config/monitor-config.service';
import { CustomMonitorsEvaluatorService } from '../custom/custom-monitors-evaluator.service';
import { CustomMonitorsRepository } from '../custom/custom-monitors.repository';
import { MetricSeriesRepository } from '../custom/metric-series.repository';
import { GovernanceEvaluatorService } from '../governance/governance-evaluator.service';
import { GovernanceProjectionRepository } from '../governance/governance-projection.repository';
import { QuietService } from '../quiet/quiet.service';
import { Finding } from '../engine/monitors.types';
import { RollupsRepository } from '../rollups/rollups.repository';
import { DetectorEvaluatorService } from './detector-evaluator.service';
import { DAY_MS, MINUTE_MS } from '../engine/detectors/time-window';

const ROLLUP_RETENTION_DAYS = 35;
/** Custom monitors reach back 14 days and a minute (CHANGE over LAST_7D, M21): a day more. */
const SERIES_RETENTION_DAYS = 15;

export interface TickReport extends RaiseOutcome {
  minute: Date;
  tenants: number;
  findings: Array<Finding & { tenantId: string }>;
  /** Mutes that ran out and had their MONITOR_UNMUTED recorded at this tick (M25). */
  unmuted: number;
}

/** Every replica wakes a second after each minute; the one that claims it works (M12, F30, D14). */
@Injectable()
export class DetectorTickService {
  readonly schedule: ScheduledJob<TickReport>;

  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly rollups: RollupsRepository,
    private readonly config: MonitorConfigService,
    private readonly evaluator: DetectorEvaluatorService,
    private readonly raiser: AlertRaiserService,
    private readonly governance: GovernanceEvaluatorService,
    private readonly governanceProjection: GovernanceProjectionRepository,
    private readonly custom: CustomMonitorsEvaluatorService,
    private readonly customMonitors: CustomMonitorsRepository,
    private readonly quiet: QuietService,
    private readonly series: MetricSeriesRepository,
  ) {
    this.schedule = new ScheduledJob({
      name: 'audit-monitors',
      intervalMs: MINUTE_MS,
      offsetMs: 1_000,
      runs: new JobRuns(database),
      work: (minute) => this.evaluate(minute),
      logger,
    });
  }

  /** Runs the tick of `now`'s minute, or returns undefined when another replica already ran it. */
  tick(now: Date = new Date()): Promise<TickReport | undefined> {
    return this.schedule.runAt(now);
  }

  private async evaluate(minute: Date): Promise<TickReport> {
    const correlationId = randomUUID();
    // M25: mutes that ran out record MONITOR_UNMUTED here, on the one replica that owns the minute.
    const unmuted = await this.quiet
      .recordExpiries(minute, correlationId)
      .catch((error: unknown) => {
        this.logger.error({ err: error, minute }, 'recording expired mutes failed');
        return 0;
      });
    const since = new Date(minute.getTime() - ROLLUP_RETENTION_DAYS * DAY_MS);
    const tenants = await this.database.asSystem(async (tx) => [
      ...new Set([
        ...(await this.rollups.activeTenants(tx, since)),
        ...(await this.governanceProjection.tenants(tx)),
        ...(await this.customMonitors.tenants(tx)),
      ]),
    ]);
    const report: TickReport = {
      minute,
      tenants: tenants.length,
      findings: [],
      opened: 0,
      updated: 0,
      suppressed: 0,
      rejected: 0,
      muted: 0,
      resolved: 0,
      unmuted,
    };
    for (const tenantId of tenants) {
      try {
        // Reads, then the alerts' writes (M34).
        const settingsRead = this.database.inTenant(tenantId, (tx) =>
          this.config.settingsOf(tx, tenantId),
        );
        const [settings, traffic, governance, customs] = await Promise.all([
          settingsRead,
          settingsRead.then((read) => this.evaluator.evaluate(tenantId, minute, read)),
          settingsRead.then((read) => this.governance.evaluate(tenantId, minute, read)),
          this.custom.evaluate(tenantId, minute),
        ]);
        const selfResolving = [...governance, ...customs.findings];
        const findings = [...traffic, ...selfResolving];
        const outcome = await this.database.inTenant(tenantId, async (tx) => {
          const suppressionOf = await this.quiet.lookupAt(tx, tenantId, minute);
          const raised = await this.raiser.raise(
            tx,
            tenantId,
            findings,
            correlationId,
            suppressionOf,
          );
          // Governance gaps and custom conditions resolve by themselves once they no longer hold.
          raised.resolved = await this.raiser.resolveClosed(
            tx,
            tenantId,
            GOVERNANCE_DETECTORS.filter((d) => settings.detectors[d].enabled),
            customs.evaluated,
            selfResolving,
            correlationId,
            minute,
          );
          return raised;
        });
        report.findings.push(...findings.map((finding) => ({ ...finding, tenantId })));
        report.opened += outcome.opened;
        report.updated += outcome.updated;
        report.suppressed += outcome.suppressed;
        report.rejected += outcome.rejected;
        report.muted += outcome.muted;
        report.resolved += outcome.resolved;
      } catch (error) {
        // One tenant's failure must not cost the others their tick.
        this.logger.error({ err: error, tenantId, minute }, 'monitor tick failed for a tenant');
      }
    }
    if (minute.getUTCMinutes() === 0) {
      await this.database.asSystem(async (tx) => {
        await this.rollups.prune(tx, since);
        await this.series.prune(
          tx,
          Math.floor((minute.getTime() - SERIES_RETENTION_DAYS * DAY_MS) / 60_000),
        );
      });
    }
    return report;
  }
}
