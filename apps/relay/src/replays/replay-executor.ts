import { Inject, Injectable } from '@nestjs/common';
import { RecordedHop } from '@agp/contracts';
import { Database } from '@agp/database';
import { ROOT_LOGGER } from '@agp/http';
import { ClaimLoop, ClaimLoopWorker } from '@agp/jobs';
import { OWNER_QUERIES, OwnerQueries } from '@agp/messaging';
import { isUUID } from 'class-validator';
import { Logger } from 'pino';

import { RELAY_DATABASE } from '../database/tokens';
import { CachedBinding, DecisionCache } from '../decisions/decision-cache';
import { DecisionInput } from '../decisions/decision.types';
import { TenantPatternSets } from '../decisions/pattern-sets';
import { EndpointDirectoryRepository } from '../decisions/endpoint-directory.repository';
import { PolicyDecisionService } from '../decisions/policy-decision.service';
import { PolicySnapshotRepository } from '../decisions/policy-snapshot.repository';
import { DecisionDiffsRepository, StoredDiff } from '../shadow/decision-diffs.repository';
import { fateOf, judgeRecorded } from './recorded-hop-judgement';
import { REPLAY_OPTIONS, ReplayOptions } from './replay-options';
import { ReplayProgress, ClaimedReplay, ReplaysRepository } from './replays.repository';

interface ReplayContext {
  candidate: CachedBinding;
  failOpen: boolean;
  tenant: { id: string; slug?: string };
  /** GR39: the tenant's pattern sets as live hops see them now. */
  patternSets: TenantPatternSets;
}

/**
 * D49, G10: a claim loop (F30); each page's results commit with its cursor, so another replica
 * resumes a stopped replay where it was. A cancellation is seen at the next page.
 */
