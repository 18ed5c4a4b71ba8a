import { createHash, randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '@agp/auth';
import { Database } from '@agp/database';
import { Page, pageOf, pageOffset } from '@agp/http';

import { RELAY_DATABASE } from '../database/tokens';
import { PolicyCompileFailure, PolicyEngine } from '../decisions/policy-engine';
import { CreatePolicyVersionDto } from './dto/create-policy-version.dto';
import { ListPolicyVersionsQueryDto } from './dto/list-policy-versions-query.dto';
import { PolicyTestOutcome, PolicyVersionResponse } from './dto/policy-responses';
import { PoliciesErrorCode, PoliciesException } from './policies.exception';
import { PolicyChangeRecorder } from './policy-change.recorder';
import { PolicyGroupsRepository } from './policy-groups.repository';
import { compareVersions, nextVersion, versionSortKey } from './version-ordering';

/** Immutable, compiled versions of a group (D22, D24). */
@Injectable()
export class PolicyVersionsService {
  constructor(
    @Inject(RELAY_DATABASE) private readonly database: Database,
    private readonly groups: PolicyGroupsRepository,
    private readonly engine: PolicyEngine,
    private readonly changes: PolicyChangeRecorder,
  ) {}

  async create(
    ctx: RequestContext,
    groupId: string,
    dto: CreatePolicyVersionDto,
  ): Promise<PolicyVersionResponse> {
    const validFrom = dto.validFrom ? new Date(dto.validFrom) : new Date();
    const validTo = dto.validTo ? new Date(dto.validTo) : undefined;
    if (validTo && validTo <= validFrom) {
      throw new PoliciesException(
        PoliciesErrorCode.InvalidRequest,
        'validTo must be after validFrom',
        [{ field: 'validTo', message: 'validTo must be after validFrom' }],
      );
    }
    const created = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const group = await this.groups.findGroup(tx, ctx.tenantId, groupId, true);
      if (!group) {
        throw new PoliciesException(
          PoliciesErrorCode.GroupNotFound,
          `policy group ${groupId} not found`,
        );
      }
      this.compileOrThrow(dto.regoSource, group.data);
      const testResults =
        dto.testSource === undefined
          ? undefined
          : this.testOrThrow(dto.regoSource, dto.testSource, group.data);
      const latest = await this.groups.latestVersionState(tx, ctx.tenantId, groupId);
      const version = dto.version ?? nextVersion(latest?.version);
      if (latest && compareVersions(version, latest.version) <= 0) {
        throw new PoliciesException(
          PoliciesErrorCode.VersionNotIncreasing,
          `version ${version} must be greater than the latest version ${latest.version}`,
        );
      }
      const id = randomUUID();
      await this.groups.insertVersion(tx, ctx.tenantId, {
        id,
        groupId,
        version,
        sortKey: versionSortKey(version),
        description: dto.description,
        regoSource: dto.regoSource,
        regoSourceHash: createHash('sha256').update(dto.regoSource, 'utf8').digest('hex'),
        validFrom,
        validTo,
        createdBy: ctx.principal.subject,
        testSource: dto.testSource,
        testResults,
      });
      const created = (await this.groups.findVersion(tx, ctx.tenantId, groupId, version))!;
      await this.changes.record(
        tx,
        ctx,
        { change: 'VERSION_CREATED', groupId, groupName: group.name, versionId: id, version },
        { after: created },
      );
      return created;
    });
    return created;
  }

  async list(
    ctx: RequestContext,
    groupId: string,
    query: ListPolicyVersionsQueryDto,
  ): Promise<Page<PolicyVersionResponse>> {
    const { items, total } = await this.database.inTenant(ctx.tenantId, async (tx) => {
      await this.mustHaveGroup(tx, ctx.tenantId, groupId);
      return this.groups.listVersions(
        tx,
        ctx.tenantId,
        groupId,
        query.includeRetired,
        query.pageSize,
        pageOffset(query),
      );
    });
    return pageOf(items, total, query);
  }

  async get(ctx: RequestContext, groupId: string, version: string): Promise<PolicyVersionResponse> {
    return this.database.inTenant(ctx.tenantId, async (tx) => {
      const found = await this.groups.findVersion(tx, ctx.tenantId, groupId, version);
      if (!found) {
        throw new PoliciesException(
          PoliciesErrorCode.VersionNotFound,
          `version ${version} of policy group ${groupId} not found`,
        );
      }
      return found;
    });
  }

  /** Retiring ends the version's window now; a version still bound cannot be retired (R6). */
  async retire(
    ctx: RequestContext,
    groupId: string,
    version: string,
  ): Promise<PolicyVersionResponse> {
    const retired = await this.database.inTenant(ctx.tenantId, async (tx) => {
      const group = await this.mustHaveGroup(tx, ctx.tenantId, groupId);
      const found = await this.groups.findVersion(tx, ctx.tenantId, groupId, version);
      if (!found) {
        throw new PoliciesException(
          PoliciesErrorCode.VersionNotFound,
          `version ${version} of policy group ${groupId} not found`,
        );
      }
      if (found.retiredAt) {
        return found;
      }
      if (found.bindingCount > 0) {
        throw new PoliciesException(
          PoliciesErrorCode.VersionBound,
          `version ${version} is bound by ${found.bindingCount} binding(s); move them first`,
        );
      }
      await this.groups.retireVersion(tx, ctx.tenantId, found.id);
      const retired = (await this.groups.findVersion(tx, ctx.tenantId, groupId, version))!;
      await this.changes.record(
        tx,
        ctx,
        { change: 'VERSION_RETIRED', groupId, groupName: group.name, versionId: found.id, version },
        { before: found, after: retired },
      );
      return retired;
    });
    return retired;
  }

  /** D24: every error with its line and column, as a 400. */
  private compileOrThrow(regoSource: string, data: Record<string, unknown>): void {
    try {
      this.engine.compile(regoSource, data);
    } catch (error) {
      throw asCompileException(error, 'regoSource');
    }
  }

  /** Issue 15, D24: failing tests listed like compile errors, and nothing is stored. */
  private testOrThrow(
    regoSource: string,
    testSource: string,
    data: Record<string, unknown>,
  ): PolicyTestOutcome[] {
    let reports;
    try {
      reports = this.engine.test(regoSource, testSource, data);
    } catch (error) {
      throw asCompileException(error, 'testSource');
    }
    const failed = reports.filter((r) => r.status === 'FAIL' || r.status === 'ERROR');
    if (failed.length > 0) {
      throw new PoliciesException(
        PoliciesErrorCode.VersionTestsFail,
        `${failed.length} of ${reports.length} policy test(s) failed`,
        failed.map((r) => ({
          field: 'testSource',
          message: `line ${r.row}, column ${r.col}: ${r.name}: ${r.status}${r.detail ? ` (${r.detail})` : ''}`,
        })),
      );
    }
    return reports.map((r) => ({ name: r.name, status: r.status === 'SKIP' ? 'SKIP' : 'PASS' }));
  }

  private async mustHaveGroup(
    tx: Parameters<PolicyGroupsRepository['findGroup']>[0],
    tenantId: string,
    groupId: string,
  ) {
    const group = await this.groups.findGroup(tx, tenantId, groupId);
    if (!group) {
      throw new PoliciesException(
        PoliciesErrorCode.GroupNotFound,
        `policy group ${groupId} not found`,
      );
    }
    return group;
  }
}

/** A compile failure as D24's 400: each error under the field of the module it is in. */
function asCompileException(error: unknown, field: 'regoSource' | 'testSource'): unknown {
  if (!(error instanceof PolicyCompileFailure)) {
    return error;
  }
  return new PoliciesException(
    PoliciesErrorCode.VersionDoesNotCompile,
    `${field} does not compile: ${error.problems.length} error(s)`,
    error.problems.map((p) => ({
      field: p.file === 'policy_test.rego' ? 'testSource' : 'regoSource',
      message: `line ${p.row}, column ${p.col}: ${p.code}: ${p.message}`,
    })),
  );
}
