import fc from 'fast-check';

import { CALLER_KINDS, CallerKind, FuzzCase, caseArbitrary, payloadOf } from './fuzz-case';
import { Defect, DefectKind, answerDefects } from './fuzz-oracles';
import { FuzzOperation, OpenApiDocument, operationsOf, parametersOf } from './fuzz-operations';
import { FuzzAnswer, FuzzPlatform, FuzzRequest } from './fuzz-platform';
import { FuzzWorld } from './fuzz-world';
import { Schemas } from './schema-arbitrary';

/** A case that made an oracle fail, shrunk by fast-check: what gets recorded for replay. */
export interface Finding {
  operation: string;
  kind: DefectKind;
  detail: string;
  seed: number;
  case?: FuzzCase;
  /** What the platform logged for it (the error behind a 500). */
  log?: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  operations: number;
  operationsExercised: number;
  perCaller: Record<CallerKind, number>;
  perMutation: Record<string, number>;
  perStatus: Record<string, number>;
  /** Operation key → status → answers. */
  perOperation: Record<string, Record<string, number>>;
  seedRequests: number;
  /** Collections holding resources created through the API, per tenant (what path ids can name). */
  seededCollections: Record<'a' | 'b', number>;
  /** Operations that answered a 2xx at least once: how deep past validation the run reached. */
  operationsWithSuccess: number;
  stateChecks: number;
  findings: Finding[];
  durationMs: number;
}

export interface FuzzOptions {
  seed: number;
  /** Requests generated in all (shrinking and probes come on top). */
  runs: number;
  /** Only these operations (a key prefix such as `POST /relay/v1/agents`). */
  only?: string;
  /** Resource groups fuzzed at once (default 4). */
  concurrency?: number;
  onFinding?: (finding: Finding) => void;
}

