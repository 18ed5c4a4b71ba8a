import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { ALWAYS } from './support/policies';
import { RelayBed } from './support/relay-bed';
import { ADMIN_PERMS, TestCaller } from './support/relay-test-app';

type Json = Record<string, unknown>;

describe('evaluation packs', () => {
  const relay = RelayBed.use('packs');
  const { tenantId } = relay;

  const evaluation = (extra: Json = {}): Json => ({
    name: 'clean message',
    source: { type: 'AGENT', id: randomUUID(), name: 'a' },
    target: { type: 'MCP_SERVER', id: randomUUID(), name: 'm' },
    input: '{"params": {"arguments": {"note": "hello"}}}',
    hops: [
      {
        source: { type: 'AGENT', id: randomUUID() },
        sink: { type: 'MCP_SERVER', id: randomUUID() },
        expectedAction: 'LOG',
      },
    ],
    ...extra,
  });

  describe('operation 3', () => {
    it('should answer 201 with a Location and default the owner to the calling user', async () => {
      const response = await relay.admin.call(relay.app, 'POST', '/relay/v1/evaluation-packs', {
        name: 'smoke',
        description: 'first',
      });
      expect(response.status).toBe(201);
      expect(response.headers.location).toBe(
        `/relay/v1/evaluation-packs/${String(response.body.id)}`,
      );
      expect(response.body).toEqual(
        expect.objectContaining({
          name: 'smoke',
          description: 'first',
          enabled: true,
          evaluations: [],
          owner: { id: relay.admin.subject, name: expect.any(String) },
        }),
      );
      expect(response.body.lastRun).toBeUndefined();
    });

    it('should accept an owner who is a user of the tenant', async () => {
      const userId = randomUUID();
      await relay.publisher.publish('USER_LIFECYCLE', tenantId, {
        userId,
        email: 'lead@acme.example',
        displayName: 'Lead',
        change: 'CREATED',
        status: 'ACTIVE',
      });
      const pack = await eventually(async () => {
        const response = await relay.admin.call(relay.app, 'POST', '/relay/v1/evaluation-packs', {
          name: 'owned',
          ownerUserId: userId,
          enabled: false,
        });
        expect(response.status).toBe(201);
        return response.body;
      });
      expect(pack).toEqual(
        expect.objectContaining({ owner: { id: userId, name: 'Lead' }, enabled: false }),
      );
    });

    it('should answer 400 when the owner is not a user of the tenant', async () => {
      const otherTenantUser = randomUUID();
      await relay.publisher.publish('USER_LIFECYCLE', randomUUID(), {
        userId: otherTenantUser,
        email: 'x@other.example',
        change: 'CREATED',
        status: 'ACTIVE',
      });
      for (const ownerUserId of [randomUUID(), otherTenantUser]) {
        const response = await relay.admin.call<{ errors: Json[] }>(
          relay.app,
          'POST',
          '/relay/v1/evaluation-packs',
          { name: `p-${randomUUID()}`, ownerUserId },
        );
        expect(response.status).toBe(400);
        expect(response.body.errors).toEqual([
          { field: 'ownerUserId', message: 'ownerUserId must name a user of this tenant' },
        ]);
      }
    });

    it('should list every bad field when the body is invalid', async () => {
      const response = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'POST',
        '/relay/v1/evaluation-packs',
        {
          name: '',
          ownerUserId: 'me',
          description: 'x'.repeat(2_001),
          enabled: 'yes',
          colour: 'blue',
        },
      );
      expect(response.status).toBe(400);
      expect([...new Set(response.body.errors.map((e) => e.field))].sort()).toEqual([
        'colour',
        'description',
        'enabled',
        'name',
        'ownerUserId',
      ]);
      expect(
        (
          await relay.admin.call(relay.app, 'POST', '/relay/v1/evaluation-packs', {
            name: 'x'.repeat(201),
          })
        ).status,
      ).toBe(400);
    });

    it('should answer 409 on a duplicate name and 403 without TENANT:WRITE', async () => {
      await relay.admin.call(relay.app, 'POST', '/relay/v1/evaluation-packs', { name: 'dup' });
      expect(
        (await relay.admin.call(relay.app, 'POST', '/relay/v1/evaluation-packs', { name: 'dup' }))
          .status,
      ).toBe(409);
      const reader = await TestCaller.create(relay.issuer, tenantId, ['TENANT:READ']);
      const denied = await reader.call(relay.app, 'POST', '/relay/v1/evaluation-packs', {
        name: 'denied',
      });
      expect(denied.status).toBe(403);
      expect(String(denied.body.detail)).toContain('TENANT:WRITE');
    });

    it('should require an owner when the caller is not a user', async () => {
      const service = await TestCaller.create(relay.issuer, tenantId, ['TENANT:WRITE'], 'SERVICE');
      const response = await service.call<{ errors: Json[] }>(
        relay.app,
        'POST',
        '/relay/v1/evaluation-packs',
        { name: 'by-service' },
      );
      expect(response.status).toBe(400);
      expect(response.body.errors[0].field).toBe('ownerUserId');
    });
  });

  describe('packs, evaluations and runs', () => {
    it('should list, get, update and delete packs, and hide them from other tenants', async () => {
      const created = (
        await relay.admin.call(relay.app, 'POST', '/relay/v1/evaluation-packs', {
          name: 'crud-pack',
        })
      ).body;
      const id = String(created.id);
      const list = await relay.admin.call<{ items: Json[]; total: number }>(
        relay.app,
        'GET',
        '/relay/v1/evaluation-packs?name=crud-pack',
      );
      expect(list.body.items.map((p) => p.id)).toEqual([id]);
      const updated = await relay.admin.call(
        relay.app,
        'PATCH',
        `/relay/v1/evaluation-packs/${id}`,
        {
          description: 'now described',
          enabled: false,
        },
      );
      expect(updated.body).toEqual(
        expect.objectContaining({ description: 'now described', enabled: false }),
      );
      for (const [method, url] of [
        ['GET', ''],
        ['PATCH', ''],
        ['DELETE', ''],
        ['GET', '/evaluations'],
        ['POST', '/runs'],
        ['GET', '/runs'],
      ] as const) {
        const response = await relay.stranger.call(
          relay.app,
          method,
          `/relay/v1/evaluation-packs/${id}${url}`,
          method === 'PATCH' ? { enabled: true } : method === 'POST' ? {} : undefined,
        );
        expect([method, url, response.status]).toEqual([method, url, 404]);
      }
      expect(
        (await relay.admin.call(relay.app, 'DELETE', `/relay/v1/evaluation-packs/${id}`)).status,
      ).toBe(204);
      expect(
        (await relay.admin.call(relay.app, 'GET', `/relay/v1/evaluation-packs/${id}`)).status,
      ).toBe(404);
    });

    it('should create, list, update and delete evaluations with their hops', async () => {
      const pack = (
        await relay.admin.call(relay.app, 'POST', '/relay/v1/evaluation-packs', { name: 'evals' })
      ).body;
      const base = `/relay/v1/evaluation-packs/${String(pack.id)}/evaluations`;
      const created = await relay.admin.call(
        relay.app,
        'POST',
        base,
        evaluation({
          hops: [
            {
              ...(evaluation().hops as Json[])[0],
              assertions: [{ kind: 'ACTION', expected: 'LOG' }],
              expectedPatterns: [{ pattern: 'x', mode: 'MUST_NOT_MATCH' }],
            },
          ],
        }),
      );
      expect(created.status).toBe(201);
      const hop = (created.body.hops as Json[])[0];
      expect(hop.hopId).toEqual(expect.any(String));
      expect(hop.assertions).toEqual([{ checkId: 'check-1', kind: 'ACTION', expected: 'LOG' }]);
      expect((hop.expectedPatterns as Json[])[0].patternId).toEqual(expect.any(String));
      const id = String(created.body.id);
      expect((await relay.admin.call(relay.app, 'GET', `${base}/${id}`)).body).toEqual(
        created.body,
      );
      const patched = await relay.admin.call(relay.app, 'PATCH', `${base}/${id}`, {
        enabled: false,
        name: 'renamed',
      });
      expect(patched.body).toEqual(
        expect.objectContaining({ enabled: false, name: 'renamed', hops: created.body.hops }),
      );
      expect((await relay.admin.call<{ total: number }>(relay.app, 'GET', base)).body.total).toBe(
        1,
      );
      expect(
        (await relay.admin.call(relay.app, 'GET', `/relay/v1/evaluation-packs/${String(pack.id)}`))
          .body.evaluations,
      ).toEqual([patched.body]);
      expect((await relay.stranger.call(relay.app, 'GET', `${base}/${id}`)).status).toBe(404);
      expect((await relay.admin.call(relay.app, 'DELETE', `${base}/${id}`)).status).toBe(204);
      expect((await relay.admin.call(relay.app, 'GET', `${base}/${id}`)).status).toBe(404);
    });

    it('should answer 400, 404 and 409 on pack and evaluation updates', async () => {
      const pack = (
        await relay.admin.call(relay.app, 'POST', '/relay/v1/evaluation-packs', {
          name: 'updates-a',
        })
      ).body;
      await relay.admin.call(relay.app, 'POST', '/relay/v1/evaluation-packs', {
        name: 'updates-b',
      });
      const url = `/relay/v1/evaluation-packs/${String(pack.id)}`;
      const bad = await relay.admin.call<{ errors: Json[] }>(relay.app, 'PATCH', url, {
        name: '',
        enabled: 'no',
        ownerUserId: 'x',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e) => e.field).sort()).toEqual([
        'enabled',
        'name',
        'ownerUserId',
      ]);
      expect((await relay.admin.call(relay.app, 'PATCH', url, { name: 'updates-b' })).status).toBe(
        409,
      );
      expect(
        (await relay.admin.call(relay.app, 'PATCH', url, { ownerUserId: randomUUID() })).status,
      ).toBe(400);
      const created = await relay.admin.call(relay.app, 'POST', `${url}/evaluations`, evaluation());
      const evaluationUrl = `${url}/evaluations/${String(created.body.id)}`;
      const badEvaluation = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'PATCH',
        evaluationUrl,
        {
          hops: [],
          input: '',
        },
      );
      expect(badEvaluation.status).toBe(400);
      expect(badEvaluation.body.errors.map((e) => e.field).sort()).toEqual(['hops', 'input']);
      expect(
        (await relay.stranger.call(relay.app, 'PATCH', evaluationUrl, { name: 'x' })).status,
      ).toBe(404);
      expect((await relay.stranger.call(relay.app, 'DELETE', evaluationUrl)).status).toBe(404);
      expect(
        (await relay.admin.call(relay.app, 'GET', `${url}/evaluations/${randomUUID()}`)).status,
      ).toBe(404);
      expect(
        (
          await relay.admin.call(
            relay.app,
            'POST',
            `/relay/v1/evaluation-packs/${randomUUID()}/evaluations`,
            evaluation(),
          )
        ).status,
      ).toBe(404);
    });

    it('should list every bad field of an evaluation, down to its hops', async () => {
      const pack = (
        await relay.admin.call(relay.app, 'POST', '/relay/v1/evaluation-packs', {
          name: 'bad-evals',
        })
      ).body;
      const response = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'POST',
        `/relay/v1/evaluation-packs/${String(pack.id)}/evaluations`,
        {
          name: 'bad',
          source: { type: 'ROBOT', id: randomUUID() },
          target: { type: 'AGENT', id: 'nope' },
          input: '',
          hops: [
            {
              source: { type: 'AGENT', id: randomUUID() },
              sink: { type: 'AGENT', id: randomUUID() },
              expectedAction: 'EXPLODE',
              expectedPolicyIds: ['x'],
              expectedPatterns: [{ pattern: 'a', mode: 'SOMETIMES', flags: 'gz' }],
              assertions: [{ kind: 'VIBES', expected: 'good' }],
            },
          ],
        },
      );
      expect(response.status).toBe(400);
      expect([...new Set(response.body.errors.map((e) => e.field))].sort()).toEqual([
        'hops.0.assertions.0.kind',
        'hops.0.expectedAction',
        'hops.0.expectedPatterns.0.flags',
        'hops.0.expectedPatterns.0.mode',
        'hops.0.expectedPolicyIds',
        'input',
        'source.type',
        'target.id',
      ]);
    });

    it('should run a pack started by a user and by the API, and record lastRun', async () => {
      const caller = await TestCaller.create(relay.issuer, randomUUID(), ADMIN_PERMS);
      const group = (
        await caller.call(relay.app, 'POST', '/relay/v1/policy-groups', { name: 'warn-all' })
      ).body;
      await caller.call(relay.app, 'POST', `/relay/v1/policy-groups/${String(group.id)}/versions`, {
        regoSource: ALWAYS('WARN'),
      });
      await caller.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
        groupId: group.id,
        bindingLevel: 'TENANT',
      });
      const pack = (
        await caller.call(relay.app, 'POST', '/relay/v1/evaluation-packs', { name: 'runs' })
      ).body;
      await caller.call(
        relay.app,
        'POST',
        `/relay/v1/evaluation-packs/${String(pack.id)}/evaluations`,
        evaluation({ hops: [{ ...(evaluation().hops as Json[])[0], expectedAction: 'WARN' }] }),
      );

      const started = await caller.call(
        relay.app,
        'POST',
        `/relay/v1/evaluation-packs/${String(pack.id)}/runs`,
        {},
      );
      expect(started.status).toBe(202);
      expect(started.headers.location).toBe(
        `/relay/v1/evaluation-packs/${String(pack.id)}/runs/${String(started.body.runId)}`,
      );
      expect(started.body).toEqual(
        expect.objectContaining({
          status: 'PENDING',
          triggerSource: 'USER',
          executionMode: 'SIMULATED',
          packName: 'runs',
        }),
      );
      const done = await eventually(async () => {
        const run = await caller.call(
          relay.app,
          'GET',
          `/relay/v1/evaluation-packs/${String(pack.id)}/runs/${String(started.body.runId)}`,
        );
        expect(run.body.status).toBe('COMPLETED');
        return run.body;
      });
      expect(done).toEqual(
        expect.objectContaining({
          evaluationCount: 1,
          passed: 1,
          failed: 0,
          skipped: 0,
          durationMs: expect.any(Number),
          startedAt: expect.any(String),
          finishedAt: expect.any(String),
        }),
      );
      expect(done.triggeredBy).toEqual({ id: caller.subject, name: expect.any(String) });
      expect(
        (await caller.call(relay.app, 'GET', `/relay/v1/evaluation-packs/${String(pack.id)}`)).body
          .lastRun,
      ).toEqual(expect.objectContaining({ runId: started.body.runId, status: 'COMPLETED' }));

      const service = await TestCaller.create(
        relay.issuer,
        caller.tenantId,
        ['TENANT:WRITE'],
        'SERVICE',
      );
      const byApi = await service.call(
        relay.app,
        'POST',
        `/relay/v1/evaluation-packs/${String(pack.id)}/runs`,
        { executionMode: 'LIVE' },
      );
      expect(byApi.body.triggerSource).toBe('API');
      const live = await eventually(async () => {
        const run = await caller.call(
          relay.app,
          'GET',
          `/relay/v1/evaluation-packs/${String(pack.id)}/runs/${String(byApi.body.runId)}`,
        );
        expect(run.body.status).toBe('COMPLETED');
        return run.body;
      });
      // G16: a LIVE run sends; a target that is not in the tenant is a hop never reached.
      expect(live).toMatchObject({ executionMode: 'LIVE', failed: 1 });
      expect(JSON.stringify(live.results)).toContain('NOT_REACHED');
      expect(JSON.stringify(live.results)).toContain('is not in the tenant');
      const runs = await caller.call<{ items: Json[]; total: number }>(
        relay.app,
        'GET',
        `/relay/v1/evaluation-packs/${String(pack.id)}/runs`,
      );
      expect(runs.body.total).toBe(2);
      expect(
        (
          await caller.call(
            relay.app,
            'GET',
            `/relay/v1/evaluation-packs/${String(pack.id)}/runs/${randomUUID()}`,
          )
        ).status,
      ).toBe(404);
      expect(
        (
          await caller.call(
            relay.app,
            'POST',
            `/relay/v1/evaluation-packs/${String(pack.id)}/runs`,
            {
              executionMode: 'DREAM',
            },
          )
        ).status,
      ).toBe(400);
    });
  });
});
