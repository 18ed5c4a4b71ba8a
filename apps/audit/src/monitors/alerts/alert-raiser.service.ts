import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Tx } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { EventOutbox } from '@agp/messaging';
import { Logger } from 'pino';

import { AUDIT_OUTBOX } from '../../database/tokens';
import { Finding } from '../engine/monitors.types';
import { AlertRecord } from './alert.record';
import { sourceOf } from './alert-source';
import { AlertsRepository, Suppression, sourceKey } from './alerts.repository';
import { evidenceProblems } from './evidence-validation';

export interface RaiseOutcome {
  opened: number;
  updated: number;
  suppressed: number;
  rejected: number;
  /** Findings kept quiet by a mute or a downtime (M22): stored, not announced. */
  muted: number;
  resolved: number;
}

/** Which mute or downtime, if any, covers a finding at its tick (M22). */
export type SuppressionLookup = (finding: Finding) => Suppression | undefined;

const SERVICE_ACTOR = { type: 'SERVICE', label: 'audit monitors' };

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
    suppressionOf: SuppressionLookup = () => undefined,
  ): Promise<RaiseOutcome> {
    const outcome: RaiseOutcome = {
      opened: 0,
      updated: 0,
      suppressed: 0,
      rejected: 0,
      muted: 0,
      resolved: 0,
    };
    const valid: Finding[] = [];
    for (const finding of findings) {
      const problems = evidenceProblems(finding.evidence);
      if (problems.length > 0) {
        // A detector bug must never reach the store or the bus; it is logged for the operator.
        this.logger.error(
          { tenantId, detector: finding.detector, problems },
          'monitor finding with invalid evidence dropped',
        );
        outcome.rejected += 1;
      } else {
        valid.push(finding);
      }
    }
    // M28: a few statements per tick, not three per finding. Upserts never dismiss, so which
    // findings a dismissal suppresses (M9) is known before any of them is written.
    const suppressed = await this.alerts.suppressedAmong(tx, tenantId, valid);
    outcome.suppressed += suppressed.size;
    for (const round of rounds(valid.filter((_f, i) => !suppressed.has(i)))) {
      const before = await this.alerts.activeForAll(tx, tenantId, round);
      const suppressions = round.map((finding) => suppressionOf(finding));
      const written = await this.alerts.upsertFindings(
        tx,
        tenantId,
        round.map((finding, i) => ({
          alertId: randomUUID(),
          finding,
          suppression: suppressions[i],
        })),
      );
      for (const [i, { alert, isNew }] of written.entries()) {
        if (suppressions[i]) {
          outcome.muted += 1;
          continue;
        }
        // M22: an alert that was kept quiet is announced once its mute or downtime is over.
        const wasQuiet = before[i] !== undefined && before[i].suppressedByKind !== null;
        if (!isNew && !wasQuiet) {
          outcome.updated += 1;
          continue;
        }
        outcome.opened += 1;
        await this.announce(tx, tenantId, alert, correlationId);
      }
    }
    return outcome;
  }

  /** Gaps that closed resolve their alerts by themselves (issue 17). */
  async resolveClosed(
    tx: Tx,
    tenantId: string,
    detectors: readonly string[],
    monitorIds: readonly string[],
    findings: Finding[],
    correlationId: string,
    at: Date,
  ): Promise<number> {
    const open = new Set(findings.map(keyOf));
    let resolved = 0;
    for (const alert of await this.alerts.activeOf(tx, tenantId, detectors, monitorIds)) {
      if (
        open.has(keyOf({ ...alert, subject: { type: alert.subjectType, id: alert.subjectId } }))
      ) {
        continue;
      }
      await this.alerts.applyLifecycle(tx, tenantId, alert.id, {
        status: 'RESOLVED',
        resolvedAt: at,
        resolvedByLabel: SERVICE_ACTOR.label,
      });
      const note = 'resolved by itself: the condition no longer holds';
      await this.alerts.appendHistory(tx, tenantId, {
        alertId: alert.id,
        at,
        action: 'RESOLVED',
        actorId: 'audit-monitors',
        actorLabel: SERVICE_ACTOR.label,
        note,
      });
      await this.outbox.add(
        tx,
        'MONITOR_ALERT_LIFECYCLE_CHANGED',
        { tenantId, correlationId },
        {
          actor: SERVICE_ACTOR,
          summary: `${alert.detector} alert resolved by itself`,
          alertId: alert.id,
          ...sourceOf(alert),
          subject: { type: alert.subjectType, id: alert.subjectId },
          lifecycleAction: 'RESOLVED',
          fromStatus: alert.status,
          toStatus: 'RESOLVED',
          note,
        },
      );
      resolved += 1;
    }
    return resolved;
  }

  private async announce(
    tx: Tx,
    tenantId: string,
    alert: AlertRecord,
    correlationId: string,
  ): Promise<void> {
    await this.outbox.add(
      tx,
      'MONITOR_ALERT_TRIGGERED',
      { tenantId, correlationId },
      {
        actor: SERVICE_ACTOR,
        summary: alert.summary,
        alertId: alert.id,
        findingId: alert.findingId,
        ...sourceOf(alert),
        severity: alert.severity,
        direction: alert.direction,
        subject: { type: alert.subjectType, id: alert.subjectId },
        detectedAt: alert.detectedAt.toISOString(),
        evidence: alert.evidence,
      },
    );
  }
}

function keyOf(
  item: Pick<Finding, 'detector' | 'subject'> & { monitorId?: string | null },
): string {
  return `${item.detector}|${item.monitorId ?? ''}|${item.subject.type}|${item.subject.id}`;
}

// Findings split so that no round holds two of the same source and subject (one statement cannot
// write a row twice): the n-th finding of each alert goes to round n, in the findings' order, as
// one finding after the other would have updated it.
export function rounds(findings: Finding[]): Finding[][] {
  const result: Finding[][] = [];
  const seen = new Map<string, number>();
  for (const finding of findings) {
    const key = sourceKey(
      finding.detector,
      finding.monitorId,
      finding.subject.type,
      finding.subject.id,
    );
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    (result[n] ??= []).push(finding);
  }
  return result;
}
