import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database, Tx } from '@agp/database';

import { RELAY_DATABASE } from '../database/tokens';
import { PolicyBindingResponse } from './dto/policy-responses';
import { PoliciesErrorCode, PoliciesException } from './policies.exception';
import { usableVersion } from './policy-bindings.service';
import { PolicyBindingsRepository } from './policy-bindings.repository';
import { PolicyChangeRecorder } from './policy-change.recorder';
import { PolicyGroupsRepository } from './policy-groups.repository';
import { PolicyBinding } from './policy.types';

type StoredBinding = PolicyBinding & { versionId: string };

/**
 * D49, G7: shadow to enforce as operation 7 moves a binding, in one transaction, so every
 * replica's cache hears it at once (R3) and no hop is judged by both or by neither.
 */
@Injectable()
export class PolicyBindingPromotionService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly bindings: PolicyBindingsRepository,
    private readonly groups: PolicyGroupsRepository,
    private readonly changes: PolicyChangeRecorder,
  ) {}

  /** `targetVersion` absent: the version that was shadowed (what the shadow report is about). */
  async promote(
    ctx: RequestContext,
    bindingId: string,
    targetVersion: string | undefined,
  ): Promise<PolicyBindingResponse> {
    const promoted = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const shadow = await this.bindings.find(tx, ctx.tenantId, bindingId, true);
      if (!shadow) {
        throw new PoliciesException(
          PoliciesErrorCode.BindingNotFound,
          `policy binding ${bindingId} not found`,
        );
      }
      if (shadow.mode !== 'SHADOW') {
        throw new PoliciesException(
          PoliciesErrorCode.BindingNotShadow,
          `policy binding ${bindingId} already enforces`,
        );
      }
      const name = targetVersion ?? shadow.groupVersion;
      const target = usableVersion(
        await this.groups.versionState(tx, ctx.tenantId, shadow.groupId, name),
        name,
      );
      const enforcing = await this.bindings.enforcingAtSamePlace(tx, ctx.tenantId, bindingId);
      if (enforcing.length === 0) {
        return this.enforceItself(tx, ctx, shadow, target);
      }
      const upgraded: StoredBinding[] = [];
      for (const id of enforcing) {
        upgraded.push(await this.upgrade(tx, ctx, id, target));
      }
      await this.bindings.delete(tx, ctx.tenantId, bindingId);
      await this.changes.record(
        tx,
        ctx,
        { ...changeOf(shadow), change: 'BINDING_DELETED' },
        {
          before: strip(shadow),
        },
      );
      return upgraded[0];
    });
    return strip(promoted);
  }

  private async enforceItself(
    tx: Tx,
    ctx: RequestContext,
    shadow: StoredBinding,
    target: { id: string; version: string },
  ): Promise<StoredBinding> {
    await this.bindings.setMode(tx, ctx.tenantId, shadow.bindingId, 'ENFORCE');
    if (target.id !== shadow.versionId) {
      await this.bindings.moveToVersion(tx, ctx.tenantId, shadow.bindingId, target.id);
    }
    const after = (await this.bindings.find(tx, ctx.tenantId, shadow.bindingId))!;
    await this.changes.record(
      tx,
      ctx,
      {
        ...changeOf(shadow),
        change: 'BINDING_UPDATED',
        versionId: target.id,
        version: target.version,
        previousVersion: shadow.groupVersion,
      },
      { before: strip(shadow), after: strip(after) },
    );
    return after;
  }

  private async upgrade(
    tx: Tx,
    ctx: RequestContext,
    id: string,
    target: { id: string; version: string },
  ): Promise<StoredBinding> {
    const before = (await this.bindings.find(tx, ctx.tenantId, id))!;
    if (before.versionId === target.id) {
      return before;
    }
    await this.bindings.moveToVersion(tx, ctx.tenantId, id, target.id);
    const after = (await this.bindings.find(tx, ctx.tenantId, id))!;
    await this.changes.record(
      tx,
      ctx,
      {
        ...changeOf(before),
        change: 'BINDING_UPGRADED',
        versionId: target.id,
        version: target.version,
        previousVersion: before.groupVersion,
      },
      { before: strip(before), after: strip(after) },
    );
    return after;
  }
}

function changeOf(binding: StoredBinding) {
  return {
    bindingId: binding.bindingId,
    groupId: binding.groupId,
    groupName: binding.groupName,
    versionId: binding.versionId,
    version: binding.groupVersion,
  };
}

function strip(binding: StoredBinding): PolicyBinding {
  const { versionId: _versionId, ...response } = binding;
  return response;
}
