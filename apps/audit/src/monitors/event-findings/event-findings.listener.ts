import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { AuditEventType } from '@agp/contracts';

import { AuditEnvelope, IngestedEvents } from '../../ingest/ingested-events';
import { AlertRaiserService } from '../alerts/alert-raiser.service';
import { MonitorConfigService } from '../config/monitor-config.service';
import { EventDetector } from '../engine/detector-settings';
import { evaluationRunFinding } from '../engine/detectors/evaluation-run-detector';
import { Finding } from '../engine/monitors.types';
import { toolDriftFinding } from '../engine/detectors/tool-drift-detector';
import { budgetFindings } from '../engine/detectors/budget-detector';
import { QuietService } from '../quiet/quiet.service';

/** The detectors raised from one stored event each, and how each reads its event. */
const EVENT_FINDERS: ReadonlyArray<{
  detector: EventDetector;
  find(envelope: AuditEnvelope): Finding | Finding[] | undefined;
}> = [
  {
    detector: 'TOOL_DEFINITION_DRIFT',
    find: (envelope) =>
      envelope.type === 'MCP_LIFECYCLE'
        ? toolDriftFinding({ occurredAt: envelope.occurredAt, details: envelope.data.details })
        : undefined,
  },
  {
    detector: 'EVALUATION_RUN_FAILED',
    find: (envelope) =>
      envelope.type === 'POLICY_LIFECYCLE'
        ? evaluationRunFinding({
            tenantId: envelope.tenantId,
            occurredAt: envelope.occurredAt,
            change: (envelope.data as { change?: unknown }).change,
            details: envelope.data.details,
          })
        : undefined,
  },
  {
    detector: 'BUDGET_SOFT_LIMIT',
    find: (envelope) =>
      BUDGET_EVENT_TYPES.includes(envelope.type)
        ? budgetFindings({
            tenantId: envelope.tenantId,
            occurredAt: envelope.occurredAt,
            details: envelope.data.details,
          })
        : undefined,
  },
];

/** spend.md SP11: the events that say a budget's soft limit was reached. */
const BUDGET_EVENT_TYPES: readonly AuditEventType[] = ['LLM_GATEWAY_CALL', 'X402_PAYMENT_SUCCESS'];

/** A29: the only events the finders read, so a batch without them costs this observer nothing. */
const EVENT_TYPES: readonly AuditEventType[] = [
  'MCP_LIFECYCLE',
  'POLICY_LIFECYCLE',
  ...BUDGET_EVENT_TYPES,
];

/**
 * M59, M76, spend.md SP11: findings raised as their event is stored, in the ingest's transaction (M16): an
 * administrator hears of a rug pull or a failing pack when it happens, not at a tick, and a
 * redelivered event raises nothing twice (the ingest sees it once).
 */
@Injectable()
export class EventFindingsListener implements OnModuleInit {
  constructor(
    @Inject(IngestedEvents) private readonly ingested: IngestedEvents,
    private readonly raiser: AlertRaiserService,
    private readonly config: MonitorConfigService,
    private readonly quiet: QuietService,
  ) {}

  onModuleInit(): void {
    this.ingested.observe(
      'monitor-event-findings',
      async (tx, envelopes) => {
        const byTenant = new Map<string, { found: FoundBy[]; correlationId: string }>();
        for (const envelope of envelopes) {
          for (const { detector, find } of EVENT_FINDERS) {
            const found = find(envelope);
            const findings = found === undefined ? [] : Array.isArray(found) ? found : [found];
            if (findings.length === 0) {
              continue;
            }
            const entry = byTenant.get(envelope.tenantId) ?? {
              found: [],
              correlationId: envelope.correlationId,
            };
            entry.found.push(...findings.map((finding) => ({ detector, finding })));
            byTenant.set(envelope.tenantId, entry);
          }
        }
        for (const [tenantId, { found, correlationId }] of byTenant) {
          const settings = await this.config.settingsOf(tx, tenantId);
          const findings = found
            .filter(({ detector }) => settings.detectors[detector].enabled)
            .map(({ finding }) => finding);
          if (findings.length === 0) {
            continue;
          }
          const suppressionOf = await this.quiet.lookupAt(tx, tenantId, new Date());
          await this.raiser.raise(tx, tenantId, findings, correlationId, suppressionOf);
        }
      },
      EVENT_TYPES,
    );
  }
}

interface FoundBy {
  detector: EventDetector;
  finding: Finding;
}