class DefectFound extends Error {
  constructor(readonly defects: Defect[]) {
    super(defects.map((d) => `${d.kind}: ${d.detail}`).join('; '));
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The fuzz suite of issue 18 § 3: every operation of the served OpenAPI document attacked with
 * property-based requests (fast-check), every answer judged by the oracles; for each write, a
 * phase of violations only, after which what the tenant's lists say must not have changed.
 */
export class FuzzRunner {
  readonly operations: FuzzOperation[];
  readonly schemas: Schemas;
  private readonly byKey: Map<string, FuzzOperation>;
  private readonly gets: Set<string>;
  private report!: FuzzReport;
  private seeded?: number;
  private readonly succeeded = new Set<string>();

  constructor(
    private readonly platform: FuzzPlatform,
    private readonly world: FuzzWorld,
    document: OpenApiDocument,
  ) {
    this.operations = operationsOf(document);
    this.schemas = document.components?.schemas ?? {};
    this.byKey = new Map(this.operations.map((o) => [o.key, o]));
    this.gets = new Set(this.operations.filter((o) => o.method === 'GET').map((o) => o.path));
    this.resetReport(0);
  }

  /** Builds the request of a case: tokens and identifiers of this run's world. */
  materialize(fuzzCase: FuzzCase): {
    request: FuzzRequest;
    operation: FuzzOperation;
    foreign: boolean;
  } {
    const operation = this.byKey.get(fuzzCase.operation);
    if (!operation) {
      throw new Error(`no operation ${fuzzCase.operation} in the document`);
    }
    const values: Record<string, string> = {};
    const own = FuzzWorld.tenantOf(fuzzCase.caller);
    let foreign = false;
    // Deepest parameter first: a nested resource brings the parents it was created under.
    for (const name of parametersOf(operation.path).reverse()) {
      const argument = fuzzCase.path[name];
      if (values[name] !== undefined || argument === undefined) {
        continue;
      }
      if ('literal' in argument) {
        values[name] = argument.literal;
        continue;
      }
      const resource = this.world.pick(argument.tenant, operation.path, name, argument.pick);
      if (resource) {
        values[name] = resource.id;
        foreign ||= own !== undefined && argument.tenant !== own;
        for (const [parent, id] of Object.entries(resource.parents)) {
          values[parent] ??= id;
        }
      } else {
        values[name] = `00000000-0000-4000-8000-${String(argument.pick).padStart(12, '0')}`;
      }
    }
    const query = new URLSearchParams(fuzzCase.query).toString();
    const url = `${operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? 'x')}${query ? `?${query}` : ''}`;
    const token = this.world.tokenOf(fuzzCase.caller);
    const headers: Record<string, string> = {};
    if (token) {
      headers.authorization = `Bearer ${token}`;
    } else if (fuzzCase.authorization) {
      headers.authorization = fuzzCase.authorization;
    }
    const payload = payloadOf(fuzzCase.body, fuzzCase.contentType);
    if (payload !== undefined && fuzzCase.contentType) {
      headers['content-type'] = fuzzCase.contentType;
    }
    return { request: { method: operation.method, url, headers, payload }, operation, foreign };
  }

  /** Sends one case and judges the answer. */
  async sendCase(
    fuzzCase: FuzzCase,
  ): Promise<{ answer: FuzzAnswer; defects: Defect[]; request: FuzzRequest }> {
    const { request, operation, foreign } = this.materialize(fuzzCase);
    const answer = await this.platform.send(request);
    this.count(fuzzCase, answer);
    const defects = answerDefects(operation, fuzzCase, request, answer, this.world, foreign);
    if (answer.status < 300) {
      this.succeeded.add(operation.key);
    }
    const tenant = FuzzWorld.tenantOf(fuzzCase.caller);
    if (
      tenant &&
      answer.status >= 200 &&
      answer.status < 300 &&
      operation.method === 'POST' &&
      !operation.path.endsWith('}') &&
      !operation.isTraffic
    ) {
      this.noteCreated(tenant, operation, request.url, answer.body);
    }
    return { answer, defects, request };
  }

  async run(options: FuzzOptions): Promise<FuzzReport> {
    const started = Date.now();
    this.resetReport(options.seed);
    this.report.seedRequests = await this.seedWorld(options.seed);
    const operations = this.operations.filter(
      (o) => !options.only || o.key.startsWith(options.only),
    );
    const perOperation = Math.max(4, Math.ceil(options.runs / operations.length));
    const seedOf = (operation: FuzzOperation): number =>
      options.seed + this.operations.indexOf(operation);
    const stateChecked = operations.filter((o) => this.stateProbesOf(o).length > 0);
    const invalidRuns = Math.floor(perOperation / 3);
    // Mixed requests: resource groups side by side (the database waits, not the CPU), each
    // group's operations one after another.
    await inParallel(groupsOf(operations), options.concurrency ?? 4, async (group) => {
      for (const operation of group) {
        const runs = perOperation - (stateChecked.includes(operation) ? invalidRuns : 0);
        await this.check(operation, runs, seedOf(operation), false, options);
      }
    });
    // Violations only, one operation at a time: nothing else may write while a list is compared.
    for (const operation of stateChecked) {
      await this.checkState(
        operation,
        this.stateProbesOf(operation),
        invalidRuns,
        seedOf(operation),
        options,
      );
    }
    this.report.operationsExercised = operations.length;
    this.report.operationsWithSuccess = this.succeeded.size;
    this.report.seededCollections = this.world.seededCollections();
    this.report.durationMs = Date.now() - started;
    return this.report;
  }

  /** Creates the resources of both tenants, once per platform. */
  async seedWorld(seed: number): Promise<number> {
    if (this.seeded === undefined) {
      this.seeded = await this.world.seed(this.operations, this.schemas, seed);
    }
    return this.seeded;
  }

  private async check(
    operation: FuzzOperation,
    numRuns: number,
    seed: number,
    invalidOnly: boolean,
    options: FuzzOptions,
    onAnswer?: (fuzzCase: FuzzCase, answer: FuzzAnswer) => void,
  ): Promise<void> {
    const arbitrary = caseArbitrary(operation, { schemas: this.schemas, invalidOnly });
    const details = await fc.check(
      fc.asyncProperty(arbitrary, async (fuzzCase) => {
        const { answer, defects } = await this.sendCase(fuzzCase);
        onAnswer?.(fuzzCase, answer);
        if (defects.length) {
          throw new DefectFound(defects);
        }
      }),
      { numRuns, seed, maxSkipsPerRun: 0 },
    );
    if (details.failed && details.counterexample) {
      const [fuzzCase] = details.counterexample;
      const { defects, answer } = await this.sendCase(fuzzCase);
      const correlationId = String(answer.headers['x-correlation-id'] ?? '');
      const defect = defects[0] ?? {
        kind: 'server-error' as const,
        detail: details.errorInstance instanceof Error ? details.errorInstance.message : 'unknown',
      };
      this.found(options, {
        operation: operation.key,
        kind: defect.kind,
        detail: defect.detail,
        seed,
        case: fuzzCase,
        log: this.platform.errorLog
          .filter((line) => correlationId && line.includes(correlationId))
          .join('')
          .slice(0, 2_000),
      });
    }
  }

  /** Violations only; if the tenant's own callers never succeeded, its lists must read the same. */
  private async checkState(
    operation: FuzzOperation,
    probes: string[],
    numRuns: number,
    seed: number,
    options: FuzzOptions,
  ): Promise<void> {
    const before = await this.digest(probes);
    let accepted = 0;
    await this.check(operation, numRuns, seed + 100_000, true, options, (fuzzCase, answer) => {
      if (FuzzWorld.tenantOf(fuzzCase.caller) === 'a' && answer.status < 300) {
        accepted += 1;
      }
    });
    if (accepted > 0) {
      return;
    }
    this.report.stateChecks += 1;
    const after = await this.digest(probes);
    if (after !== before) {
      this.found(options, {
        operation: operation.key,
        kind: 'state-changed-by-rejected-write',
        detail: `${probes.join(', ')} changed after ${numRuns} rejected requests: ${firstDifference(before, after)}`,
        seed: seed + 100_000,
      });
    }
  }

  /** What tenant A's lists and the resource itself read as before a write: GETs as its administrator. */
  private stateProbesOf(operation: FuzzOperation): string[] {
    if (!WRITES.has(operation.method) || operation.isTraffic) {
      return [];
    }
    const candidates = [operation.path];
    for (let path = operation.path; path.lastIndexOf('/') > 0;) {
      path = path.slice(0, path.lastIndexOf('/'));
      candidates.push(path);
    }
    const probes: string[] = [];
    for (const candidate of candidates.filter((path) => this.gets.has(path)).slice(0, 2)) {
      let url: string | undefined = candidate;
      for (const name of parametersOf(candidate)) {
        const resource = this.world.pick('a', candidate, name, 0);
        url = resource && url ? url.replace(`{${name}}`, resource.id) : undefined;
      }
      if (url) {
        probes.push(url);
      }
    }
    return probes;
  }

  private async digest(probes: string[]): Promise<string> {
    const parts: string[] = [];
    for (const url of probes) {
      const answer = await this.platform.send({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${this.world.tokenOf('right')}` },
      });
      this.report.requests += 1;
      // A problem's correlation id is new on every answer: not state.
      parts.push(
        `${answer.status} ${answer.body.replace(/"correlationId":"[^"]*"|correlation id [\w-]+/g, '')}`,
      );
    }
    return parts.join('\n');
  }

  private noteCreated(
    tenant: 'a' | 'b',
    operation: FuzzOperation,
    url: string,
    body: string,
  ): void {
    let id: unknown;
    try {
      id = (JSON.parse(body) as { id?: unknown }).id;
    } catch {
      return;
    }
    if (typeof id !== 'string') {
      return;
    }
    // The parents are the identifiers the URL was built with, in the template's order.
    const names = parametersOf(operation.path);
    const parts = url.split('?')[0].split('/');
    const template = operation.path.split('/');
    const parents = Object.fromEntries(
      names.map((name) => [name, parts[template.indexOf(`{${name}}`)] ?? '']),
    );
    this.world.noteCreated(tenant, operation.path, id, parents);
  }

  private found(options: FuzzOptions, finding: Finding): void {
    this.report.findings.push(finding);
    options.onFinding?.(finding);
  }

  private count(fuzzCase: FuzzCase, answer: FuzzAnswer): void {
    const report = this.report;
    report.requests += 1;
    report.perCaller[fuzzCase.caller] += 1;
    report.perMutation[fuzzCase.mutation] = (report.perMutation[fuzzCase.mutation] ?? 0) + 1;
    const status = String(answer.status);
    report.perStatus[status] = (report.perStatus[status] ?? 0) + 1;
    const operation = (report.perOperation[fuzzCase.operation] ??= {});
    operation[status] = (operation[status] ?? 0) + 1;
  }

  private resetReport(seed: number): void {
    this.report = {
      seed,
      requests: 0,
      operations: this.operations?.length ?? 0,
      operationsExercised: 0,
      perCaller: Object.fromEntries(CALLER_KINDS.map((kind) => [kind, 0])) as Record<
        CallerKind,
        number
      >,
      perMutation: {},
      perStatus: {},
      perOperation: {},
      seedRequests: 0,
      seededCollections: { a: 0, b: 0 },
      operationsWithSuccess: 0,
      stateChecks: 0,
      findings: [],
      durationMs: 0,
    };
  }
}

/** Where two texts part, with a little context: what a state finding shows. */
function firstDifference(before: string, after: string): string {
  let at = 0;
  while (at < before.length && before[at] === after[at]) {
    at += 1;
  }
  return `…${before.slice(Math.max(0, at - 60), at + 60)}… became …${after.slice(Math.max(0, at - 60), at + 60)}…`;
}

/** Operations by resource (`/relay/v1/policy-groups…`), in the document's order. */
function groupsOf(operations: FuzzOperation[]): FuzzOperation[][] {
  const groups = new Map<string, FuzzOperation[]>();
  for (const operation of operations) {
    const key = operation.path.split('/').slice(0, 4).join('/');
    groups.set(key, [...(groups.get(key) ?? []), operation]);
  }
  return [...groups.values()];
}

async function inParallel<T>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
}
