import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { PolicyLifecycleChange, PolicyLifecycleData } from '@agp/contracts';
import { Database, Tx } from '@agp/database';
import { FieldError, Page, pageOf, pageOffset } from '@agp/http';

import { RELAY_DATABASE } from '../database/tokens';
import { IdentityProjections } from '../projections/identity-projections.service';
import { CreatePolicyBindingDto } from './dto/create-policy-binding.dto';
import { ListPolicyBindingsQueryDto } from './dto/list-policy-bindings-query.dto';
import { PolicyBindingResponse, PolicyVersionResponse } from './dto/policy-responses';
import { UpdatePolicyBindingDto } from './dto/update-policy-binding.dto';
import { bindingReferenceErrors } from './binding-references';
import { PoliciesErrorCode, PoliciesException } from './policies.exception';
import { PolicyBindingsRepository } from './policy-bindings.repository';
import { PolicyChangeRecorder } from './policy-change.recorder';
import { PolicyGroupsRepository, VersionState } from './policy-groups.repository';

const DEFAULT_PRIORITY = 100;

/** Bindings at the five levels (D23), operation 4 (D16) and operation 7 (D18). */
@Injectable()
export class PolicyBindingsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly bindings: PolicyBindingsRepository,
    private readonly groups: PolicyGroupsRepository,
    private readonly changes: PolicyChangeRecorder,
    private readonly identities: IdentityProjections,
  ) {}

  async create(ctx: RequestContext, dto: CreatePolicyBindingDto): Promise<PolicyBindingResponse> {
    const validFrom = dto.validFrom ? new Date(dto.validFrom) : new Date();
    const validTo = dto.validTo ? new Date(dto.validTo) : undefined;
    await this.identities.ensure(ctx.tenantId, {
      agents: [dto.agentId, dto.sourceAgentId, dto.sinkAgentId],
    });
    const created = await this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.assertValid(tx, ctx.tenantId, dto, validFrom, validTo);
      const group = await this.groups.findGroup(tx, ctx.tenantId, dto.groupId);
      if (!group) {
        throw new PoliciesException(
          PoliciesErrorCode.GroupNotFound,
          `policy group ${dto.groupId} not found`,
        );
      }
      const version = dto.groupVersion
        ? usableVersion(
            await this.groups.versionState(tx, ctx.tenantId, dto.groupId, dto.groupVersion),
            dto.groupVersion,
          )
        : await this.latestValid(tx, ctx.tenantId, dto.groupId);
      const id = randomUUID();
      await this.bindings.insert(tx, ctx.tenantId, {
        id,
        groupId: dto.groupId,
        versionId: version.id,
        bindingLevel: dto.bindingLevel,
        mode: dto.mode ?? 'ENFORCE',
        agentId: dto.agentId,
        sourceAgentId: dto.sourceAgentId,
        sinkAgentId: dto.sinkAgentId,
        channelId: dto.channelId,
        priority: dto.priority ?? DEFAULT_PRIORITY,
        validFrom,
        validTo,
      });
      const created = (await this.bindings.find(tx, ctx.tenantId, id))!;
      await this.changes.record(
        tx,
        ctx,
        {
          change: 'BINDING_CREATED',
          bindingId: id,
          groupId: group.id,
          groupName: group.name,
          versionId: version.id,
          version: version.version,
        },
        { after: strip(created) },
      );
      return created;
    });
    return strip(created);
  }

  async list(
    ctx: RequestContext,
    query: ListPolicyBindingsQueryDto,
  ): Promise<Page<PolicyBindingResponse>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.bindings.list(tx, ctx.tenantId, query, query.pageSize, pageOffset(query)),
    );
    return pageOf(items, total, query);
  }

  async get(ctx: RequestContext, bindingId: string): Promise<PolicyBindingResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      strip(await this.mustFind(tx, ctx.tenantId, bindingId)),
    );
  }

  async update(
    ctx: RequestContext,
    bindingId: string,
    dto: UpdatePolicyBindingDto,
  ): Promise<PolicyBindingResponse> {
    const updated = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const binding = await this.mustFind(tx, ctx.tenantId, bindingId, true);
      const validFrom = dto.validFrom ? new Date(dto.validFrom) : new Date(binding.validFrom);
      const validTo =
        dto.validTo === null
          ? undefined
          : dto.validTo
            ? new Date(dto.validTo)
            : binding.validTo
              ? new Date(binding.validTo)
              : undefined;
      if (validTo && validTo <= validFrom) {
        throw invalid([{ field: 'validTo', message: 'validTo must be after validFrom' }]);
      }
      await this.bindings.update(tx, ctx.tenantId, bindingId, {
        priority: dto.priority ?? binding.priority,
        validFrom,
        validTo,
      });
      const updated = (await this.bindings.find(tx, ctx.tenantId, bindingId))!;
      await this.changes.record(tx, ctx, bindingChange(binding, 'BINDING_UPDATED'), {
        before: strip(binding),
        after: strip(updated),
      });
      return updated;
    });
    return strip(updated);
  }

  async remove(ctx: RequestContext, bindingId: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const binding = await this.mustFind(tx, ctx.tenantId, bindingId, true);
      await this.bindings.delete(tx, ctx.tenantId, bindingId);
      await this.changes.record(tx, ctx, bindingChange(binding, 'BINDING_DELETED'), {
        before: strip(binding),
      });
    });
  }

  /** Operation 4 (D16). */
  async availableVersions(
    ctx: RequestContext,
    bindingId: string,
  ): Promise<PolicyVersionResponse[]> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const binding = await this.mustFind(tx, ctx.tenantId, bindingId);
      return this.groups.listAvailableVersions(
        tx,
        ctx.tenantId,
        binding.groupId,
        binding.versionId,
      );
    });
  }

  /** Operation 7 (D18): to `targetVersion`, or to the latest valid version when it is omitted. */
  async upgrade(
    ctx: RequestContext,
    bindingId: string,
    targetVersion: string | undefined,
  ): Promise<PolicyBindingResponse> {
    const result = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const binding = await this.mustFind(tx, ctx.tenantId, bindingId, true);
      const target = targetVersion
        ? await this.groups.versionState(tx, ctx.tenantId, binding.groupId, targetVersion)
        : await this.latestValid(tx, ctx.tenantId, binding.groupId);
      if (!target) {
        throw new PoliciesException(
          PoliciesErrorCode.VersionNotFound,
          `version ${targetVersion} of policy group ${binding.groupName} not found`,
        );
      }
      if (target.id === binding.versionId) {
        return binding;
      }
      usableVersion(target, target.version);
      await this.bindings.moveToVersion(tx, ctx.tenantId, bindingId, target.id);
      const upgraded = (await this.bindings.find(tx, ctx.tenantId, bindingId))!;
      await this.changes.record(
        tx,
        ctx,
        {
          ...bindingChange(binding, 'BINDING_UPGRADED'),
          versionId: target.id,
          version: target.version,
          previousVersion: binding.groupVersion,
        },
        { before: strip(binding), after: strip(upgraded) },
      );
      return upgraded;
    });
    return strip(result);
  }

  private async assertValid(
    tx: Tx,
    tenantId: string,
    dto: CreatePolicyBindingDto,
    validFrom: Date,
    validTo: Date | undefined,
  ): Promise<void> {
    const errors = bindingReferenceErrors(dto.bindingLevel, dto);
    const agentFields = (['agentId', 'sourceAgentId', 'sinkAgentId'] as const).filter(
      (f) => dto[f] && !errors.some((e) => e.field === f),
    );
    const known = await this.bindings.existingAgents(
      tx,
      tenantId,
      agentFields.map((f) => dto[f]!),
    );
    for (const field of agentFields) {
      if (!known.has(dto[field]!)) {
        errors.push({ field, message: `${field} does not name an agent of this tenant` });
      }
    }
    if (
      dto.channelId &&
      !errors.some((e) => e.field === 'channelId') &&
      !(await this.bindings.channelExists(tx, tenantId, dto.channelId))
    ) {
      errors.push({
        field: 'channelId',
        message: 'channelId does not name a channel of this tenant',
      });
    }
    if (validTo && validTo <= validFrom) {
      errors.push({ field: 'validTo', message: 'validTo must be after validFrom' });
    }
    if (errors.length > 0) {
      throw invalid(errors);
    }
  }

  private async latestValid(tx: Tx, tenantId: string, groupId: string): Promise<VersionState> {
    const latest = await this.groups.latestValidVersionState(tx, tenantId, groupId);
    if (!latest) {
      throw new PoliciesException(
        PoliciesErrorCode.NoValidVersion,
        `policy group ${groupId} has no version valid now`,
      );
    }
    return latest;
  }

  private async mustFind(tx: Tx, tenantId: string, bindingId: string, lock = false) {
    const binding = await this.bindings.find(tx, tenantId, bindingId, lock);
    if (!binding) {
      throw new PoliciesException(
        PoliciesErrorCode.BindingNotFound,
        `policy binding ${bindingId} not found`,
      );
    }
    return binding;
  }
}

