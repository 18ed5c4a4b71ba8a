import { createHash } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../database/tokens';
import { BindingScope } from './binding-matcher';
import { DECISION_OPTIONS, DecisionOptions } from './decision-options';
import { CompiledVersionPolicy, PolicyCompileFailure, PolicyEngine } from './policy-engine';
import { BoundVersionRow, PolicySnapshotRepository } from './policy-snapshot.repository';

/** A binding ready to evaluate: its scope, what to report, and its compiled version (or why not). */
export interface CachedBinding extends BindingScope {
  bindingId: string;
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
  loadedAt: number;
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
 * Each replica's cache of every tenant's bindings with their versions compiled once (issue 6 §4).
 * A change drops the tenant's entry: here at once, on the other replicas through the broadcast of
 * POLICY_LIFECYCLE (R3); the TTL only bounds the damage of a missed broadcast.
 */
@Injectable()
export class DecisionCache {
  private readonly tenants = new Map<string, TenantEntry>();

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly repository: PolicySnapshotRepository,
    private readonly engine: PolicyEngine,
    @Inject(DECISION_OPTIONS) private readonly options: DecisionOptions,
  ) {}

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

  invalidate(tenantId: string): void {
    const entry = this.tenants.get(tenantId);
    if (entry) {
      entry.generation += 1;
      entry.snapshot = undefined;
      entry.loading = undefined;
    }
  }

  /** Everything, e.g. after the broadcast connection was lost and events may have been missed. */
  clear(): void {
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
      const { rows, failOpen, tenantSlug } = await this.database.inTenant(tenantId, async (tx) => ({
        rows: await this.repository.boundVersions(tx, tenantId),
        failOpen: await this.repository.isFailOpen(tx, tenantId),
        tenantSlug: await this.repository.tenantSlug(tx, tenantId),
      }));
      const compiled = new Map<string, CompiledVersionPolicy | { error: string }>();
      const bindings = rows.map((row) => this.toCached(row, entry.compiled, compiled));
      const snapshot: TenantPolicySnapshot = {
        failOpen,
        tenantSlug,
        bindings,
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
