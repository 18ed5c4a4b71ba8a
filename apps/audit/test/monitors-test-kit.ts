import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EventEnvelope, EventType } from '@agp/contracts';
import { Database } from '@agp/database';
import { EVENT_TRANSPORT, EventTransport } from '@agp/messaging';
import { TestTokenIssuer } from '@agp/testing';

import { AUDIT_DATABASE } from '../src/database/tokens';
import { AlertRaiserService, RaiseOutcome } from '../src/monitors/alerts/alert-raiser.service';
import { deterministicUuid } from '../src/monitors/engine/deterministic-uuid';
import { DetectorTickService } from '../src/monitors/tick/detector-tick.service';
import { Finding } from '../src/monitors/engine/monitors.types';
import { RollupsRepository } from '../src/monitors/rollups/rollups.repository';
import { RollupWriter } from '../tools/simulator/simulation';

/** Events of the given types as they go out on the bus (the relay published them). */
export class EventProbe {
  readonly received: EventEnvelope[] = [];

  static async attach(app: NestFastifyApplication, types: EventType[]): Promise<EventProbe> {
    const probe = new EventProbe();
    await app
      .get<EventTransport>(EVENT_TRANSPORT)
      .subscribe({ name: `probe-${randomUUID()}`, types }, async (envelope) => {
        probe.received.push(envelope);
      });
    return probe;
  }

  of(type: EventType, alertId?: string): EventEnvelope[] {
    return this.received.filter(
      (e) =>
        e.type === type &&
        (alertId === undefined || (e.data as { alertId?: string }).alertId === alertId),
    );
  }
}

export function databaseOf(app: NestFastifyApplication): Database {
  return app.get<Database>(AUDIT_DATABASE);
}

export function writerOf(app: NestFastifyApplication): RollupWriter {
  return new RollupWriter(databaseOf(app), app.get(RollupsRepository));
}

export function ticksOf(app: NestFastifyApplication): DetectorTickService {
  return app.get(DetectorTickService);
}

/** An agent-volume finding of a known subject, as a detector would make it. */
export function volumeFinding(
  tenantId: string,
  agentId: string,
  at: Date,
  observedTotal = 400,
): Finding {
  return {
    findingId: deterministicUuid(tenantId, 'AGENT_VOLUME_ANOMALY', agentId, at.toISOString()),
    detector: 'AGENT_VOLUME_ANOMALY',
    severity: 'MEDIUM',
    direction: 'SPIKE',
    subject: { type: 'AGENT', id: agentId },
    summary: `AGENT ${agentId}: requests up`,
    evidence: {
      kind: 'ENTITY_VOLUME',
      subjectType: 'AGENT',
      subjectId: agentId,
      direction: 'SPIKE',
      observedTotal,
      observedPerMinute: observedTotal / 15,
      baselinePerMinute: 6.5,
      ratio: observedTotal / 97.5,
      sampleMinutes: 15,
    },
    detectedAt: at,
  };
}

export function raise(
  app: NestFastifyApplication,
  tenantId: string,
  findings: Finding[],
): Promise<RaiseOutcome> {
  return databaseOf(app).inTenant(tenantId, (tx) =>
    app.get(AlertRaiserService).raise(tx, tenantId, findings, randomUUID()),
  );
}

/** A caller that can also POST (the audit engineer's TestCaller covers GET and PUT). */
export class MonitorsCaller {
  private constructor(
    readonly tenantId: string,
    readonly subject: string,
    readonly label: string,
    private readonly token: string,
  ) {}

  static async create(
    issuer: TestTokenIssuer,
    tenantId: string,
    perms: string[],
    name = 'Ann Operator',
  ): Promise<MonitorsCaller> {
    const subject = randomUUID();
    const token = await issuer.token({ tenantId, subject, perms, name });
    return new MonitorsCaller(tenantId, subject, name, token);
  }

  async call<T = Record<string, unknown>>(
    app: NestFastifyApplication,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    // A 204 has no body.
    return { status: response.statusCode, body: (response.body ? response.json() : {}) as T };
  }
}
