import { Inject, Injectable } from '@nestjs/common';
import { changedFields } from '@agp/admin-changes';
import { RequestContext, actorOf, eventContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';

import { RELAY_DATABASE, RELAY_OUTBOX } from '../database/tokens';
import { EventOutbox } from '@agp/messaging';
import { PoliciesErrorCode, PoliciesException } from '../policies/policies.exception';
import { textOf } from './apply-masks';
import { DecisionCache } from './decision-cache';
import { decisionInputOf } from './decision-input';
import { DryRunFacts } from './dry-run-facts';
import { DecisionInput, EndpointRef, HopDecision } from './decision.types';
import { DecideHopDto, EndpointRefDto } from './dto/decide-hop.dto';
import { UpdatePolicySettingsDto } from './dto/update-policy-settings.dto';
import { EndpointDirectoryRepository } from './endpoint-directory.repository';
import { PolicyDecisionService } from './policy-decision.service';
import { PolicySnapshotRepository } from './policy-snapshot.repository';

export interface PolicySettingsResponse {
  failOpen: boolean;
}

/** The HTTP face of the decision service, and the tenant's fail mode (D22). */
@Injectable()
export class DecisionsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    @Inject(RELAY_OUTBOX) private readonly outbox: EventOutbox,
    private readonly directory: EndpointDirectoryRepository,
    private readonly settings: PolicySnapshotRepository,
    private readonly decisions: PolicyDecisionService,
    private readonly cache: DecisionCache,
    private readonly facts: DryRunFacts,
  ) {}

  async decide(ctx: RequestContext, dto: DecideHopDto): Promise<HopDecision> {
    const input = await this.database.inTenant(ctx.tenantId, (tx) => this.inputOf(tx, ctx, dto));
    return this.decisions.decide(input);
  }

  /** R20: as if this version alone were bound tenant-wide; nothing stored, no binding needed. */
  async testVersion(
    ctx: RequestContext,
    groupId: string,
    version: string,
    dto: DecideHopDto,
  ): Promise<HopDecision> {
    const { input, row, failOpen } = await this.database.inTenant(ctx.tenantId, async (tx) => ({
      input: await this.inputOf(tx, ctx, dto),
      row: await this.settings.versionAsBinding(tx, ctx.tenantId, groupId, version),
      failOpen: await this.settings.isFailOpen(tx, ctx.tenantId),
    }));
    if (!row) {
      throw new PoliciesException(
        PoliciesErrorCode.VersionNotFound,
        `version ${version} of policy group ${groupId} not found`,
      );
    }
    // D50: the tenant's pattern sets as a live hop would see them.
    const { patternSets } = await this.cache.snapshot(ctx.tenantId);
    const sets = patternSets.forHop(input.direction);
    return this.decisions.decideWith(input, [this.cache.prepare(row)], failOpen, sets);
  }

  /** GR36: through the live path's builder, with the facts a live hop would carry. */
  private async inputOf(tx: Tx, ctx: RequestContext, dto: DecideHopDto): Promise<DecisionInput> {
    const known = await this.directory.describeAll(tx, ctx.tenantId, [dto.source, dto.sink]);
    const [source, sink] = [this.enrich(dto.source, known[0]), this.enrich(dto.sink, known[1])];
    const tenantSlug = await this.settings.tenantSlug(tx, ctx.tenantId);
    const hop = await this.facts.of(tx, {
      tenantId: ctx.tenantId,
      ...(tenantSlug ? { tenantSlug } : {}),
      correlationId: ctx.correlationId,
      protocol: dto.protocol,
      direction: dto.direction,
      source,
      sink,
      ...(dto.method ? { method: dto.method } : {}),
      ...(dto.tool ? { tool: dto.tool.name } : {}),
      message: { json: dto.message.json, text: dto.message.text ?? textOf(dto.message.json) },
      ...(dto.user
        ? { user: { id: dto.user.id, ...(dto.user.email ? { email: dto.user.email } : {}) } }
        : {}),
    });
    return decisionInputOf(hop, dto.time);
  }

  async getSettings(ctx: RequestContext): Promise<PolicySettingsResponse> {
    const failOpen = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.settings.isFailOpen(tx, ctx.tenantId),
    );
    return { failOpen };
  }

  async updateSettings(
    ctx: RequestContext,
    dto: UpdatePolicySettingsDto,
  ): Promise<PolicySettingsResponse> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const before = { failOpen: await this.settings.isFailOpen(tx, ctx.tenantId) };
      await this.settings.setFailOpen(tx, ctx.tenantId, dto.failOpen);
      await this.outbox.add(tx, 'POLICY_LIFECYCLE', eventContext(ctx), {
        actor: actorOf(ctx),
        change: 'SETTINGS_UPDATED',
        summary: `policy evaluation errors now ${dto.failOpen ? 'fail open' : 'fail closed'}`,
        details: {
          failOpen: dto.failOpen,
          // D42: the settings' changed fields.
          ...changedFields({
            target: { kind: 'POLICY_SETTINGS', id: ctx.tenantId },
            before,
            after: { failOpen: dto.failOpen },
          }),
        },
      });
    });
    // The decision cache drops the tenant on hearing POLICY_LIFECYCLE (decision-cache.ts).
    return { failOpen: dto.failOpen };
  }

  /** A name the caller gave wins; the registry fills in what is missing. */
  private enrich(
    endpoint: EndpointRefDto,
    known: { name?: string; riskTier?: string } | undefined,
  ): EndpointRef {
    const name = endpoint.name ?? known?.name;
    return {
      type: endpoint.type,
      id: endpoint.id,
      ...(name ? { name } : {}),
      ...(known?.riskTier ? { riskTier: known.riskTier } : {}),
    };
  }
}
