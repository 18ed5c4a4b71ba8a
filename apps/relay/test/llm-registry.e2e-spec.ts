import { randomUUID } from 'node:crypto';

import { eventually } from '@agp/testing';
import { Client } from 'pg';

import { RelayBed } from './support/relay-bed';

type Json = Record<string, unknown>;

/** D39: providers with a write-only API key, gateways as ordered provider lists with a model map. */
describe('LLM providers and gateways', () => {
  const relay = RelayBed.use('llm_registry');

  async function provider(extra: Json = {}): Promise<string> {
    const created = await relay.admin.call(relay.app, 'POST', '/relay/v1/llm-providers', {
      name: `provider-${randomUUID().slice(0, 8)}`,
      baseUrl: 'https://llm.acme.example/v1',
      ...extra,
    });
    expect(created.status).toBe(201);
    return String(created.body.id);
  }

  it('should store the API key sealed and answer it only as "********"', async () => {
    const id = await provider({ apiKey: 'sk-test-secret-1234' });

    const read = await relay.admin.call(relay.app, 'GET', `/relay/v1/llm-providers/${id}`);
    const cleared = await relay.admin.call(relay.app, 'PATCH', `/relay/v1/llm-providers/${id}`, {
      apiKey: null,
    });
    const client = new Client({ connectionString: relay.db.url });
    await client.connect();
    const { rows } = await client.query<{ api_key_ciphertext: string | null }>(
      'SELECT api_key_ciphertext FROM relay.llm_providers WHERE id = $1',
      [id],
    );
    await client.end();

    expect(read.body.apiKey).toBe('********');
    expect(JSON.stringify(read.body)).not.toContain('sk-test-secret');
    expect(cleared.body.apiKey).toBeUndefined();
    expect(rows[0].api_key_ciphertext).toBeNull();
  });

  it('should refuse a base URL the egress rules forbid (D37)', async () => {
    const refused = await relay.admin.call<{ errors: Json[] }>(
      relay.app,
      'POST',
      '/relay/v1/llm-providers',
      {
        name: 'metadata',
        baseUrl: 'http://169.254.169.254/v1',
      },
    );

    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e) => e.field)).toEqual(['baseUrl']);
  });

  it('should create a gateway with its providers in order and a model map, and record LLM_LIFECYCLE', async () => {
    const [first, second] = [await provider(), await provider()];

    const created = await relay.admin.call(relay.app, 'POST', '/relay/v1/llm-gateways', {
      name: 'prod',
      providers: [second, first],
      modelMap: { fast: 'gpt-4o-mini' },
    });
    const id = String(created.body.id);
    const patched = await relay.admin.call(relay.app, 'PATCH', `/relay/v1/llm-gateways/${id}`, {
      providers: [first],
      modelMap: null,
    });

    expect(created.status).toBe(201);
    expect(created.body).toEqual(
      expect.objectContaining({ providers: [second, first], modelMap: { fast: 'gpt-4o-mini' } }),
    );
    expect(patched.body.providers).toEqual([first]);
    expect(patched.body.modelMap).toBeUndefined();
    await eventually(() => {
      const changes = relay.tap
        .ofType('LLM_LIFECYCLE')
        .filter((e) =>
          [id, first].includes(
            String((e.data.details as Json).llmGatewayId ?? (e.data.details as Json).llmProviderId),
          ),
        )
        .map(
          (e) => `${String((e.data.sink as Json).type)}:${String((e.data.details as Json).change)}`,
        );
      expect(changes).toEqual(
        expect.arrayContaining([
          'LLM_PROVIDER:CREATED',
          'LLM_GATEWAY:CREATED',
          'LLM_GATEWAY:UPDATED',
        ]),
      );
    });
  });

  it('should answer 400 naming the providers that are not the tenant own, and every bad field', async () => {
    const foreign = await relay.stranger.call(relay.app, 'POST', '/relay/v1/llm-providers', {
      name: 'theirs',
      baseUrl: 'https://llm.other.example/v1',
    });

    const unknown = await relay.admin.call<{ errors: Json[] }>(
      relay.app,
      'POST',
      '/relay/v1/llm-gateways',
      {
        name: 'borrowing',
        providers: [String(foreign.body.id)],
      },
    );
    const invalid = await relay.admin.call<{ errors: Json[] }>(
      relay.app,
      'POST',
      '/relay/v1/llm-gateways',
      {
        name: '',
        providers: [],
        modelMap: { fast: 42 },
      },
    );

    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.errors)).toContain(String(foreign.body.id));
    expect(invalid.status).toBe(400);
    expect([...new Set(invalid.body.errors.map((e) => e.field))].sort()).toEqual([
      'modelMap',
      'name',
      'providers',
    ]);
  });

  it('should refuse to delete a provider a gateway routes to with 409, and delete it once unused', async () => {
    const used = await provider();
    const other = await provider();
    const gateway = await relay.admin.call(relay.app, 'POST', '/relay/v1/llm-gateways', {
      name: `gw-${randomUUID().slice(0, 8)}`,
      providers: [used, other],
    });

    const refused = await relay.admin.call(relay.app, 'DELETE', `/relay/v1/llm-providers/${used}`);
    await relay.admin.call(
      relay.app,
      'PATCH',
      `/relay/v1/llm-gateways/${String(gateway.body.id)}`,
      {
        providers: [other],
      },
    );
    const removed = await relay.admin.call(relay.app, 'DELETE', `/relay/v1/llm-providers/${used}`);

    expect(refused.status).toBe(409);
    expect(String(refused.body.detail)).toContain(String(gateway.body.name));
    expect(removed.status).toBe(204);
  });
});
