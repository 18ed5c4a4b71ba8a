import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';

import { RelayBed } from './support/relay-bed';
import { TestCaller } from './support/relay-test-app';

type Json = Record<string, unknown>;

describe('registry', () => {
  const relay = RelayBed.use('registry');
  const { tenantId } = relay;

  describe('agents', () => {
    it('should project an agent from tenant-auth and keep it once when the event is redelivered', async () => {
      const agentId = randomUUID();
      const event = await relay.publisher.publish('AGENT_LIFECYCLE', tenantId, {
        agentId,
        name: 'billing-agent',
        change: 'CREATED',
        status: 'ACTIVE',
        permissions: [],
      });
      const agent = await eventually(async () => {
        const response = await relay.call('GET', `/relay/v1/agents/${agentId}`);
        expect(response.status).toBe(200);
        return response.body;
      });
      expect(agent).toEqual(
        expect.objectContaining({
          id: agentId,
          name: 'billing-agent',
          visibility: 'PRIVATE',
          status: 'ACTIVE',
        }),
      );
      await relay.publisher.publish('AGENT_LIFECYCLE', tenantId, {
        ...event.data,
        name: 'renamed',
        change: 'UPDATED',
      });
      await eventually(async () =>
        expect((await relay.call('GET', `/relay/v1/agents/${agentId}`)).body.name).toBe('renamed'),
      );
      const list = await relay.call<{ items: Json[] }>('GET', '/relay/v1/agents?name=renamed');
      expect(list.body.items.map((a) => a.id)).toEqual([agentId]);
      expect(
        (await relay.stranger.call(relay.app, 'GET', `/relay/v1/agents/${agentId}`)).status,
      ).toBe(404);
    });

    it('should update metadata, check the owner and record AGENT_LIFECYCLE when patched', async () => {
      const agentId = randomUUID();
      const userId = randomUUID();
      await relay.publisher.publish('USER_LIFECYCLE', tenantId, {
        userId,
        email: 'owner@acme.example',
        displayName: 'Owner',
        change: 'CREATED',
        status: 'ACTIVE',
      });
      await relay.publisher.publish('AGENT_LIFECYCLE', tenantId, {
        agentId,
        name: 'crm-agent',
        change: 'CREATED',
        status: 'ACTIVE',
        permissions: [],
      });
      await eventually(async () =>
        expect((await relay.call('GET', `/relay/v1/agents/${agentId}`)).status).toBe(200),
      );
      const unknownOwner = await relay.call<{ errors: Json[] }>(
        'PATCH',
        `/relay/v1/agents/${agentId}`,
        { ownerUserId: randomUUID() },
      );
      expect(unknownOwner.status).toBe(400);
      expect(unknownOwner.body.errors.map((e) => e.field)).toEqual(['ownerUserId']);
      const bad = await relay.call<{ errors: Json[] }>('PATCH', `/relay/v1/agents/${agentId}`, {
        visibility: 'SECRET',
        agentCardUrl: 'nope',
        riskTier: '',
      });
      expect(bad.body.errors.map((e) => e.field).sort()).toEqual([
        'agentCardUrl',
        'riskTier',
        'visibility',
      ]);
      const patched = await eventually(async () => {
        const response = await relay.call('PATCH', `/relay/v1/agents/${agentId}`, {
          description: 'talks to the CRM',
          agentCardUrl: 'https://agents.acme.example/crm/card.json',
          visibility: 'INTERNAL',
          ownerUserId: userId,
          riskTier: 'HIGH',
        });
        expect(response.status).toBe(200);
        return response.body;
      });
      expect(patched).toEqual(
        expect.objectContaining({
          visibility: 'INTERNAL',
          riskTier: 'HIGH',
          owner: { id: userId, name: 'Owner' },
        }),
      );
      await eventually(() =>
        expect(
          relay.tap
            .ofType('AGENT_LIFECYCLE')
            .some(
              (e) =>
                e.data.agentId === agentId &&
                (e.data.details as Json | undefined)?.origin === 'relay',
            ),
        ).toBe(true),
      );
      // The relay's own event does not overwrite the projection.
      expect((await relay.call('GET', `/relay/v1/agents/${agentId}`)).body.name).toBe('crm-agent');
      expect(
        (
          await relay.stranger.call(relay.app, 'PATCH', `/relay/v1/agents/${agentId}`, {
            riskTier: 'LOW',
          })
        ).status,
      ).toBe(404);
    });

    it('should hide a deleted agent but keep its name on the bindings that name it', async () => {
      const agentId = randomUUID();
      await relay.publisher.publish('AGENT_LIFECYCLE', tenantId, {
        agentId,
        name: 'short-lived',
        change: 'CREATED',
        status: 'ACTIVE',
        permissions: [],
      });
      await eventually(async () =>
        expect((await relay.call('GET', `/relay/v1/agents/${agentId}`)).status).toBe(200),
      );
      const group = await relay.call('POST', '/relay/v1/policy-groups', {
        name: `g-${agentId}`,
      });
      await relay.call('POST', `/relay/v1/policy-groups/${String(group.body.id)}/versions`, {
        regoSource: 'package a.b\nimport rego.v1\ndecision := {"action": "LOG"}\n',
      });
      const binding = await relay.call('POST', '/relay/v1/policy-bindings', {
        groupId: group.body.id,
        bindingLevel: 'AGENT',
        agentId,
      });
      expect(binding.body.agent).toEqual({ id: agentId, name: 'short-lived' });
      await relay.publisher.publish('AGENT_LIFECYCLE', tenantId, {
        agentId,
        name: 'short-lived',
        change: 'DELETED',
        status: 'DELETED',
        permissions: [],
      });
      await eventually(async () =>
        expect((await relay.call('GET', `/relay/v1/agents/${agentId}`)).status).toBe(404),
      );
      expect(
        (await relay.call<{ items: Json[] }>('GET', '/relay/v1/agents?name=short-lived')).body
          .items,
      ).toEqual([]);
      expect(
        (await relay.call('GET', `/relay/v1/policy-bindings/${String(binding.body.bindingId)}`))
          .body.agent,
      ).toEqual({ id: agentId, name: 'short-lived' });
    });

    it('should forget a deleted user so that it can no longer own anything', async () => {
      const agentId = randomUUID();
      const userId = randomUUID();
      await relay.publisher.publish('AGENT_LIFECYCLE', tenantId, {
        agentId,
        name: 'owned-agent',
        change: 'CREATED',
        status: 'ACTIVE',
        permissions: [],
      });
      await relay.publisher.publish('USER_LIFECYCLE', tenantId, {
        userId,
        email: 'gone@acme.example',
        change: 'CREATED',
        status: 'ACTIVE',
      });
      await eventually(async () =>
        expect(
          (
            await relay.call('PATCH', `/relay/v1/agents/${agentId}`, {
              ownerUserId: userId,
            })
          ).status,
        ).toBe(200),
      );
      await relay.publisher.publish('USER_LIFECYCLE', tenantId, {
        userId,
        email: 'gone@acme.example',
        change: 'DELETED',
        status: 'DELETED',
      });
      await eventually(async () =>
        expect(
          (
            await relay.call('PATCH', `/relay/v1/agents/${agentId}`, {
              ownerUserId: userId,
            })
          ).status,
        ).toBe(400),
      );
    });

    it('should answer 403 when the caller lacks REGISTRY:WRITE', async () => {
      const reader = await TestCaller.create(relay.issuer, tenantId, ['REGISTRY:READ']);
      expect(
        (
          await reader.call(relay.app, 'PATCH', `/relay/v1/agents/${randomUUID()}`, {
            riskTier: 'LOW',
          })
        ).status,
      ).toBe(403);
    });
  });

  const catalogs = [
    {
      path: 'mcp-servers',
      event: 'MCP_LIFECYCLE',
      perms: 'MCP_REGISTRY',
      valid: {
        name: 'crm-tools',
        url: 'https://tools.acme.example/mcp',
        transport: 'STREAMABLE_HTTP',
        protocolVersion: '2025-06-18',
      },
      invalid: { name: '', url: 'not a url', transport: 'CARRIER_PIGEON' },
      invalidFields: ['name', 'transport', 'url'],
      patch: { protocolVersion: '2025-03-26' },
    },
    {
      path: 'channels',
      event: undefined,
      perms: 'CHANNELS',
      valid: { name: 'support-slack', kind: 'SLACK', description: 'support' },
      invalid: { kind: 'FAX', extra: true },
      invalidFields: ['extra', 'kind', 'name'],
      patch: { description: 'support desk' },
    },
    {
      path: 'llm-providers',
      event: 'LLM_LIFECYCLE',
      perms: 'LLM_GATEWAY',
      valid: {
        name: 'openai-prod',
        baseUrl: 'https://api.openai.com/v1',
        models: ['gpt-4o', 'gpt-4o-mini'],
        timeoutMs: 20_000,
      },
      invalid: { name: 'x'.repeat(201), baseUrl: 'ftp://x', models: 'gpt-4o' },
      invalidFields: ['baseUrl', 'models', 'name'],
      patch: { models: ['gpt-4.1'] },
    },
  ];

  describe.each(catalogs)(
    '$path',
    ({ path, event, perms, valid, invalid, invalidFields, patch }) => {
      it('should refuse null for a required field on update with a 400 naming it, and clear an optional one with null', async () => {
        const created = await relay.call('POST', `/relay/v1/${path}`, {
          ...valid,
          name: `${String(valid.name)}-nulls`,
          description: 'to be cleared',
        });
        const id = String(created.body.id);

        const nullName = await relay.admin.call<{ errors?: Array<{ field: string }> }>(
          relay.app,
          'PATCH',
          `/relay/v1/${path}/${id}`,
          { name: null },
        );
        const cleared = await relay.call('PATCH', `/relay/v1/${path}/${id}`, {
          description: null,
        });
        await relay.call('DELETE', `/relay/v1/${path}/${id}`);

        expect(nullName.status).toBe(400);
        expect([...new Set(nullName.body.errors?.map((e) => e.field))]).toEqual(['name']);
        expect(cleared.status).toBe(200);
        expect(cleared.body.description ?? null).toBeNull();
      });

      it('should create, read, list, update and delete an entry and record its lifecycle', async () => {
        const created = await relay.call('POST', `/relay/v1/${path}`, valid);
        expect(created.status).toBe(201);
        const id = String(created.body.id);
        expect(created.headers.location).toBe(`/relay/v1/${path}/${id}`);
        expect(created.body).toEqual(expect.objectContaining(valid));
        expect((await relay.call('GET', `/relay/v1/${path}/${id}`)).body).toEqual(created.body);
        const list = await relay.call<{ items: Json[]; total: number }>(
          'GET',
          `/relay/v1/${path}?pageSize=10`,
        );
        expect(list.body).toEqual(expect.objectContaining({ page: 1, pageSize: 10, total: 1 }));
        const updated = await relay.call('PATCH', `/relay/v1/${path}/${id}`, patch);
        expect(updated.body).toEqual(expect.objectContaining({ ...valid, ...patch }));
        expect((await relay.call('DELETE', `/relay/v1/${path}/${id}`)).status).toBe(204);
        expect((await relay.call('GET', `/relay/v1/${path}/${id}`)).status).toBe(404);
        if (event) {
          await eventually(() => {
            const changes = relay.tap
              .ofType(event)
              .filter((e) => Object.values(e.data.details as Json).includes(id))
              .map((e) => (e.data.details as Json).change);
            expect(changes).toEqual(['CREATED', 'UPDATED', 'DELETED']);
          });
        }
      });

      it('should list every bad field when the body is invalid', async () => {
        const response = await relay.call<{ errors: Json[] }>('POST', `/relay/v1/${path}`, invalid);
        expect(response.status).toBe(400);
        expect([...new Set(response.body.errors.map((e) => e.field))].sort()).toEqual(
          invalidFields,
        );
      });

      it('should answer 409 on a duplicate name and 404 across tenants', async () => {
        const body = { ...valid, name: `${valid.name}-${randomUUID().slice(0, 6)}` };
        const created = await relay.call('POST', `/relay/v1/${path}`, body);
        expect((await relay.call('POST', `/relay/v1/${path}`, body)).status).toBe(409);
        const id = String(created.body.id);
        expect(
          (await relay.stranger.call(relay.app, 'GET', `/relay/v1/${path}/${id}`)).status,
        ).toBe(404);
        expect(
          (await relay.stranger.call(relay.app, 'PATCH', `/relay/v1/${path}/${id}`, patch)).status,
        ).toBe(404);
        expect(
          (await relay.stranger.call(relay.app, 'DELETE', `/relay/v1/${path}/${id}`)).status,
        ).toBe(404);
        expect((await relay.call('GET', `/relay/v1/${path}/not-a-uuid`)).status).toBe(400);
      });

      it('should answer 403 when the caller may read but not delete', async () => {
        const writer = await TestCaller.create(relay.issuer, tenantId, [`${perms}:WRITE`]);
        const created = await writer.call(relay.app, 'POST', `/relay/v1/${path}`, {
          ...valid,
          name: `${valid.name}-${randomUUID().slice(0, 6)}`,
        });
        expect(created.status).toBe(201);
        expect(
          (await writer.call(relay.app, 'DELETE', `/relay/v1/${path}/${String(created.body.id)}`))
            .status,
        ).toBe(403);
      });
    },
  );
});
