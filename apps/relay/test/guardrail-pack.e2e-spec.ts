import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { deleteNatsStreams } from '@agp/messaging/testing';
import {
  TEST_NATS_URL,
  TestDatabase,
  TestTokenIssuer,
  createTestDatabase,
  eventually,
  uniqueNatsPrefix,
} from '@agp/testing';

import { EvaluationVerdict, RunResponse } from '../src/evaluation-packs/dto/pack-responses';
import { EventPublisher } from './support/event-tools';
import {
  DISABLED_EVALUATION,
  PackWorld,
  WRONG_EVALUATIONS,
  guardrailEvaluations,
} from './support/guardrail-pack';
import { GUARDRAILS, PII, REVIEW, SECRETS, WORDS } from './support/policies';
import { ADMIN_PERMS, TestCaller, startRelay } from './support/relay-test-app';

type Json = Record<string, unknown>;

describe('a guardrail evaluation pack over five policies', () => {
  let db: TestDatabase;
  let prefix: string;
  let app: NestFastifyApplication;
  let publisher: EventPublisher;
  let admin: TestCaller;
  let world: PackWorld;
  const bindings: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDatabase('relay_pack_run');
    prefix = uniqueNatsPrefix('relayrun');
    const issuer = await TestTokenIssuer.create();
    // No poll to speak of: every run here must start with a kick, POLICY_CHANGE ones too (F54).
    app = await startRelay({ databaseUrl: db.url, prefix, issuer, runPollMs: 60_000 });
    publisher = await EventPublisher.connect(prefix);
    admin = await TestCaller.create(issuer, randomUUID(), ADMIN_PERMS);
    const agents = { billing: randomUUID(), risky: randomUUID(), helper: randomUUID() };
    for (const [name, agentId] of Object.entries(agents)) {
      await publisher.publish('AGENT_LIFECYCLE', admin.tenantId, {
        agentId,
        name: `${name}-agent`,
        change: 'CREATED',
        status: 'ACTIVE',
        permissions: [],
      });
    }
    await eventually(async () =>
      expect((await admin.call<{ total: number }>(app, 'GET', '/relay/v1/agents')).body.total).toBe(
        3,
      ),
    );
    const created = async (path: string, body: Json) =>
      String((await admin.call(app, 'POST', `/relay/v1/${path}`, body)).body.id);
    const server = await created('mcp-servers', {
      name: 'crm-tools',
      url: 'https://tools.acme.example/mcp',
      transport: 'STREAMABLE_HTTP',
    });
    const gateway = await created('llm-gateways', {
      name: 'openai-prod',
      providers: [
        await created('llm-providers', { name: 'openai', baseUrl: 'https://api.openai.com/v1' }),
      ],
    });
    const channel = await created('channels', { name: 'support-slack', kind: 'SLACK' });
    const group = async (name: string, regoSource: string, binding: Json, data: Json = {}) => {
      const id = await created('policy-groups', { name, data });
      expect(
        (await admin.call(app, 'POST', `/relay/v1/policy-groups/${id}/versions`, { regoSource }))
          .status,
      ).toBe(201);
      const bound = await admin.call(app, 'POST', '/relay/v1/policy-bindings', {
        groupId: id,
        ...binding,
      });
      expect(bound.status).toBe(201);
      bindings[name] = String(bound.body.bindingId);
      return id;
    };
    world = {
      billing: agents.billing,
      risky: agents.risky,
      helper: agents.helper,
      server,
      gateway,
      channel,
      groups: {
        guardrails: await group('guardrails', GUARDRAILS, { bindingLevel: 'TENANT', priority: 10 }),
        secrets: await group('secrets', SECRETS, { bindingLevel: 'TENANT', priority: 5 }),
        pii: await group('pii', PII, { bindingLevel: 'TENANT', priority: 20 }),
        words: await group(
          'words',
          WORDS,
          { bindingLevel: 'TENANT', priority: 30 },
          { banned: ['competitor-x'] },
        ),
        review: await group('review', REVIEW, {
          bindingLevel: 'AGENT',
          agentId: agents.risky,
          priority: 1,
        }),
      },
    };
  });

  afterAll(async () => {
    await publisher?.close();
    await app?.close();
    await db?.drop();
    await deleteNatsStreams(prefix, TEST_NATS_URL);
  });

  async function pack(name: string, evaluations: Json[], enabled = true): Promise<string> {
    const created = await admin.call(app, 'POST', '/relay/v1/evaluation-packs', { name, enabled });
    const id = String(created.body.id);
    for (const evaluation of evaluations) {
      const response = await admin.call(
        app,
        'POST',
        `/relay/v1/evaluation-packs/${id}/evaluations`,
        evaluation,
      );
      expect([evaluation.name, response.status, response.body.errors]).toEqual([
        evaluation.name,
        201,
        undefined,
      ]);
    }
    return id;
  }

  async function finishedRun(packId: string, runId: string): Promise<RunResponse> {
    return eventually(async () => {
      const run = await admin.call<RunResponse>(
        app,
        'GET',
        `/relay/v1/evaluation-packs/${packId}/runs/${runId}`,
      );
      expect(run.body.status).toBe('COMPLETED');
      return run.body;
    });
  }

  it('should report every verdict, including the deliberately wrong expectations', async () => {
    const evaluations = guardrailEvaluations(world);
    expect(evaluations.length).toBeGreaterThanOrEqual(20);
    const packId = await pack('guardrails-regression', evaluations);
    const started = await admin.call(app, 'POST', `/relay/v1/evaluation-packs/${packId}/runs`, {});
    const run = await finishedRun(packId, String(started.body.runId));

    const byName = new Map((run.results ?? []).map((r) => [r.name, r]));
    const failedNames = (run.results ?? []).filter((r) => r.status === 'FAILED').map((r) => r.name);
    const failedChecks = (run.results ?? []).flatMap((r) =>
      r.hops.flatMap((h) =>
        h.checks.filter((c) => !c.passed).map((c) => ({ evaluation: r.name, ...c })),
      ),
    );
    expect(failedNames.sort()).toEqual([...WRONG_EVALUATIONS].sort());
    expect(run).toEqual(
      expect.objectContaining({
        evaluationCount: 24,
        passed: 20,
        failed: 3,
        skipped: 1,
        triggerSource: 'USER',
      }),
    );
    expect(byName.get(DISABLED_EVALUATION)).toEqual(
      expect.objectContaining({ status: 'SKIPPED', hops: [] }),
    );

    expect(failedChecks).toEqual([
      {
        evaluation: WRONG_EVALUATIONS[0],
        check: 'expectedAction',
        expected: 'LOG',
        actual: 'MASK',
        passed: false,
      },
      {
        evaluation: WRONG_EVALUATIONS[1],
        check: 'expectedMaskedField',
        expected: 'params.arguments.note masked',
        actual: 'params.arguments.note not masked (masked: "")',
        passed: false,
      },
      {
        evaluation: WRONG_EVALUATIONS[2],
        check: 'assertion',
        checkId: 'check-1',
        kind: 'DETECTION',
        subject: 'PII',
        expected: 'PII:PHONE',
        actual: '',
        passed: false,
      },
      {
        evaluation: WRONG_EVALUATIONS[2],
        check: 'assertion',
        checkId: 'check-2',
        kind: 'POLICY_MATCHED',
        subject: world.groups.secrets,
        expected: 'true',
        actual: 'false',
        passed: false,
      },
    ]);

    const multiHop = byName.get(
      'two hops: the second sees the masked message',
    ) as EvaluationVerdict;
    expect(multiHop.hops.map((h) => [h.action, h.passed])).toEqual([
      ['MASK', true],
      ['LOG', true],
    ]);
    expect(JSON.stringify(multiHop.hops[1].maskedMessage.json)).toContain('[MASKED:SSN]');
    const threeHops = byName.get('three hops: channel, agent, tool and back') as EvaluationVerdict;
    expect(threeHops.hops.map((h) => h.action)).toEqual(['MASK', 'LOG', 'LOG']);
    const kinds = new Set(
      evaluations.flatMap((e) =>
        (e.hops as Json[]).flatMap((h) =>
          ((h.assertions as Json[] | undefined) ?? []).map((a) => a.kind),
        ),
      ),
    );
    expect([...kinds].sort()).toEqual([
      'ACTION',
      'DETECTION',
      'MASKED_FIELD',
      'POLICY_MATCHED',
      'REASON_CONTAINS',
    ]);

    const packBody = await admin.call(app, 'GET', `/relay/v1/evaluation-packs/${packId}`);
    expect(packBody.body.lastRun).toEqual(
      expect.objectContaining({ runId: run.runId, passed: 20, failed: 3 }),
    );
  });

  it('should run every enabled pack touching a group when its bound version changes', async () => {
    const [clean, , , aws] = guardrailEvaluations(world);
    const touching = await pack('words-watch', [
      {
        ...clean,
        hops: [{ ...(clean.hops as Json[])[0], expectedPolicyIds: [world.groups.words] }],
      },
    ]);
    const unrelated = await pack('secrets-watch', [aws]);
    const disabled = await pack(
      'words-disabled',
      [
        {
          ...clean,
          hops: [{ ...(clean.hops as Json[])[0], expectedPolicyIds: [world.groups.words] }],
        },
      ],
      false,
    );

    const v2 = WORDS.replace('"WARN"', '"BLOCK"');
    expect(
      (
        await admin.call(app, 'POST', `/relay/v1/policy-groups/${world.groups.words}/versions`, {
          regoSource: v2,
        })
      ).status,
    ).toBe(201);
    const upgraded = await admin.call(
      app,
      'POST',
      `/relay/v1/policy-bindings/${bindings.words}/upgrade`,
    );
    expect(upgraded.body.groupVersion).toBe('2');

    const runs = await eventually(async () => {
      const list = await admin.call<{ items: RunResponse[] }>(
        app,
        'GET',
        `/relay/v1/evaluation-packs/${touching}/runs`,
      );
      expect(list.body.items.map((r) => [r.triggerSource, r.status])).toEqual([
        ['POLICY_CHANGE', 'COMPLETED'],
      ]);
      return list.body.items;
    });
    expect(runs[0].triggeredBy).toEqual({ id: admin.subject, name: expect.any(String) });
    // the clean lookup expected the words policy to match; it does not, and the run says so
    expect(runs[0]).toEqual(expect.objectContaining({ evaluationCount: 1, failed: 1 }));
    for (const other of [unrelated, disabled]) {
      expect(
        (
          await admin.call<{ total: number }>(
            app,
            'GET',
            `/relay/v1/evaluation-packs/${other}/runs`,
          )
        ).body.total,
      ).toBe(0);
    }
  });

  it('should start one POLICY_CHANGE run when the same event is delivered twice', async () => {
    const [clean] = guardrailEvaluations(world);
    const watcher = await pack('pii-watch', [
      { ...clean, hops: [{ ...(clean.hops as Json[])[0], expectedPolicyIds: [world.groups.pii] }] },
    ]);
    const event = await publisher.publish('POLICY_LIFECYCLE', admin.tenantId, {
      change: 'BINDING_UPGRADED',
      groupId: world.groups.pii,
      groupName: 'pii',
      bindingId: bindings.pii,
      actor: { type: 'USER', id: admin.subject, label: 'admin' },
    });
    await publisher.redeliver(prefix, event);
    await eventually(async () => {
      const list = await admin.call<{ items: RunResponse[] }>(
        app,
        'GET',
        `/relay/v1/evaluation-packs/${watcher}/runs`,
      );
      expect(list.body.items.map((r) => [r.triggerSource, r.status])).toEqual([
        ['POLICY_CHANGE', 'COMPLETED'],
      ]);
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      (
        await admin.call<{ total: number }>(
          app,
          'GET',
          `/relay/v1/evaluation-packs/${watcher}/runs`,
        )
      ).body.total,
    ).toBe(1);
  });
});
