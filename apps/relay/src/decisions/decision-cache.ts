import { createHash } from 'node:crypto';

import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Database } from '@agp/database';
import { EVENT_BROADCAST, EventBroadcast, StopListening } from '@agp/messaging';

import { RELAY_DATABASE } from '../database/tokens';
import { DETECTION_PATTERN_KIND } from '../detection-patterns/detection-pattern.types';
import { DetectionPatternsRepository } from '../detection-patterns/detection-patterns.repository';
import { IdentityProjections } from '../projections/identity-projections.service';
import { BindingScope } from './binding-matcher';
import { replacedBy } from './candidate-placement';
import { DECISION_OPTIONS, DecisionOptions } from './decision-options';
import { TenantPatternSets } from './pattern-sets';
import { CompiledVersionPolicy, PolicyCompileFailure, PolicyEngine } from './policy-engine';
import { BoundVersionRow, PolicySnapshotRepository } from './policy-snapshot.repository';

/** A binding ready to evaluate: its scope, what to report, and its compiled version (or why not). */
export interface CachedBinding extends BindingScope {
  bindingId: string;
  mode: 'ENFORCE' | 'SHADOW';
  priority: number;
  groupId: string;
  groupName: string;
  versionId: string;
  version: string;
  policy: CompiledVersionPolicy | { error: string };
}

export interface TenantPolicySnapshot {
  failOpen: boolean;
  /** From the tenants projection, for `input.tenant.slug` (POLICY.md). */
  tenantSlug?: string;
  bindings: CachedBinding[];
  /** D49: the SHADOW bindings, each with the enforced bindings it would replace (G7). */
  shadows: ShadowBinding[];
  /** D53, GR17: the tenant's pattern sets, compiled with the snapshot. */
  patternSets: TenantPatternSets;
  loadedAt: number;
}

/** A SHADOW binding and the ids of the ENFORCE bindings its promotion would move (G7). */
export interface ShadowBinding {
  binding: CachedBinding;
  replaces: string[];
}

interface TenantEntry {
  /** Bumped by every invalidation, so a load that started before it is not kept. */
  generation: number;
  snapshot?: TenantPolicySnapshot;
  loading?: Promise<TenantPolicySnapshot>;
  /** Compiled versions by version id and group-data hash: kept across reloads while still bound. */
  compiled: Map<string, CompiledVersionPolicy | { error: string }>;
}

/**
 * Issue 6 §4, R3: POLICY_LIFECYCLE drops a tenant's entry, on the changing replica before its
 * commit returns; a gap drops everything. The TTL only bounds a missed broadcast.
 */
