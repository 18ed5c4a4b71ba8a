import { Inject, Injectable } from '@nestjs/common';
import { Principal, allows } from '@agp/auth';
import { Database } from '@agp/database';
import { HttpProblem, unacceptableInput } from '@agp/http';

import { AUDIT_ENV } from '../../common/audit-env.token';
import { AuditEnv } from '../../config/audit.env';
import { AUDIT_DATABASE } from '../../database/tokens';
import { OtlpBody } from '../otlp/otlp-body';
import { ReadItems, readLogs, readSpans } from '../otlp/otlp-items';
import { OtlpSignal, PartialSuccess, decodeRequest } from '../otlp/otlp-proto';
import { readSpansWire } from '../otlp/otlp-wire-spans';
import { MalformedOtlp } from '../otlp/otlp-values';
import {
  LOGS_TABLE,
  SPANS_TABLE,
  TelemetryPartitionsService,
} from '../telemetry-partitions.service';
import { Column, LOG_COLUMNS, SPAN_COLUMNS, Sender } from './telemetry-columns';
import { TelemetryQuotaRepository, quotaWindow } from './telemetry-quota.repository';
import { ExportTooLarge, TelemetryStoreRepository } from './telemetry-store.repository';

/** D54: an agent's own client-credentials token of this scope, or TELEMETRY:WRITE. */
export const TELEMETRY_WRITE_SCOPE = 'telemetry:write';

export interface ExportOutcome {
  accepted: number;
  partial?: PartialSuccess;
}

interface Signal<T> {
  table: string;
  columns: Array<Column<T>>;
  read: (request: unknown) => ReadItems<T>;
  /** Binary protobuf read straight into rows (A45), else decoded and read as JSON's shape is. */
  readProtobuf: (bytes: Buffer) => ReadItems<T>;
  time: (item: T) => string;
  noun: string;
}

const SIGNALS = {
  traces: {
    table: SPANS_TABLE,
    columns: SPAN_COLUMNS,
    read: readSpans,
    readProtobuf: (bytes) => readSpansWire(bytes),
    time: (span) => span.startTime,
    noun: 'spans',
  } satisfies Signal<ReturnType<typeof readSpans>['items'][number]>,
  logs: {
    table: LOGS_TABLE,
    columns: LOG_COLUMNS,
    read: readLogs,
    readProtobuf: (bytes) => readLogs(decodeRequest('logs', bytes)),
    time: (log) => log.logTime,
    noun: 'log records',
  } satisfies Signal<ReturnType<typeof readLogs>['items'][number]>,
};

/** OTLP/HTTP export requests (D46, A21–A25, A22). */
@Injectable()
export class TelemetryIngestService {
  private inflightBytes = 0;

  constructor(
    @Inject(AUDIT_DATABASE) private readonly database: Database,
    @Inject(TelemetryStoreRepository) private readonly store: TelemetryStoreRepository,
    @Inject(TelemetryQuotaRepository) private readonly quota: TelemetryQuotaRepository,
    @Inject(TelemetryPartitionsService) private readonly partitions: TelemetryPartitionsService,
    @Inject(AUDIT_ENV) private readonly env: AuditEnv,
  ) {}

  async export(principal: Principal, signal: OtlpSignal, body: OtlpBody): Promise<ExportOutcome> {
    mayWrite(principal);
    const sender = { tenantId: principal.tenantId, kind: principal.kind, id: principal.subject };
    return this.exportAs(sender, signal, body);
  }

  /** A22, A30: stored as `sender`'s, whoever it is (the relay's own spans name it). */
  async exportAs(sender: Sender, signal: OtlpSignal, body: OtlpBody): Promise<ExportOutcome> {
    if (body.problem) {
      throw body.problem;
    }
    if (!body.encoding) {
      const detail = 'an export request is application/x-protobuf or application/json';
      throw new HttpProblem(415, 'unsupported-media-type', detail);
    }
    // A25: what this replica is decoding is bounded; past it the exporter is told to come back.
    if (this.inflightBytes + body.bytes.length > this.env.TELEMETRY_INFLIGHT_BYTES) {
      throw new HttpProblem(503, 'overloaded', 'telemetry ingest is busy: retry later', undefined, {
        'retry-after': '1',
      });
    }
    this.inflightBytes += body.bytes.length;
    try {
      return await this.exportItems(sender, signal, body);
    } finally {
      this.inflightBytes -= body.bytes.length;
    }
  }

