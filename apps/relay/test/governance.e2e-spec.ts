import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { RelayBed } from './support/relay-bed';
import { ADMIN_PERMS, TestCaller } from './support/relay-test-app';

type Json = Record<string, unknown>;
type Problem = { detail: string; errors?: Array<{ field: string; message: string }> };

/** Issue 17: governance records, risk tiers, reviews, attestations and incidents. */
describe('governance records', () => {
  const relay = RelayBed.use('governance');
  const { tenantId } = relay;
  let mcpOnly: TestCaller;
  let reader: TestCaller;

  beforeAll(async () => {
    mcpOnly = await relay.caller(['MCP_REGISTRY:WRITE']);
    reader = await relay.caller(['REGISTRY:READ']);
  });

  async function user(status = 'ACTIVE'): Promise<string> {
    const userId = randomUUID();
    await relay.publisher.publish('USER_LIFECYCLE', tenantId, {
      userId,
      email: `${userId.slice(0, 8)}@acme.example`,
      change: 'CREATED',
      status,
    });
    // The projection is eventually there: a record naming the user is then accepted.
    return userId;
  }

  async function mcpServer(): Promise<string> {
    const created = await relay.call('POST', '/relay/v1/mcp-servers', {
      name: `tools-${randomUUID()}`,
      url: 'https://tools.acme.example/mcp',
      transport: 'STREAMABLE_HTTP',
    });
    expect(created.status).toBe(201);
    return String(created.body.id);
  }

  async function record(body: Json): Promise<Json> {
    const created = await eventually(async () => {
      const response = await relay.call('POST', '/relay/v1/governance/records', body);
      expect(response.status).toBe(201);
      return response;
    });
    expect(created.headers.location).toBe(
      `/relay/v1/governance/records/${String(created.body.id)}`,
    );
    return created.body;
  }

  function governanceEvents(recordId: string): Json[] {
    return relay.tap
      .ofType('GOVERNANCE_LIFECYCLE')
      .filter((e) => (e.data.record as Json | undefined)?.recordId === recordId)
      .map((e) => e.data);
  }

  it('should answer the default risk tiers when the tenant defined none', async () => {
    const response = await reader.call<{ tiers: Json[] }>(
      relay.app,
      'GET',
      '/relay/v1/governance/risk-tiers',
    );
    expect(response.status).toBe(200);
    expect(response.body.tiers.map((t) => t.name)).toEqual(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']);
  });

  it('should create a record with its review due date and record GOVERNANCE_LIFECYCLE with the snapshot', async () => {
    const agentId = await relay.agent();
    const ownerUserId = await user();
    const before = Date.now();
    const created = await record({
      subjectType: 'AGENT',
      subjectId: agentId,
      riskTier: 'HIGH',
      ownerUserId,
    });
    expect(created).toMatchObject({
      subjectType: 'AGENT',
      subjectId: agentId,
      subjectName: `agent-${agentId.slice(0, 8)}`,
      riskTier: 'HIGH',
      ownerUserId,
      ownerStatus: 'ACTIVE',
      revision: 1,
      openIncidents: 0,
    });
    const due = new Date(String(created.reviewDueAt)).getTime();
    expect(due).toBeGreaterThanOrEqual(before + 90 * 86_400_000 - 1_000);
    expect(due).toBeLessThanOrEqual(Date.now() + 90 * 86_400_000);
    await eventually(() =>
      expect(governanceEvents(String(created.id))).toEqual([
        expect.objectContaining({
          change: 'RECORD_CREATED',
          actor: expect.objectContaining({ id: relay.admin.subject }),
          record: expect.objectContaining({
            revision: 1,
            riskTier: 'HIGH',
            tierSeverity: 'HIGH',
            ownerStatus: 'ACTIVE',
            reviewDueAt: created.reviewDueAt,
            isDeleted: false,
          }),
        }),
      ]),
    );
  });

  it('should list every bad field when a create is invalid, and change nothing', async () => {
    const response = await relay.call<Problem>('POST', '/relay/v1/governance/records', {
      subjectType: 'AGENT',
      subjectId: randomUUID(),
      riskTier: 'SEVERE',
      ownerUserId: randomUUID(),
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.map((e) => e.field).sort()).toEqual([
      'ownerUserId',
      'riskTier',
      'subjectId',
    ]);
    const shape = await relay.call<Problem>('POST', '/relay/v1/governance/records', {
      subjectType: 'TENANT',
      subjectId: 'x',
      extra: 1,
    });
    expect(shape.status).toBe(400);
    expect(shape.body.errors?.map((e) => e.field).sort()).toEqual([
      'extra',
      'subjectId',
      'subjectType',
    ]);
  });

  it('should answer 409 for a second record of the same subject', async () => {
    const agentId = await relay.agent();
    await record({ subjectType: 'AGENT', subjectId: agentId });
    const again = await relay.call('POST', '/relay/v1/governance/records', {
      subjectType: 'AGENT',
      subjectId: agentId,
    });
    expect(again.status).toBe(409);
  });

  it('should guard a record by its subject’s registry role and hide it from another tenant', async () => {
    const agentId = await relay.agent();
    const created = await record({ subjectType: 'AGENT', subjectId: agentId });
    const forbidden = await mcpOnly.call<Problem>(
      relay.app,
      'POST',
      '/relay/v1/governance/records',
      {
        subjectType: 'AGENT',
        subjectId: agentId,
      },
    );
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.detail).toContain('REGISTRY:WRITE');
    expect(
      (await mcpOnly.call(relay.app, 'GET', `/relay/v1/governance/records/${String(created.id)}`))
        .status,
    ).toBe(403);
    expect(
      (await reader.call(relay.app, 'GET', `/relay/v1/governance/records/${String(created.id)}`))
        .status,
    ).toBe(200);
    expect(
      (await reader.call(relay.app, 'DELETE', `/relay/v1/governance/records/${String(created.id)}`))
        .status,
    ).toBe(403);
    expect(
      (
        await relay.stranger.call(
          relay.app,
          'GET',
          `/relay/v1/governance/records/${String(created.id)}`,
        )
      ).status,
    ).toBe(404);
    const strangerList = await relay.stranger.call<{ total: number }>(
      relay.app,
      'GET',
      '/relay/v1/governance/records',
    );
    expect(strangerList.body.total).toBe(0);
    // The MCP-only caller lists only MCP server records.
    const server = await mcpServer();
    const serverRecord = await record({
      subjectType: 'MCP_SERVER',
      subjectId: server,
      riskTier: 'LOW',
    });
    const listed = await mcpOnly.call<{ items: Json[] }>(
      relay.app,
      'GET',
      '/relay/v1/governance/records',
    );
    expect(listed.body.items.map((r) => r.id)).toEqual([serverRecord.id]);
    expect(
      (await mcpOnly.call(relay.app, 'GET', '/relay/v1/governance/records?subjectType=AGENT'))
        .status,
    ).toBe(403);
    expect((await relay.call('GET', '/relay/v1/governance/records/not-a-uuid')).status).toBe(400);
  });

  it('should update tier and owner, move the review due date, and clear with null', async () => {
    const agentId = await relay.agent();
    const created = await record({ subjectType: 'AGENT', subjectId: agentId, riskTier: 'LOW' });
    const id = String(created.id);
    const patched = await relay.call('PATCH', `/relay/v1/governance/records/${id}`, {
      riskTier: 'CRITICAL',
    });
    expect(patched.status).toBe(200);
    expect(patched.body.revision).toBe(2);
    const dueGap =
      new Date(String(patched.body.reviewDueAt)).getTime() -
      new Date(String(created.createdAt)).getTime();
    expect(dueGap).toBe(30 * 86_400_000);
    const cleared = await relay.call('PATCH', `/relay/v1/governance/records/${id}`, {
      riskTier: null,
    });
    expect(cleared.body).toMatchObject({
      riskTier: null,
      reviewDueAt: null,
      attestationStaleAt: null,
    });
    const bad = await relay.call<Problem>('PATCH', `/relay/v1/governance/records/${id}`, {
      riskTier: 'NOPE',
      ownerUserId: 'x',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.map((e) => e.field)).toEqual(['ownerUserId']);
    const unknownTier = await relay.call<Problem>('PATCH', `/relay/v1/governance/records/${id}`, {
      riskTier: 'NOPE',
    });
    expect(unknownTier.status).toBe(400);
    expect(unknownTier.body.errors?.[0]?.field).toBe('riskTier');
    expect((await relay.call('GET', `/relay/v1/governance/records/${id}`)).body.revision).toBe(3);
  });

  it('should review, attest and take incident reports, each recorded', async () => {
    const agentId = await relay.agent();
    const created = await record({ subjectType: 'AGENT', subjectId: agentId, riskTier: 'MEDIUM' });
    const id = String(created.id);
    const reviewed = await relay.call('POST', `/relay/v1/governance/records/${id}/reviews`, {
      note: 'ok',
    });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body.lastReviewedByLabel).toBeTruthy();
    expect(
      new Date(String(reviewed.body.reviewDueAt)).getTime() -
        new Date(String(reviewed.body.lastReviewedAt)).getTime(),
    ).toBe(180 * 86_400_000);

    const attested = await relay.call('POST', `/relay/v1/governance/records/${id}/attestations`, {
      statement: 'controls in place',
    });
    expect(attested.status).toBe(201);
    const attestations = await reader.call<{ items: Json[] }>(
      relay.app,
      'GET',
      `/relay/v1/governance/records/${id}/attestations`,
    );
    expect(attestations.body.items).toEqual([
      expect.objectContaining({ statement: 'controls in place', attestedBy: relay.admin.subject }),
    ]);
    expect(
      (await relay.call('POST', `/relay/v1/governance/records/${id}/attestations`, {})).status,
    ).toBe(400);

    const opened = await relay.call('POST', `/relay/v1/governance/records/${id}/incidents`, {
      title: 'data leak',
      severity: 'HIGH',
    });
    expect(opened.status).toBe(201);
    expect(
      new Date(String(opened.body.reportDueAt)).getTime() -
        new Date(String(opened.body.createdAt)).getTime(),
    ).toBeGreaterThan(14 * 86_400_000 - 2_000);
    const past = await relay.call<Problem>('POST', `/relay/v1/governance/records/${id}/incidents`, {
      title: 't',
      severity: 'HIGH',
      reportDueAt: '2020-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    expect(past.body.errors?.[0]?.field).toBe('reportDueAt');
    const incidentId = String(opened.body.id);
    expect((await relay.call('GET', `/relay/v1/governance/records/${id}`)).body.openIncidents).toBe(
      1,
    );
    const report = `/relay/v1/governance/records/${id}/incidents/${incidentId}/report`;
    const filed = await relay.call('POST', report, { report: 'root cause found' });
    expect(filed.status).toBe(200);
    expect(filed.body).toMatchObject({ status: 'REPORTED', report: 'root cause found' });
    expect((await relay.call('POST', report, { report: 'again' })).status).toBe(409);
    expect(
      (await relay.call('GET', `/relay/v1/governance/records/${id}/incidents/${randomUUID()}`))
        .status,
    ).toBe(404);
    expect(
      (await relay.stranger.call(relay.app, 'GET', `/relay/v1/governance/records/${id}/incidents`))
        .status,
    ).toBe(404);

    await eventually(() =>
      expect(governanceEvents(id).map((e) => [e.change, (e.record as Json).revision])).toEqual([
        ['RECORD_CREATED', 1],
        ['REVIEWED', 2],
        ['ATTESTED', 3],
        ['INCIDENT_OPENED', 4],
        ['INCIDENT_REPORTED', 5],
      ]),
    );
    const last = governanceEvents(id).at(-1)!.record as Json;
    expect(last.openIncidents).toEqual([]);
    expect(last.attestedAt).toBeTruthy();
  });

  it('should record OWNER_ORPHANED when the owner is disabled and OWNER_RESTORED when reactivated', async () => {
    const agentId = await relay.agent();
    const ownerUserId = await user();
    const created = await record({
      subjectType: 'AGENT',
      subjectId: agentId,
      riskTier: 'LOW',
      ownerUserId,
    });
    const id = String(created.id);
    const change = async (
      status: string,
      kind: 'SUSPENDED' | 'ACTIVATED' | 'DELETED',
    ): Promise<unknown> =>
      relay.publisher.publish('USER_LIFECYCLE', tenantId, {
        userId: ownerUserId,
        email: 'owner@acme.example',
        change: kind,
        status,
      });
    await change('DISABLED', 'SUSPENDED');
    await eventually(async () =>
      expect((await relay.call('GET', `/relay/v1/governance/records/${id}`)).body.ownerStatus).toBe(
        'DISABLED',
      ),
    );
    await change('ACTIVE', 'ACTIVATED');
    await eventually(async () =>
      expect((await relay.call('GET', `/relay/v1/governance/records/${id}`)).body.ownerStatus).toBe(
        'ACTIVE',
      ),
    );
    await change('DELETED', 'DELETED');
    await eventually(() =>
      expect(governanceEvents(id).map((e) => [e.change, (e.record as Json).ownerStatus])).toEqual([
        ['RECORD_CREATED', 'ACTIVE'],
        ['OWNER_ORPHANED', 'DISABLED'],
        ['OWNER_RESTORED', 'ACTIVE'],
        ['OWNER_ORPHANED', 'DELETED'],
      ]),
    );
    // A disabled user cannot be made an owner.
    const suspended = await user('DISABLED');
    await eventually(async () => {
      const response = await relay.call<Problem>('PATCH', `/relay/v1/governance/records/${id}`, {
        ownerUserId: suspended,
      });
      expect(response.body.errors?.[0]?.message).toContain('DISABLED');
    });
  });

  it('should replace the risk tiers, refuse to drop a tier in use and move due dates of a redefined tier', async () => {
    const tiersUrl = '/relay/v1/governance/risk-tiers';
    const tenant = randomUUID();
    const owner = await TestCaller.create(relay.issuer, tenant, ADMIN_PERMS);
    const custom = [
      {
        name: 'minor',
        severity: 'LOW',
        reviewCadenceDays: 200,
        attestationMaxAgeDays: 100,
        incidentReportDays: 10,
      },
      {
        name: 'major',
        severity: 'HIGH',
        reviewCadenceDays: 20,
        attestationMaxAgeDays: 10,
        incidentReportDays: 2,
      },
    ];
    const put = await owner.call(relay.app, 'PUT', tiersUrl, { tiers: custom });
    expect(put.status).toBe(200);
    expect((await owner.call<{ tiers: Json[] }>(relay.app, 'GET', tiersUrl)).body.tiers).toEqual(
      custom,
    );
    expect((await relay.call<{ tiers: Json[] }>('GET', tiersUrl)).body.tiers).toHaveLength(4);
    expect((await reader.call(relay.app, 'PUT', tiersUrl, { tiers: custom })).status).toBe(403);
    const invalid = await owner.call<Problem>(relay.app, 'PUT', tiersUrl, {
      tiers: [{ ...custom[0], reviewCadenceDays: 0 }, custom[0]],
    });
    expect(invalid.status).toBe(400);
    const duplicate = await owner.call<Problem>(relay.app, 'PUT', tiersUrl, {
      tiers: [custom[0], custom[0]],
    });
    expect(duplicate.status).toBe(400);

    const created = await owner.call(relay.app, 'POST', '/relay/v1/mcp-servers', {
      name: 'srv',
      url: 'https://tools.acme.example/mcp',
      transport: 'STREAMABLE_HTTP',
    });
    const rec = await owner.call(relay.app, 'POST', '/relay/v1/governance/records', {
      subjectType: 'MCP_SERVER',
      subjectId: created.body.id,
      riskTier: 'major',
    });
    expect(rec.status).toBe(201);
    expect((await owner.call(relay.app, 'PUT', tiersUrl, { tiers: [custom[0]] })).status).toBe(409);
    const redefined = await owner.call(relay.app, 'PUT', tiersUrl, {
      tiers: [custom[0], { ...custom[1], reviewCadenceDays: 5 }],
    });
    expect(redefined.status).toBe(200);
    const after = await owner.call(
      relay.app,
      'GET',
      `/relay/v1/governance/records/${String(rec.body.id)}`,
    );
    expect(
      new Date(String(after.body.reviewDueAt)).getTime() -
        new Date(String(after.body.createdAt)).getTime(),
    ).toBe(5 * 86_400_000);
    await eventually(() =>
      expect(
        relay.tap
          .ofType('GOVERNANCE_LIFECYCLE')
          .filter((e) => e.tenantId === tenant)
          .map((e) => e.data.change),
      ).toEqual(['RISK_TIERS_CHANGED', 'RECORD_CREATED', 'RECORD_UPDATED', 'RISK_TIERS_CHANGED']),
    );
  });

  it('should delete a record with a last snapshot that marks it deleted', async () => {
    const agentId = await relay.agent();
    const created = await record({ subjectType: 'AGENT', subjectId: agentId, riskTier: 'LOW' });
    const id = String(created.id);
    expect((await relay.call('DELETE', `/relay/v1/governance/records/${id}`)).status).toBe(204);
    expect((await relay.call('GET', `/relay/v1/governance/records/${id}`)).status).toBe(404);
    expect((await relay.call('DELETE', `/relay/v1/governance/records/${id}`)).status).toBe(404);
    await eventually(() =>
      expect(governanceEvents(id).at(-1)).toMatchObject({
        change: 'RECORD_DELETED',
        record: expect.objectContaining({ isDeleted: true, revision: 2 }),
      }),
    );
  });
});