@Injectable()
export class DecisionCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly tenants = new Map<string, TenantEntry>();
  private stopListening?: StopListening;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly repository: PolicySnapshotRepository,
    private readonly engine: PolicyEngine,
    @Inject(DECISION_OPTIONS) private readonly options: DecisionOptions,
    @Inject(EVENT_BROADCAST) private readonly broadcast: EventBroadcast,
    private readonly identities: IdentityProjections,
    private readonly patterns: DetectionPatternsRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stopListening = await this.broadcast.listen(['POLICY_LIFECYCLE', 'ADMIN_CHANGE'], {
      onEvent: (envelope) => {
        // GR17: of the administrative changes, only a tenant's pattern sets are in its snapshot;
        // G14: a failed pack run changes no policy.
        const isPolicyChange =
          envelope.type === 'POLICY_LIFECYCLE' &&
          (envelope.data as { change?: string }).change !== 'EVALUATION_RUN_FAILED';
        if (isPolicyChange || isPatternChange(envelope.data)) {
          this.invalidate(envelope.tenantId);
        }
      },
      onGap: () => this.clear(),
    });
  }

  onApplicationShutdown(): void {
    this.stopListening?.();
  }

  /** The tenant's snapshot: from memory when fresh (no I/O), loaded otherwise. */
  snapshot(tenantId: string): TenantPolicySnapshot | Promise<TenantPolicySnapshot> {
    const entry = this.entryOf(tenantId);
    const snapshot = entry.snapshot;
    if (snapshot && Date.now() - snapshot.loadedAt < this.options.cacheTtlMs) {
      return snapshot;
    }
    entry.loading ??= this.load(tenantId, entry);
    return entry.loading;
  }

  private invalidate(tenantId: string): void {
    const entry = this.tenants.get(tenantId);
    if (entry) {
      entry.generation += 1;
      entry.snapshot = undefined;
      entry.loading = undefined;
    }
  }

  /** Everything: after a gap in the broadcast, events may have been missed. */
  private clear(): void {
    for (const tenantId of this.tenants.keys()) {
      this.invalidate(tenantId);
    }
  }

  /** How many times the tenant's entry was dropped (what an operator or a test can watch). */
  invalidationCount(tenantId: string): number {
    return this.tenants.get(tenantId)?.generation ?? 0;
  }

  isCached(tenantId: string): boolean {
    return this.tenants.get(tenantId)?.snapshot !== undefined;
  }

  private entryOf(tenantId: string): TenantEntry {
    let entry = this.tenants.get(tenantId);
    if (!entry) {
      entry = { generation: 0, compiled: new Map() };
      this.tenants.set(tenantId, entry);
    }
    return entry;
  }

  private async load(tenantId: string, entry: TenantEntry): Promise<TenantPolicySnapshot> {
    const generation = entry.generation;
    try {
      // R15's slug of a tenant created a moment ago is asked of tenant-auth (issue 30).
      await this.identities.ensure(tenantId, { tenant: true });
      const { rows, failOpen, tenantSlug, patterns } = await this.database.inTenant(
        tenantId,
        async (tx) => ({
          rows: await this.repository.boundVersions(tx, tenantId),
          failOpen: await this.repository.isFailOpen(tx, tenantId),
          tenantSlug: await this.repository.tenantSlug(tx, tenantId),
          patterns: await this.patterns.all(tx, tenantId),
        }),
      );
      const compiled = new Map<string, CompiledVersionPolicy | { error: string }>();
      const cached = rows.map((row) => this.toCached(row, entry.compiled, compiled));
      const bindings = cached.filter((b) => b.mode === 'ENFORCE');
      const shadows = cached
        .filter((b) => b.mode === 'SHADOW')
        .map((binding) => ({ binding, replaces: replacedBy(binding, bindings) }));
      const snapshot: TenantPolicySnapshot = {
        failOpen,
        tenantSlug,
        bindings,
        shadows,
        patternSets: TenantPatternSets.compile(patterns),
        loadedAt: Date.now(),
      };
      if (entry.generation === generation) {
        entry.snapshot = snapshot;
        entry.compiled = compiled;
      }
      return snapshot;
    } finally {
      if (entry.generation === generation) {
        entry.loading = undefined;
      }
    }
  }

  /** A row made ready to evaluate without keeping it (a version's test run, R20). */
  prepare(row: BoundVersionRow): CachedBinding {
    return this.toCached(row, new Map(), new Map());
  }

  private toCached(
    row: BoundVersionRow,
    previous: Map<string, CompiledVersionPolicy | { error: string }>,
    next: Map<string, CompiledVersionPolicy | { error: string }>,
  ): CachedBinding {
    const key = `${row.versionId}:${createHash('sha256').update(JSON.stringify(row.groupData)).digest('hex')}`;
    let policy = next.get(key) ?? previous.get(key);
    if (!policy) {
      policy = this.compile(row);
    }
    next.set(key, policy);
    return {
      bindingId: row.bindingId,
      bindingLevel: row.bindingLevel,
      mode: row.mode,
      agentId: row.agentId,
      sourceAgentId: row.sourceAgentId,
      sinkAgentId: row.sinkAgentId,
      channelId: row.channelId,
      validFrom: row.validFrom.getTime(),
      validTo: row.validTo?.getTime(),
      priority: row.priority,
      groupId: row.groupId,
      groupName: row.groupName,
      versionId: row.versionId,
      version: row.version,
      policy,
    };
  }

  /** A stored version compiled when created (D24); if it no longer does, its bindings yield ERROR. */
  private compile(row: BoundVersionRow): CompiledVersionPolicy | { error: string } {
    try {
      return this.engine.compile(row.regoSource, row.groupData);
    } catch (error) {
      return {
        error:
          error instanceof PolicyCompileFailure
            ? `does not compile: ${error.message}`
            : String(error),
      };
    }
  }
}

function isPatternChange(data: unknown): boolean {
  const target = (data as { target?: { kind?: unknown } } | null)?.target;
  return target?.kind === DETECTION_PATTERN_KIND;
}
