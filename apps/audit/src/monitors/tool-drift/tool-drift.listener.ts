import { Inject, Injectable, OnModuleInit } from '@nestjs/common';

import { IngestedEvents } from '../../ingest/ingested-events';
import { AlertRaiserService } from '../alerts/alert-raiser.service';
import { MonitorConfigService } from '../config/monitor-config.service';
import { Finding } from '../engine/monitors.types';
import { toolDriftFinding } from '../engine/detectors/tool-drift-detector';
import { QuietService } from '../quiet/quiet.service';

/**
 * M59: TOOL_DEFINITION_DRIFT is raised as the relay's MCP_LIFECYCLE of a drifted or shadowed tool
 * (D51) is stored, in the ingest's transaction (M16): an administrator hears of a rug pull when it
 * happens, not at a tick, and a redelivered event raises nothing twice (the ingest sees it once).
 */
@Injectable()
export class ToolDriftListener implements OnModuleInit {
  constructor(
    @Inject(IngestedEvents) private readonly ingested: IngestedEvents,
    private readonly raiser: AlertRaiserService,
    private readonly config: MonitorConfigService,
    private readonly quiet: QuietService,
  ) {}

  onModuleInit(): void {
    this.ingested.observe(
      'monitor-tool-drift',
      async (tx, envelopes) => {
        const byTenant = new Map<string, { findings: Finding[]; correlationId: string }>();
        for (const envelope of envelopes) {
          const finding =
            envelope.type === 'MCP_LIFECYCLE'
              ? toolDriftFinding({
                  occurredAt: envelope.occurredAt,
                  details: envelope.data.details,
                })
              : undefined;
          if (!finding) {
            continue;
          }
          const entry = byTenant.get(envelope.tenantId) ?? {
            findings: [],
            correlationId: envelope.correlationId,
          };
          entry.findings.push(finding);
          byTenant.set(envelope.tenantId, entry);
        }
        for (const [tenantId, { findings, correlationId }] of byTenant) {
          const settings = await this.config.settingsOf(tx, tenantId);
          if (!settings.detectors.TOOL_DEFINITION_DRIFT.enabled) {
            continue;
          }
          const suppressionOf = await this.quiet.lookupAt(tx, tenantId, new Date());
          await this.raiser.raise(tx, tenantId, findings, correlationId, suppressionOf);
        }
      },
      ['MCP_LIFECYCLE'],
    );
  }
}
