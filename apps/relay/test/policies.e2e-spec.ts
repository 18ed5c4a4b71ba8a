import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { RelayBed } from './support/relay-bed';
import { TestCaller } from './support/relay-test-app';
import { ALWAYS } from './support/policies';

type Json = Record<string, unknown>;

describe('policy groups, versions and bindings', () => {
  const relay = RelayBed.use('policies');

  let reader: TestCaller;

  beforeAll(async () => {
    reader = await relay.caller(['TENANT:READ']);
  });

  async function group(name = `g-${randomUUID().slice(0, 8)}`): Promise<Json> {
    const response = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-groups', {
      name,
      description: 'test group',
    });
    expect(response.status).toBe(201);
    return response.body;
  }

  async function version(groupId: unknown, body: Json): Promise<Json> {
    const response = await relay.admin.call(
      relay.app,
      'POST',
      `/relay/v1/policy-groups/${String(groupId)}/versions`,
      body,
    );
    expect(response.status).toBe(201);
    return response.body;
  }

  describe('policy groups', () => {
    it('should create a group with a Location when the body is valid', async () => {
      const response = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-groups', {
        name: 'guardrails-a',
        data: { banned: ['x'] },
      });
      expect(response.status).toBe(201);
      expect(response.headers.location).toBe(`/relay/v1/policy-groups/${String(response.body.id)}`);
      expect(response.body).toEqual(
        expect.objectContaining({ name: 'guardrails-a', data: { banned: ['x'] }, versionCount: 0 }),
      );
    });

    it('should list every bad field when the body is invalid', async () => {
      const response = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'POST',
        '/relay/v1/policy-groups',
        { name: '', description: 7, data: 'no', extra: 1 },
      );
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e) => e.field).sort()).toEqual(
        expect.arrayContaining(['data', 'description', 'extra', 'name']),
      );
    });

    it('should answer 409 when the name is taken', async () => {
      const created = await group();
      expect(
        (
          await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-groups', {
            name: created.name,
          })
        ).status,
      ).toBe(409);
    });

    it('should answer 404 when the group belongs to another tenant', async () => {
      const created = await group();
      expect(
        (
          await relay.stranger.call(
            relay.app,
            'GET',
            `/relay/v1/policy-groups/${String(created.id)}`,
          )
        ).status,
      ).toBe(404);
      expect(
        (
          await relay.stranger.call(
            relay.app,
            'PATCH',
            `/relay/v1/policy-groups/${String(created.id)}`,
            {
              description: 'x',
            },
          )
        ).status,
      ).toBe(404);
      expect(
        (
          await relay.stranger.call(
            relay.app,
            'DELETE',
            `/relay/v1/policy-groups/${String(created.id)}`,
          )
        ).status,
      ).toBe(404);
    });

    it('should update, list and delete a group when asked', async () => {
      const created = await group();
      const updated = await relay.admin.call(
        relay.app,
        'PATCH',
        `/relay/v1/policy-groups/${String(created.id)}`,
        { description: 'changed' },
      );
      expect(updated.body.description).toBe('changed');
      const list = await reader.call<{ items: Json[]; total: number }>(
        relay.app,
        'GET',
        `/relay/v1/policy-groups?name=${String(created.name)}`,
      );
      expect(list.body.items.map((g) => g.id)).toEqual([created.id]);
      expect(
        (
          await relay.admin.call(
            relay.app,
            'DELETE',
            `/relay/v1/policy-groups/${String(created.id)}`,
          )
        ).status,
      ).toBe(204);
      expect(
        (await relay.admin.call(relay.app, 'GET', `/relay/v1/policy-groups/${String(created.id)}`))
          .status,
      ).toBe(404);
    });

    it('should answer 403 naming the role when a reader writes', async () => {
      const response = await reader.call(relay.app, 'POST', '/relay/v1/policy-groups', {
        name: 'nope',
      });
      expect(response.status).toBe(403);
      expect(String(response.body.detail)).toContain('TENANT:WRITE');
    });
  });

  describe('policy versions', () => {
    it('should compile, hash and number versions that increase when created', async () => {
      const g = await group();
      const first = await version(g.id, { regoSource: ALWAYS('LOG') });
      expect(first).toEqual(
        expect.objectContaining({ version: '1', name: g.name, bindingCount: 0, groupId: g.id }),
      );
      expect(first.regoSourceHash).toMatch(/^[0-9a-f]{64}$/);
      const named = await version(g.id, { regoSource: ALWAYS('WARN'), version: '1.5' });
      expect(named.version).toBe('1.5');
      const next = await version(g.id, { regoSource: ALWAYS('WARN') });
      expect(next.version).toBe('1.6');
      const list = await reader.call<{ items: Json[] }>(
        relay.app,
        'GET',
        `/relay/v1/policy-groups/${String(g.id)}/versions`,
      );
      expect(list.body.items.map((v) => v.version)).toEqual(['1.6', '1.5', '1']);
    });

    it('should answer 409 when the version does not increase', async () => {
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG'), version: '2' });
      const response = await relay.admin.call(
        relay.app,
        'POST',
        `/relay/v1/policy-groups/${String(g.id)}/versions`,
        { regoSource: ALWAYS('LOG'), version: '1.9' },
      );
      expect(response.status).toBe(409);
    });

    it('should answer 400 with every error line and column when the module does not compile', async () => {
      const g = await group();
      const source = 'package bad\n\nimport rego.v1\n\ndecision := {"action": x} if { y == 1 }\n';
      const response = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'POST',
        `/relay/v1/policy-groups/${String(g.id)}/versions`,
        { regoSource: source },
      );
      expect(response.status).toBe(400);
      expect(response.body.errors.length).toBeGreaterThanOrEqual(2);
      for (const error of response.body.errors) {
        expect(error.field).toBe('regoSource');
        expect(String(error.message)).toMatch(/^line 5, column \d+: /);
      }
    });

    describe('policy tests (issue 15)', () => {
      const words = `package acme.words

decision := {"action": "BLOCK"} if {
  some w in data.acme.words.banned
  contains(input.message.text, w)
}
`;

      it("should run the test module on creation and keep it with each test's outcome when all pass", async () => {
        const g = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-groups', {
          name: `words-${randomUUID().slice(0, 8)}`,
          data: { banned: ['secret'] },
        });
        const testSource = `package acme.words_test

import data.acme.words

test_blocks_banned_word if {
  words.decision.action == "BLOCK" with input as {"message": {"text": "a secret plan"}}
}

test_mocked_data if {
  words.decision with input as {"message": {"text": "xyz"}} with data.acme.words.banned as ["xyz"]
}

test_lets_others_through if {
  not words.decision with input as {"message": {"text": "a plan"}}
}

todo_later if false
`;
        const created = await version(g.body.id, { regoSource: words, testSource });
        expect(created.testSource).toBe(testSource);
        expect(created.testResults).toEqual([
          { name: 'data.acme.words_test.test_blocks_banned_word', status: 'PASS' },
          { name: 'data.acme.words_test.test_lets_others_through', status: 'PASS' },
          { name: 'data.acme.words_test.test_mocked_data', status: 'PASS' },
          { name: 'data.acme.words_test.todo_later', status: 'SKIP' },
        ]);
        const read = await relay.admin.call<Json>(
          relay.app,
          'GET',
          `/relay/v1/policy-groups/${String(g.body.id)}/versions/${String(created.version)}`,
        );
        expect(read.body.testResults).toEqual(created.testResults);
      });

      it('should answer 400 listing each failing test with its line and column, and store nothing', async () => {
        const g = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-groups', {
          name: `words-${randomUUID().slice(0, 8)}`,
          data: { banned: ['secret'] },
        });
        const testSource = `package acme.words_test

import data.acme.words

test_passes if words.decision with input as {"message": {"text": "secret"}}

test_wrong_action if {
  words.decision.action == "LOG" with input as {"message": {"text": "secret"}}
}
`;
        const response = await relay.admin.call<{ type: string; errors: Json[] }>(
          relay.app,
          'POST',
          `/relay/v1/policy-groups/${String(g.body.id)}/versions`,
          { regoSource: words, testSource },
        );
        expect(response.status).toBe(400);
        expect(response.body.type).toContain('policy-version-tests-failed');
        expect(response.body.errors).toEqual([
          {
            field: 'testSource',
            message: 'line 7, column 1: data.acme.words_test.test_wrong_action: FAIL (undefined)',
          },
        ]);
        const list = await relay.admin.call<{ items: Json[] }>(
          relay.app,
          'GET',
          `/relay/v1/policy-groups/${String(g.body.id)}/versions`,
        );
        expect(list.body.items).toEqual([]);
      });

      it("should answer 400 with the test module's compile errors under testSource", async () => {
        const g = await group();
        const response = await relay.admin.call<{ type: string; errors: Json[] }>(
          relay.app,
          'POST',
          `/relay/v1/policy-groups/${String(g.id)}/versions`,
          { regoSource: ALWAYS('LOG'), testSource: 'package t\n\ntest_x if {\n  y == 1\n}\n' },
        );
        expect(response.status).toBe(400);
        expect(response.body.type).toContain('policy-version-does-not-compile');
        expect(response.body.errors).toEqual([
          expect.objectContaining({
            field: 'testSource',
            message: expect.stringMatching(
              /^line 4, column \d+: rego_unsafe_var_error: var y is unsafe/,
            ),
          }),
        ]);
      });
    });

    it('should answer 400 listing fields when the version body is invalid', async () => {
      const g = await group();
      const response = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'POST',
        `/relay/v1/policy-groups/${String(g.id)}/versions`,
        { version: 'v1', validFrom: 'yesterday' },
      );
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e) => e.field)).toEqual(
        expect.arrayContaining(['regoSource', 'version', 'validFrom']),
      );
    });

    it('should retire an unbound version and refuse to retire a bound one', async () => {
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG') });
      await version(g.id, { regoSource: ALWAYS('WARN') });
      const binding = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
        groupId: g.id,
        bindingLevel: 'TENANT',
        groupVersion: '2',
      });
      expect(binding.status).toBe(201);
      expect(
        (
          await relay.admin.call(
            relay.app,
            'POST',
            `/relay/v1/policy-groups/${String(g.id)}/versions/2/retire`,
          )
        ).status,
      ).toBe(409);
      const retired = await relay.admin.call(
        relay.app,
        'POST',
        `/relay/v1/policy-groups/${String(g.id)}/versions/1/retire`,
      );
      expect(retired.status).toBe(200);
      expect(retired.body.retiredAt).toBeDefined();
      expect(
        (
          await relay.stranger.call(
            relay.app,
            'GET',
            `/relay/v1/policy-groups/${String(g.id)}/versions/1`,
          )
        ).status,
      ).toBe(404);
    });
  });

  describe('policy bindings', () => {
    it('should bind the latest valid version and name it when no version is given', async () => {
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG') });
      await version(g.id, { regoSource: ALWAYS('WARN') });
      const response = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
        groupId: g.id,
        bindingLevel: 'TENANT',
        priority: 5,
      });
      expect(response.status).toBe(201);
      expect(response.headers.location).toBe(
        `/relay/v1/policy-bindings/${String(response.body.bindingId)}`,
      );
      expect(response.body).toEqual(
        expect.objectContaining({
          groupName: g.name,
          groupVersion: '2',
          isLatestGroupVersion: true,
          priority: 5,
          bindingLevel: 'TENANT',
          version: '1',
        }),
      );
    });

    it('should refuse a binding naming a deleted agent as it refuses an unknown one', async () => {
      const agentId = randomUUID();
      const lifecycle = (change: 'CREATED' | 'DELETED', revision: number) =>
        relay.publisher.publish('AGENT_LIFECYCLE', relay.admin.tenantId, {
          agentId,
          name: 'retired',
          change,
          status: change === 'DELETED' ? 'DELETED' : 'ACTIVE',
          permissions: [],
          revision,
        });
      await lifecycle('CREATED', 1);
      const agentUrl = `/relay/v1/agents/${agentId}`;
      await eventually(async () =>
        expect((await relay.admin.call(relay.app, 'GET', agentUrl)).status).toBe(200),
      );
      await lifecycle('DELETED', 2);
      await eventually(async () =>
        expect((await relay.admin.call(relay.app, 'GET', agentUrl)).status).toBe(404),
      );
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG') });
      const refused = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'POST',
        '/relay/v1/policy-bindings',
        { groupId: g.id, bindingLevel: 'AGENT', agentId },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.errors.map((e) => e.field)).toEqual(['agentId']);
    });

    it('should list every bad field when the binding does not fit its level', async () => {
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG') });
      const response = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'POST',
        '/relay/v1/policy-bindings',
        {
          groupId: g.id,
          bindingLevel: 'SUBSCRIPTION',
          sinkAgentId: randomUUID(),
          channelId: randomUUID(),
        },
      );
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e) => e.field).sort()).toEqual([
        'channelId',
        'sinkAgentId',
        'sourceAgentId',
      ]);
    });

    it('should answer 400 for bad fields and 404 for another tenant group', async () => {
      const bad = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'POST',
        '/relay/v1/policy-bindings',
        {
          groupId: 'x',
          bindingLevel: 'PLANET',
          priority: -1,
        },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e) => e.field)).toEqual(
        expect.arrayContaining(['groupId', 'bindingLevel', 'priority']),
      );
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG') });
      expect(
        (
          await relay.stranger.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
            groupId: g.id,
            bindingLevel: 'TENANT',
          })
        ).status,
      ).toBe(404);
    });

    it('should update, list, and delete a binding when asked, and hide it from other tenants', async () => {
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG') });
      const created = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
        groupId: g.id,
        bindingLevel: 'TENANT',
      });
      const id = String(created.body.bindingId);
      const updated = await relay.admin.call(
        relay.app,
        'PATCH',
        `/relay/v1/policy-bindings/${id}`,
        {
          priority: 7,
          validTo: '2999-01-01T00:00:00Z',
        },
      );
      expect(updated.body).toEqual(
        expect.objectContaining({ priority: 7, version: '2', validTo: '2999-01-01T00:00:00.000Z' }),
      );
      const list = await reader.call<{ items: Json[] }>(
        relay.app,
        'GET',
        `/relay/v1/policy-bindings?groupId=${String(g.id)}`,
      );
      expect(list.body.items.map((b) => b.bindingId)).toEqual([id]);
      expect(
        (await relay.stranger.call(relay.app, 'GET', `/relay/v1/policy-bindings/${id}`)).status,
      ).toBe(404);
      expect(
        (
          await relay.stranger.call(
            relay.app,
            'GET',
            `/relay/v1/policy-bindings/${id}/available-versions`,
          )
        ).status,
      ).toBe(404);
      expect(
        (await relay.stranger.call(relay.app, 'POST', `/relay/v1/policy-bindings/${id}/upgrade`))
          .status,
      ).toBe(404);
      expect(
        (await relay.admin.call(relay.app, 'DELETE', `/relay/v1/policy-bindings/${id}`)).status,
      ).toBe(204);
      expect(
        (await relay.admin.call(relay.app, 'GET', `/relay/v1/policy-bindings/${id}`)).status,
      ).toBe(404);
    });

    it('should list the other valid versions newest first when asked for available versions (operation 4)', async () => {
      const g = await group();
      const hour = 3_600_000;
      await version(g.id, { regoSource: ALWAYS('LOG') });
      await version(g.id, { regoSource: ALWAYS('LOG') });
      await version(g.id, {
        regoSource: ALWAYS('LOG'),
        validTo: new Date(Date.now() + 1_000).toISOString(),
      });
      await version(g.id, {
        regoSource: ALWAYS('LOG'),
        validFrom: new Date(Date.now() + hour).toISOString(),
      });
      await version(g.id, { regoSource: ALWAYS('LOG') });
      await version(g.id, { regoSource: ALWAYS('LOG'), version: '10' });
      await relay.admin.call(
        relay.app,
        'POST',
        `/relay/v1/policy-groups/${String(g.id)}/versions/1/retire`,
      );
      const binding = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
        groupId: g.id,
        bindingLevel: 'TENANT',
        groupVersion: '2',
      });
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const response = await reader.call<Json[]>(
        relay.app,
        'GET',
        `/relay/v1/policy-bindings/${String(binding.body.bindingId)}/available-versions`,
      );
      expect(response.status).toBe(200);
      // 1 retired, 2 current, 3 expired, 4 not yet valid: 10 and 5 remain, newest (numerically) first.
      expect(response.body.map((v) => v.version)).toEqual(['10', '5']);
      expect(response.body[0]).toEqual(
        expect.objectContaining({
          groupId: g.id,
          name: g.name,
          bindingCount: 0,
          regoSourceHash: expect.any(String),
        }),
      );
    });

    it('should move to the latest valid version when upgraded without targetVersion (operation 7)', async () => {
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG') });
      const binding = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
        groupId: g.id,
        bindingLevel: 'TENANT',
      });
      const id = String(binding.body.bindingId);
      const same = await relay.admin.call(
        relay.app,
        'POST',
        `/relay/v1/policy-bindings/${id}/upgrade`,
      );
      expect(same.status).toBe(200);
      expect(same.body).toEqual(binding.body);
      await version(g.id, { regoSource: ALWAYS('WARN') });
      await version(g.id, {
        regoSource: ALWAYS('BLOCK'),
        validFrom: new Date(Date.now() + 3_600_000).toISOString(),
      });
      expect(
        (await relay.admin.call(relay.app, 'GET', `/relay/v1/policy-bindings/${id}`)).body
          .isLatestGroupVersion,
      ).toBe(false);
      const moved = await relay.admin.call(
        relay.app,
        'POST',
        `/relay/v1/policy-bindings/${id}/upgrade`,
      );
      expect(moved.status).toBe(200);
      expect(moved.body).toEqual(
        expect.objectContaining({ groupVersion: '2', isLatestGroupVersion: true, version: '2' }),
      );
      // D18: the move records POLICY_LIFECYCLE; the unchanged upgrade before it recorded nothing.
      await eventually(() =>
        expect(
          relay.tap
            .ofType('POLICY_LIFECYCLE')
            .filter((e) => e.data.bindingId === id)
            .map((e) => e.data.change),
        ).toEqual(['BINDING_CREATED', 'BINDING_UPGRADED']),
      );
      const event = relay.tap
        .ofType('POLICY_LIFECYCLE')
        .find((e) => e.data.bindingId === id && e.data.change === 'BINDING_UPGRADED')!;
      expect(event.tenantId).toBe(relay.admin.tenantId);
      expect(event.data).toEqual(
        expect.objectContaining({
          groupId: g.id,
          version: '2',
          previousVersion: '1',
          policyIds: [g.id],
          actor: expect.objectContaining({ type: 'USER', id: relay.admin.subject }),
        }),
      );
    });

    it('should move to targetVersion, answer 404 for an unknown one and 409 outside its window (operation 7)', async () => {
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG') });
      await version(g.id, { regoSource: ALWAYS('WARN') });
      await version(g.id, {
        regoSource: ALWAYS('BLOCK'),
        validFrom: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const binding = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
        groupId: g.id,
        bindingLevel: 'TENANT',
        groupVersion: '2',
      });
      const id = String(binding.body.bindingId);
      const back = await relay.admin.call(
        relay.app,
        'POST',
        `/relay/v1/policy-bindings/${id}/upgrade?targetVersion=1`,
      );
      expect(back.status).toBe(200);
      expect(back.body).toEqual(
        expect.objectContaining({ groupVersion: '1', isLatestGroupVersion: false }),
      );
      expect(
        (
          await relay.admin.call(
            relay.app,
            'POST',
            `/relay/v1/policy-bindings/${id}/upgrade?targetVersion=9`,
          )
        ).status,
      ).toBe(404);
      expect(
        (
          await relay.admin.call(
            relay.app,
            'POST',
            `/relay/v1/policy-bindings/${id}/upgrade?targetVersion=3`,
          )
        ).status,
      ).toBe(409);
      expect(
        (
          await relay.admin.call(
            relay.app,
            'POST',
            `/relay/v1/policy-bindings/${id}/upgrade?targetVersion=abc`,
          )
        ).status,
      ).toBe(400);
      expect(
        (await reader.call(relay.app, 'POST', `/relay/v1/policy-bindings/${id}/upgrade`)).status,
      ).toBe(403);
    });

    it('should answer 409 when a group with bindings is deleted', async () => {
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG') });
      await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
        groupId: g.id,
        bindingLevel: 'TENANT',
      });
      expect(
        (await relay.admin.call(relay.app, 'DELETE', `/relay/v1/policy-groups/${String(g.id)}`))
          .status,
      ).toBe(409);
    });
  });

  describe('remaining errors of every endpoint', () => {
    it('should answer 400, 404 and 409 on group updates and version routes', async () => {
      const g = await group();
      const other = await group();
      const bad = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'PATCH',
        `/relay/v1/policy-groups/${String(g.id)}`,
        { name: '', data: [1], colour: 'red' },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e) => e.field).sort()).toEqual(['colour', 'data', 'name']);
      expect(
        (
          await relay.admin.call(relay.app, 'PATCH', `/relay/v1/policy-groups/${String(g.id)}`, {
            name: other.name,
          })
        ).status,
      ).toBe(409);
      await version(g.id, { regoSource: ALWAYS('LOG') });
      const versions = `/relay/v1/policy-groups/${String(g.id)}/versions`;
      expect(
        (await relay.stranger.call(relay.app, 'POST', versions, { regoSource: ALWAYS('LOG') }))
          .status,
      ).toBe(404);
      expect((await relay.stranger.call(relay.app, 'GET', versions)).status).toBe(404);
      expect((await relay.stranger.call(relay.app, 'POST', `${versions}/1/retire`)).status).toBe(
        404,
      );
      expect((await relay.admin.call(relay.app, 'GET', `${versions}/7`)).status).toBe(404);
      expect((await relay.admin.call(relay.app, 'POST', `${versions}/7/retire`)).status).toBe(404);
      expect(
        (await relay.admin.call(relay.app, 'GET', '/relay/v1/policy-groups/not-a-uuid')).status,
      ).toBe(400);
      const window = await relay.admin.call<{ errors: Json[] }>(relay.app, 'POST', versions, {
        regoSource: ALWAYS('LOG'),
        validFrom: '2030-01-02T00:00:00Z',
        validTo: '2030-01-01T00:00:00Z',
      });
      expect(window.status).toBe(400);
      expect(window.body.errors.map((e) => e.field)).toEqual(['validTo']);
    });

    it('should answer 400 and 404 on binding updates and deletes', async () => {
      const g = await group();
      await version(g.id, { regoSource: ALWAYS('LOG') });
      const binding = await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
        groupId: g.id,
        bindingLevel: 'TENANT',
      });
      const url = `/relay/v1/policy-bindings/${String(binding.body.bindingId)}`;
      const bad = await relay.admin.call<{ errors: Json[] }>(relay.app, 'PATCH', url, {
        priority: 'high',
        validFrom: 'soon',
        groupVersion: '2',
      });
      expect(bad.status).toBe(400);
      expect([...new Set(bad.body.errors.map((e) => e.field))].sort()).toEqual([
        'groupVersion',
        'priority',
        'validFrom',
      ]);
      const backwards = await relay.admin.call<{ errors: Json[] }>(relay.app, 'PATCH', url, {
        validTo: '2000-01-01T00:00:00Z',
      });
      expect(backwards.status).toBe(400);
      expect(backwards.body.errors.map((e) => e.field)).toEqual(['validTo']);
      expect((await relay.stranger.call(relay.app, 'PATCH', url, { priority: 1 })).status).toBe(
        404,
      );
      expect((await relay.stranger.call(relay.app, 'DELETE', url)).status).toBe(404);
      expect(
        (await relay.admin.call(relay.app, 'DELETE', `/relay/v1/policy-bindings/${randomUUID()}`))
          .status,
      ).toBe(404);
      const unknownRefs = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'POST',
        '/relay/v1/policy-bindings',
        {
          groupId: g.id,
          bindingLevel: 'CHANNEL_SUBSCRIPTION',
          agentId: randomUUID(),
          channelId: randomUUID(),
        },
      );
      expect(unknownRefs.status).toBe(400);
      expect(unknownRefs.body.errors.map((e) => e.field).sort()).toEqual(['agentId', 'channelId']);
      const futureOnly = await group();
      await version(futureOnly.id, {
        regoSource: ALWAYS('LOG'),
        validFrom: '2999-01-01T00:00:00Z',
      });
      expect(
        (
          await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
            groupId: futureOnly.id,
            bindingLevel: 'TENANT',
          })
        ).status,
      ).toBe(409);
      expect(
        (
          await relay.admin.call(relay.app, 'POST', '/relay/v1/policy-bindings', {
            groupId: futureOnly.id,
            bindingLevel: 'TENANT',
            groupVersion: '1',
          })
        ).status,
      ).toBe(409);
    });

    it('should answer 400 on a bad settings body and 403 to a reader', async () => {
      const bad = await relay.admin.call<{ errors: Json[] }>(
        relay.app,
        'PATCH',
        '/relay/v1/policy-settings',
        {
          failOpen: 'sometimes',
        },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e) => e.field)).toEqual(['failOpen']);
      expect(
        (await reader.call(relay.app, 'PATCH', '/relay/v1/policy-settings', { failOpen: true }))
          .status,
      ).toBe(403);
      expect((await reader.call(relay.app, 'GET', '/relay/v1/policy-settings')).body).toEqual({
        failOpen: false,
      });
    });
  });
});