function invalid(errors: FieldError[]): PoliciesException {
  return new PoliciesException(
    PoliciesErrorCode.InvalidRequest,
    `invalid binding: ${errors.map((e) => e.field).join(', ')}`,
    errors,
  );
}

/** POLICY_LIFECYCLE's data for a change of a stored binding (D18). */
function bindingChange(
  binding: PolicyBindingResponse & { versionId: string },
  change: PolicyLifecycleChange,
): Omit<PolicyLifecycleData, 'actor'> {
  return {
    change,
    bindingId: binding.bindingId,
    groupId: binding.groupId,
    groupName: binding.groupName,
    versionId: binding.versionId,
    version: binding.groupVersion,
  };
}

function strip(binding: PolicyBindingResponse & { versionId?: string }): PolicyBindingResponse {
  const { versionId: _versionId, ...response } = binding;
  return response;
}

/** A version may be bound only while it is not retired and its window includes now (D18: 409). */
export function usableVersion(version: VersionState | undefined, name: string): VersionState {
  if (!version) {
    throw new PoliciesException(PoliciesErrorCode.VersionNotFound, `version ${name} not found`);
  }
  const now = Date.now();
  if (version.retiredAt) {
    throw new PoliciesException(PoliciesErrorCode.VersionRetired, `version ${name} is retired`);
  }
  if (version.validFrom.getTime() > now || (version.validTo && version.validTo.getTime() <= now)) {
    throw new PoliciesException(
      PoliciesErrorCode.VersionOutsideWindow,
      `version ${name} is outside its validity window`,
    );
  }
  return version;
}