  private async exportItems(
    sender: Sender,
    name: OtlpSignal,
    body: OtlpBody,
  ): Promise<ExportOutcome> {
    const signal = SIGNALS[name] as Signal<unknown>;
    const read = readRequest(body, signal);
    const partial = read.rejected
      ? {
          rejected: read.rejected,
          errorMessage: `${read.rejected} ${signal.noun} rejected; the first: ${read.firstReason}`,
        }
      : undefined;
    if (read.items.length === 0) {
      return { accepted: 0, partial };
    }
    const window = quotaWindow();
    const count = read.items.length;
    const limit = this.env.TELEMETRY_ITEMS_PER_MINUTE;
    const overQuota = (): HttpProblem =>
      new HttpProblem(
        429,
        'quota-exceeded',
        `the tenant's telemetry quota of ${limit} spans and log records a minute is used up`,
        undefined,
        { 'retry-after': String(window.retryAfterSeconds) },
      );
    if (!this.quota.mayFit(sender.tenantId, window.start, count, limit)) {
      throw overQuota();
    }
    await this.partitions
      .of(signal.table)
      .ensureDays(
        [...new Set(read.items.map((item) => signal.time(item).slice(0, 10)))].map(
          (day) => new Date(`${day}T00:00:00.000Z`),
        ),
      );
    const counted = (await this.store.copies(count))
      ? await this.copied(signal, read.items, sender, window.start, overQuota)
      : await this.inserted(signal, read.items, sender, window.start, overQuota);
    // Only now: a total seen before the commit could still roll back.
    this.quota.raiseFloor(sender.tenantId, window.start, counted);
    return { accepted: count, partial };
  }

  /** A46, A49: the rows and the quota's count in one transaction, sent as one query. */
  private async copied<T>(
    signal: Signal<T>,
    items: T[],
    sender: Sender,
    windowStart: string,
    overQuota: () => HttpProblem,
  ): Promise<number> {
    const limit = this.env.TELEMETRY_ITEMS_PER_MINUTE;
    const reserve = this.quota.reserveStatement(sender.tenantId, windowStart, items.length, limit);
    try {
      return Number(
        await this.store.copyExport(signal.table, signal.columns, items, sender, reserve),
      );
    } catch (error) {
      if (error instanceof ExportTooLarge) {
        throw new HttpProblem(413, 'payload-too-large', `${error.message}: send fewer per export`);
      }
      if (!this.quota.isRefusal(error)) {
        throw error;
      }
      // The floor only saves a later export a round trip; its failure must not turn 429 into 500.
      await this.quota.raiseFloorFromCommitted(sender.tenantId, windowStart).catch(() => undefined);
      throw overQuota();
    }
  }

  /**
   * The system scope, as the audit ingest writes (A1): PostgreSQL refuses COPY FROM where
   * row-level security applies. Every row's tenant is the token's, set by the columns (A22). One
   * transaction per export (A46): the rows, then the quota's count, committed together or not at all.
   */
  private inserted<T>(
    signal: Signal<T>,
    items: T[],
    sender: Sender,
    windowStart: string,
    overQuota: () => HttpProblem,
  ): Promise<number> {
    const limit = this.env.TELEMETRY_ITEMS_PER_MINUTE;
    return this.database.asSystem(async (tx) => {
      await this.store.insert(tx, signal.table, signal.columns, items, sender);
      const total = await this.quota.reserve(tx, sender.tenantId, windowStart, items.length, limit);
      if (total === undefined) {
        throw overQuota();
      }
      return total;
    });
  }
}

/** D54: an agent with a `telemetry:write` token, or anyone holding TELEMETRY:WRITE. */
function mayWrite(principal: Principal): void {
  const isAgentSending =
    principal.kind === 'AGENT' && principal.scopes.includes(TELEMETRY_WRITE_SCOPE);
  if (!isAgentSending && !allows(principal.permissions, 'TELEMETRY', 'WRITE')) {
    throw HttpProblem.forbidden('TELEMETRY:WRITE');
  }
}

function readRequest<T>(body: OtlpBody, signal: Signal<T>): ReadItems<T> {
  try {
    if (body.encoding === 'protobuf') {
      return signal.readProtobuf(body.bytes);
    }
    const parsed: unknown = JSON.parse(body.bytes.toString('utf8'));
    const bad = unacceptableInput(parsed);
    if (bad) {
      throw new MalformedOtlp(`${bad.field} ${bad.message}`);
    }
    return signal.read(parsed);
  } catch (error) {
    const reason = error instanceof MalformedOtlp ? error.message : 'it cannot be decoded';
    throw new HttpProblem(400, 'malformed-otlp', `the export request is malformed: ${reason}`);
  }
}
