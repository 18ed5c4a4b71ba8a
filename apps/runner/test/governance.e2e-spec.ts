import { randomUUID } from 'node:crypto';

import { DetectorTickService } from '@agp/audit';
import { eventually } from '@agp/testing';

import { McpPlatform, PlatformMode, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

type Json = Record<string, unknown>;

/**
 * Issue 17 end to end, through the gateway and in the embedded process: a governance record kept
 * in the relay, its owner disabled in tenant-auth, the audit service's detector raising the
 * orphaned-owner gap from the relay's events; custom monitors and mutes on the same paths.
 */
describe.each<PlatformMode>(['services', 'embedded'])('governance and monitors (%s)', (mode) => {
  let platform: McpPlatform;
  let world: McpWorld;

  beforeAll(async () => {
    platform = await startMcpPlatform(mode);
    world = await McpWorld.create(platform);
  });

  afterAll(async () => {
    await platform?.close();
  });

  it('should raise GOVERNANCE_ORPHANED_OWNER once the owner of a governed agent is disabled, and resolve it when reactivated', async () => {
    const owner = await world.ok<{ id: string }>('POST', '/tenant-auth/v1/users', {
      email: `owner-${randomUUID().slice(0, 8)}@acme.example`,
      displayName: 'Olga Owner',
      password: `Pw-${randomUUID()}`,
    });
    const agent = await world.agent();
    const record = await eventually(
      () =>
        world.ok<Json>('POST', '/relay/v1/governance/records', {
          subjectType: 'AGENT',
          subjectId: agent.id,
          riskTier: 'CRITICAL',
          ownerUserId: owner.id,
        }),
      200,
      50,
    );
    expect(record).toMatchObject({ riskTier: 'CRITICAL', ownerStatus: 'ACTIVE' });
    await world.ok('PATCH', `/tenant-auth/v1/users/${owner.id}`, { status: 'DISABLED' });
    await eventually(
      async () =>
        expect(
          (await world.ok<Json>('GET', `/relay/v1/governance/records/${String(record.id)}`))
            .ownerStatus,
        ).toBe('DISABLED'),
      200,
      50,
    );
    const ticks = platform.audit!.get(DetectorTickService);
    // Minutes of the tick a month ahead: never one the running scheduler claims.
    let minute = Math.floor(Date.now() / 60_000) * 60_000 + 30 * 86_400_000;
    const alerts = async (): Promise<Array<Json & { status: string; evidence: Json }>> =>
      (
        await world.ok<{ items: Array<Json & { status: string; evidence: Json }> }>(
          'GET',
          `/audit/v1/monitors/alerts?detector=GOVERNANCE_ORPHANED_OWNER&subjectId=${agent.id}`,
        )
      ).items;
    await eventually(
      async () => {
        minute += 60_000;
        await ticks.tick(new Date(minute));
        const [alert] = await alerts();
        expect(alert).toMatchObject({
          status: 'OPEN',
          severity: 'CRITICAL',
          evidence: { kind: 'GOVERNANCE_GAP', gap: 'ORPHANED_OWNER', riskTier: 'CRITICAL' },
        });
      },
      200,
      50,
    );
    await world.ok('PATCH', `/tenant-auth/v1/users/${owner.id}`, { status: 'ACTIVE' });
    await eventually(
      async () => {
        minute += 60_000;
        await ticks.tick(new Date(minute));
        expect((await alerts())[0]?.status).toBe('RESOLVED');
      },
      200,
      50,
    );
  }, 120_000);

  it('should serve custom monitors, mutes and downtimes through the same paths', async () => {
    const monitor = await world.ok<{ id: string }>('POST', '/audit/v1/monitors', {
      name: 'blocked calls',
      monitorType: 'THRESHOLD',
      metric: 'BLOCKS',
      aggregation: 'SUM',
      window: 'LAST_15M',
      groupBy: 'AGENT',
      threshold: 10,
    });
    expect(
      (await world.ok<{ total: number }>('GET', '/audit/v1/monitors?monitorType=THRESHOLD')).total,
    ).toBe(1);
    const mute = await world.ok<{ id: string }>('POST', '/audit/v1/monitors/mutes', {
      scope: 'MONITOR',
      monitorId: monitor.id,
      reason: 'tuning',
    });
    await world.ok('DELETE', `/audit/v1/monitors/mutes/${mute.id}`);
    const downtime = await world.ok<{ id: string }>('POST', '/audit/v1/monitors/downtimes', {
      scope: 'DETECTOR',
      detector: 'TENANT_ERROR_SPIKE',
      reason: 'weekly deploy',
      startsAt: new Date().toISOString(),
      durationMinutes: 60,
      recurrence: 'WEEKLY',
    });
    expect(
      (await world.ok<{ inEffect: boolean }>('GET', `/audit/v1/monitors/downtimes/${downtime.id}`))
        .inEffect,
    ).toBe(true);
    await world.ok('DELETE', `/audit/v1/monitors/${monitor.id}`);
    const invalid = await world.api<{ errors: Array<{ field: string }> }>(
      'POST',
      '/relay/v1/governance/records',
      { subjectType: 'TENANT' },
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e) => e.field).sort()).toEqual(['subjectId', 'subjectType']);
  }, 60_000);
});
