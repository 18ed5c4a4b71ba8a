import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { AUDIT_DATABASE, AlertRaiserService } from '@agp/audit';
import { Database } from '@agp/database';
import { asyncApiDocument } from '@agp/messaging';
import { readStreamEvents } from '@agp/messaging/testing';
import {
  TEST_NATS_URL,
  McpTestServer,
  connectMcpClient,
  eventually,
  startMcpTestServer,
} from '@agp/testing';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';

import { McpPlatform, startMcpPlatform } from './mcp/mcp-platform';
import { McpWorld } from './mcp/mcp-world';

const ROOT = join(__dirname, '..', '..', '..');
const EXAMPLE = join(ROOT, 'docs', 'examples', 'alert-subscriber.mjs');

/** One validator per event type, from the AsyncAPI document the gateway serves. */
function envelopeValidators(document: Record<string, unknown>): Map<string, ValidateFunction> {
  const ajv = new Ajv2020({ strict: false, unicodeRegExp: false, allErrors: true });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  ajv.addSchema({ $id: 'asyncapi', ...document });
  const channels = document.channels as Record<string, unknown>;
  return new Map(
    Object.keys(channels).map((type) => [
      type,
      ajv.compile({ $ref: `asyncapi#/components/schemas/${type}Envelope` }),
    ]),
  );
}

/**
 * Issue 18 § 4 on the multi-process platform: the AsyncAPI document served at /asyncapi.json is
 * the one the code derives, every event the services publish matches its channel's schema, and
 * the subscriber example of docs/events.md prints an alert the audit service raised.
 */
describe('the events contract (services)', () => {
  let platform: McpPlatform;
  let tools: McpTestServer;
  let world: McpWorld;
  let subscriber: ChildProcessWithoutNullStreams | undefined;

  beforeAll(async () => {
    platform = await startMcpPlatform('services');
    tools = await startMcpTestServer();
    world = await McpWorld.create(platform);
  });

  afterAll(async () => {
    subscriber?.kill();
    await tools?.close();
    await platform?.close();
  });

  it('should serve the AsyncAPI document at /asyncapi.json without a token', async () => {
    const answer = await fetch(`${platform.baseUrl}/asyncapi.json`);

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(await answer.json()).toEqual(JSON.parse(JSON.stringify(asyncApiDocument())));
  });

  it('should publish only events that match the schema of their channel, with Nats-Msg-Id = id', async () => {
    const served = (await (await fetch(`${platform.baseUrl}/asyncapi.json`)).json()) as Record<
      string,
      unknown
    >;
    const validators = envelopeValidators(served);
    // Traffic that makes every service publish: an agent, an MCP server, a subscription, a call.
    const serverId = await world.mcpServer(tools.url);
    const agent = await world.agent();
    await world.subscribe(agent.id, serverId);
    const sut = await connectMcpClient(world.mcpUrl(serverId), { token: agent.mcpToken });
    try {
      await sut.client.callTool({ name: 'echo', arguments: { text: 'contract' } });
    } finally {
      await sut.close();
    }

    const events = await eventually(async () => {
      const read = await readStreamEvents(platform.natsPrefix, TEST_NATS_URL);
      const types = new Set(read.map((event) => (event.envelope as { type: string }).type));
      for (const type of [
        'AGENT_LIFECYCLE',
        'MCP_LIFECYCLE',
        'SUBSCRIPTION_CHANGED',
        'COMMUNICATION_AUDIT',
      ]) {
        expect(types).toContain(type);
      }
      return read;
    });

    for (const event of events) {
      const envelope = event.envelope as { id: string; type: string };
      const validate = validators.get(envelope.type);
      expect({ type: envelope.type, known: validate !== undefined }).toEqual({
        type: envelope.type,
        known: true,
      });
      expect({ type: envelope.type, valid: validate!(envelope), errors: validate!.errors }).toEqual(
        { type: envelope.type, valid: true, errors: null },
      );
      expect(event.subject).toBe(`${platform.natsPrefix}.events.${envelope.type}`);
      expect(event.headers['Nats-Msg-Id']).toBe(envelope.id);
    }
  });

  it('should run the subscriber example of docs/events.md: it prints an alert the audit service raised', async () => {
    subscriber = spawn(process.execPath, [EXAMPLE], {
      cwd: ROOT,
      env: {
        ...process.env,
        NATS_URL: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
        NATS_PREFIX: platform.natsPrefix,
        CONSUMER_NAME: `example-${randomUUID().slice(0, 8)}`,
        STOP_AFTER: '1',
      },
    });
    let output = '';
    subscriber.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    subscriber.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => subscriber!.on('exit', resolve));
    await eventually(() => expect(output).toContain('listening on'));

    const subjectId = randomUUID();
    const audit = platform.audit!;
    await audit.get<Database>(AUDIT_DATABASE).inTenant(world.tenantId, (tx) =>
      audit.get(AlertRaiserService).raise(
        tx,
        world.tenantId,
        [
          {
            findingId: randomUUID(),
            detector: 'AGENT_VOLUME_ANOMALY',
            severity: 'HIGH',
            direction: 'SPIKE',
            subject: { type: 'AGENT', id: subjectId },
            summary: 'requests up tenfold',
            evidence: {
              kind: 'ENTITY_VOLUME',
              subjectType: 'AGENT',
              subjectId,
              direction: 'SPIKE',
              observedTotal: 900,
              observedPerMinute: 60,
              baselinePerMinute: 6,
              ratio: 10,
              sampleMinutes: 15,
            },
            detectedAt: new Date(),
          },
        ],
        randomUUID(),
      ),
    );

    expect(await exited).toBe(0);
    expect(output).toContain(
      `MONITOR_ALERT_TRIGGERED HIGH AGENT_VOLUME_ANOMALY tenant=${world.tenantId}`,
    );
    expect(output).toContain(`subject=AGENT:${subjectId} requests up tenfold`);
  });
});