@Injectable()
export class ReplayExecutor extends ClaimLoopWorker<ClaimedReplay> {
  protected readonly loop: ClaimLoop<ClaimedReplay>;

  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(OWNER_QUERIES) private readonly queries: OwnerQueries,
    @Inject(REPLAY_OPTIONS) private readonly options: ReplayOptions,
    private readonly replays: ReplaysRepository,
    private readonly diffs: DecisionDiffsRepository,
    private readonly snapshots: PolicySnapshotRepository,
    private readonly cache: DecisionCache,
    private readonly decisions: PolicyDecisionService,
    private readonly directory: EndpointDirectoryRepository,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    super();
    this.loop = new ClaimLoop({
      name: 'policy-replays',
      pollIntervalMs: options.pollIntervalMs,
      claim: async () => {
        const claimed = await this.database.asSystem((tx) =>
          this.replays.claim(tx, options.leaseMs),
        );
        return claimed ? [claimed] : [];
      },
      handle: (replay) => this.run(replay),
      logger,
    });
  }

  private async run(replay: ClaimedReplay): Promise<void> {
    const { tenantId } = replay;
    try {
      const context = await this.contextOf(replay);
      if (!context) {
        return this.finish(replay, 'FAILED', `version ${replay.version} no longer exists`);
      }
      let after =
        replay.cursorAt && replay.cursorId
          ? { afterAt: replay.cursorAt, afterId: replay.cursorId }
          : {};
      for (;;) {
        const page = await this.queries.ask(
          'RECORDED_HOPS',
          { tenantId, from: replay.from, to: replay.to, ...after, limit: this.options.pageSize },
          this.options.pageTimeoutMs,
        );
        const hops = page?.hops ?? [];
        const { diffs, progress } = await this.judgePage(replay, context, hops);
        const isRunning = await this.database.inTenant(tenantId, async (tx) => {
          await this.diffs.insertReplayed(tx, tenantId, replay.replayId, diffs);
          return this.replays.advance(
            tx,
            tenantId,
            replay.replayId,
            progress,
            this.options.leaseMs,
          );
        });
        if (!isRunning || !page?.next) {
          return isRunning ? this.finish(replay, 'COMPLETED') : undefined;
        }
        after = page.next;
      }
    } catch (error) {
      await this.finish(replay, 'FAILED', error instanceof Error ? error.message : String(error));
    }
  }

  private async judgePage(
    replay: ClaimedReplay,
    context: ReplayContext,
    hops: RecordedHop[],
  ): Promise<{ diffs: StoredDiff[]; progress: ReplayProgress }> {
    const judgeable: Array<{ hop: RecordedHop; input: DecisionInput }> = [];
    let unreplayable = 0;
    for (const hop of hops) {
      const fate = fateOf(hop, replay.filters, replay.placement, context.tenant);
      if (fate.kind === 'UNREPLAYABLE') {
        unreplayable += 1;
      } else if (fate.kind === 'JUDGEABLE') {
        judgeable.push({ hop, input: fate.input });
      }
    }
    await this.addRiskTiers(
      replay.tenantId,
      judgeable.map((j) => j.input),
    );
    const diffs = judgeable.map(({ hop, input }) =>
      judgeRecorded(
        hop,
        this.decisions.evaluateOne(
          context.candidate,
          input,
          context.patternSets.forHop(input.direction),
        ),
        replay.placement,
        context.failOpen,
      ),
    );
    const last = hops.at(-1);
    return {
      diffs,
      progress: {
        scanned: hops.length,
        judged: diffs.length,
        unreplayable,
        ...(last ? { cursor: { at: last.occurredAt, id: last.id } } : {}),
      },
    };
  }

  /** POLICY.md `riskTier` of the registry's endpoints, as a live decision has it (one read). */
  private async addRiskTiers(tenantId: string, inputs: DecisionInput[]): Promise<void> {
    const endpoints = new Map<string, DecisionInput['source']>();
    for (const input of inputs) {
      for (const endpoint of [input.source, input.sink]) {
        if (endpoint.id) {
          endpoints.set(`${endpoint.type}:${endpoint.id}`, endpoint);
        }
      }
    }
    const known = [...endpoints.values()].filter((e) => TIERED.has(e.type) && isUUID(e.id));
    if (known.length === 0) {
      return;
    }
    const described = await this.database.inTenant(tenantId, (tx) =>
      this.directory.describeAll(tx, tenantId, known),
    );
    const tiers = new Map(known.map((e, i) => [`${e.type}:${e.id}`, described[i]?.riskTier]));
    for (const input of inputs) {
      for (const endpoint of [input.source, input.sink]) {
        const tier = tiers.get(`${endpoint.type}:${endpoint.id}`);
        if (tier) {
          endpoint.riskTier = tier;
        }
      }
    }
  }

  private async contextOf(replay: ClaimedReplay): Promise<ReplayContext | undefined> {
    const { tenantId } = replay;
    // GR39: the sets of the decision cache's snapshot, the ones a live hop is judged with.
    const { patternSets } = await this.cache.snapshot(tenantId);
    return this.database.inTenant(tenantId, async (tx) => {
      const row = await this.snapshots.versionAsBinding(
        tx,
        tenantId,
        replay.groupId,
        replay.version,
      );
      if (!row) {
        return undefined;
      }
      const slug = await this.snapshots.tenantSlug(tx, tenantId);
      return {
        candidate: this.cache.prepare(row),
        failOpen: await this.snapshots.isFailOpen(tx, tenantId),
        tenant: { id: tenantId, ...(slug ? { slug } : {}) },
        patternSets,
      };
    });
  }

  private finish(
    replay: ClaimedReplay,
    status: 'COMPLETED' | 'FAILED',
    errorMessage?: string,
  ): Promise<void> {
    return this.database.inTenant(replay.tenantId, (tx) =>
      this.replays.finish(tx, replay.tenantId, replay.replayId, status, errorMessage),
    );
  }
}

/** The endpoints the registry gives a risk tier (endpoint-directory.repository.ts). */
const TIERED = new Set<string>(['AGENT']);
