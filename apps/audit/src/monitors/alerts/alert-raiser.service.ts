import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { EventOutbox } from '@agp/messaging';
import { Logger } from 'pino';

import { AUDIT_OUTBOX } from '../../database/tokens';
import { Finding } from '../monitors.types';
import { AlertsRepository } from './alerts.repository';
import { evidenceProblems } from './evidence-validation';

export interface RaiseOutcome {
  opened: number;
  updated: number;
  suppressed: number;
  rejected: number;
}

/** Turns a tick's findings into alerts (D14) inside the tenant's transaction. */
@Injectable()
export class AlertRaiserService {
  constructor(
    @Inject(AUDIT_OUTBOX) private readonly outbox: EventOutbox,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly alerts: AlertsRepository,
  ) {}

  async raise(
    tx: Tx,
    tenantId: string,
    findings: Finding[],
    correlationId: string,
  ): Promise<RaiseOutcome> {
    const outcome: RaiseOutcome = { opened: 0, updated: 0, suppressed: 0, rejected: 0 };
    for (const finding of findings) {
      const problems = evidenceProblems(finding.evidence);
      if (problems.length > 0) {
        // A detector bug must never reach the store or the bus; it is logged for the operator.
        this.logger.error(
          { tenantId, detector: finding.detector, problems },
          'monitor finding with invalid evidence dropped',
        );
        outcome.rejected += 1;
        continue;
      }
      if (await this.alerts.isSuppressed(tx, tenantId, finding)) {
        outcome.suppressed += 1;
        continue;
      }
      const { alert, isNew } = await this.alerts.upsertFinding(tx, tenantId, randomUUID(), finding);
      if (!isNew) {
        outcome.updated += 1;
        continue;
      }
      outcome.opened += 1;
      await this.outbox.add(
        tx,
        'MONITOR_ALERT_TRIGGERED',
        { tenantId, correlationId },
        {
          actor: { type: 'SERVICE', label: 'audit monitors' },
          summary: alert.summary,
          alertId: alert.id,
          findingId: alert.findingId,
          detector: alert.detector,
          severity: alert.severity,
          direction: alert.direction,
          subject: { type: alert.subjectType, id: alert.subjectId },
          detectedAt: alert.detectedAt.toISOString(),
          evidence: alert.evidence,
        },
      );
    }
    return outcome;
  }
}
