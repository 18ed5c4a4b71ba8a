import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database, isUniqueViolation } from '@agp/database';
import { Page, pageOf, pageOffset } from '@agp/http';

import { RELAY_DATABASE } from '../database/tokens';
import { CreatePolicyGroupDto } from './dto/create-policy-group.dto';
import { ListPolicyGroupsQueryDto } from './dto/list-policy-groups-query.dto';
import { PolicyGroupResponse } from './dto/policy-responses';
import { UpdatePolicyGroupDto } from './dto/update-policy-group.dto';
import { PoliciesErrorCode, PoliciesException } from './policies.exception';
import { PolicyChangeRecorder } from './policy-change.recorder';
import { PolicyGroupsRepository } from './policy-groups.repository';

/** Policy groups: a name, a description and the data their versions see (issue 6 §2). */
@Injectable()
export class PolicyGroupsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly groups: PolicyGroupsRepository,
    private readonly changes: PolicyChangeRecorder,
  ) {}

  async create(ctx: RequestContext, dto: CreatePolicyGroupDto): Promise<PolicyGroupResponse> {
    const id = randomUUID();
    const group = await this.uniquely(dto.name, () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        await this.groups.insertGroup(
          tx,
          ctx.tenantId,
          id,
          dto.name,
          dto.description,
          dto.data ?? {},
        );
        const created = (await this.groups.findGroup(tx, ctx.tenantId, id))!;
        await this.changes.record(
          tx,
          ctx,
          { change: 'GROUP_CREATED', groupId: id, groupName: dto.name },
          { after: created },
        );
        return created;
      }),
    );
    return group;
  }

  async list(
    ctx: RequestContext,
    query: ListPolicyGroupsQueryDto,
  ): Promise<Page<PolicyGroupResponse>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, (tx) =>
      this.groups.listGroups(tx, ctx.tenantId, query.name, query.pageSize, pageOffset(query)),
    );
    return pageOf(items, total, query);
  }

  async get(ctx: RequestContext, groupId: string): Promise<PolicyGroupResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) =>
      this.mustFind(await this.groups.findGroup(tx, ctx.tenantId, groupId), groupId),
    );
  }

  async update(
    ctx: RequestContext,
    groupId: string,
    dto: UpdatePolicyGroupDto,
  ): Promise<PolicyGroupResponse> {
    const group = await this.uniquely(dto.name ?? '', () =>
      this.database.inTenant(ctx.tenantId, async (tx) => {
        const before = this.mustFind(
          await this.groups.findGroup(tx, ctx.tenantId, groupId, true),
          groupId,
        );
        await this.groups.updateGroup(tx, ctx.tenantId, groupId, dto);
        const updated = (await this.groups.findGroup(tx, ctx.tenantId, groupId))!;
        // The group's data is compiled into every version: its change is a policy change (R3).
        await this.changes.record(
          tx,
          ctx,
          { change: 'GROUP_UPDATED', groupId, groupName: updated.name },
          { before, after: updated },
        );
        return updated;
      }),
    );
    return group;
  }

  async remove(ctx: RequestContext, groupId: string): Promise<void> {
    await this.database.inTenant(ctx.tenantId, async (tx) => {
      const group = this.mustFind(
        await this.groups.findGroup(tx, ctx.tenantId, groupId, true),
        groupId,
      );
      const bindings = await this.groups.countBindingsOfGroup(tx, ctx.tenantId, groupId);
      if (bindings > 0) {
        throw new PoliciesException(
          PoliciesErrorCode.GroupHasBindings,
          `policy group ${group.name} still has ${bindings} binding(s)`,
        );
      }
      await this.groups.deleteGroup(tx, ctx.tenantId, groupId);
      await this.changes.record(
        tx,
        ctx,
        { change: 'GROUP_DELETED', groupId, groupName: group.name },
        { before: group },
      );
    });
  }

  private mustFind(group: PolicyGroupResponse | undefined, groupId: string): PolicyGroupResponse {
    if (!group) {
      throw new PoliciesException(
        PoliciesErrorCode.GroupNotFound,
        `policy group ${groupId} not found`,
      );
    }
    return group;
  }

  private async uniquely<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new PoliciesException(
          PoliciesErrorCode.GroupNameTaken,
          `a policy group named ${name} already exists`,
        );
      }
      throw error;
    }
  }
}
