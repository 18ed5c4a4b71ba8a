import os from 'node:os';

import { TenantPatternSets } from '../src/decisions/pattern-sets';
import { toolCallValidation } from '../src/validation/mcp-validation';
import { SchemaValidator } from '../src/validation/schema-validator';
import { Measurement, sequential, table } from './measure';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20_000);

/** A tools/call of about 4 KB (as decisions.bench.ts), with the schema its server listed. */
function toolCall(): { json: unknown; text: string; inputSchema: unknown } {
  const records = Array.from({ length: 31 }, (_v, i) => ({
    id: `cust-${i}`,
    name: `Customer number ${i}`,
    city: 'Springfield',
    tier: i % 3 === 0 ? 'gold' : 'silver',
    notes: 'prefers e-mail contact during office hours, ticket TCK-123456',
  }));
  const json = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'lookup_customer', arguments: { note: 'call db7.corp.internal', records } },
  };
  const record = {
    type: 'object',
    properties: {
      id: { type: 'string', pattern: '^cust-[0-9]+$' },
      name: { type: 'string', maxLength: 200 },
      city: { type: 'string' },
      tier: { enum: ['gold', 'silver', 'bronze'] },
      notes: { type: 'string' },
    },
    required: ['id', 'name'],
    additionalProperties: false,
  };
  const inputSchema = {
    type: 'object',
    properties: { note: { type: 'string' }, records: { type: 'array', items: record } },
    required: ['records'],
  };
  const strings: string[] = [];
  JSON.stringify(json, (_k, v: unknown) => (typeof v === 'string' ? (strings.push(v), v) : v));
  return { json, text: strings.join('\n'), inputSchema };
}

/**
 * GR18, GR20: what a hop pays for issue 36 items 3 and 4, in process: a tool's arguments checked
 * against its (cached) schema and a tenant set of three patterns scanned, beside a baseline that
 * only walks the same message (JSON.stringify).
 */
async function main(): Promise<void> {
  const { json, text, inputSchema } = toolCall();
  const validator = new SchemaValidator();
  const sets = TenantPatternSets.compile([
    {
      set: 'tickets',
      label: 'TICKET',
      pattern: 'TCK-[0-9]{6}',
      flags: '',
      mode: 'DETECT',
      scope: 'ALL',
    },
    {
      set: 'tickets',
      label: 'ORDER',
      pattern: 'ORD-[0-9]{4}',
      flags: '',
      mode: 'DETECT',
      scope: 'ALL',
    },
    {
      set: 'tickets',
      label: 'INTERNAL_HOST',
      pattern: '[a-z0-9]+\\.corp\\.internal',
      flags: '',
      mode: 'MUST_NOT_MATCH',
      scope: 'ALL',
    },
  ]);
  const quietSets = TenantPatternSets.compile([
    {
      set: 'tickets',
      label: 'TICKET',
      pattern: 'TCK-[0-9]{6}',
      flags: '',
      mode: 'DETECT',
      scope: 'ALL',
    },
    {
      set: 'tickets',
      label: 'ORDER',
      pattern: 'ORD-[0-9]{4}',
      flags: '',
      mode: 'DETECT',
      scope: 'ALL',
    },
  ]);
  const rows: Measurement[] = [];
  rows.push(
    await sequential('baseline: JSON.stringify of the message', ITERATIONS, 1_000, () =>
      JSON.stringify(json),
    ),
  );
  rows.push(
    await sequential(
      'tools/call arguments against inputSchema (compiled, cached)',
      ITERATIONS,
      1_000,
      () => toolCallValidation('REQUEST', json, { inputSchema }, validator.check),
    ),
  );
  rows.push(
    await sequential(
      'agp.detect.patterns: 3 patterns over the message text',
      ITERATIONS,
      1_000,
      () => sets.forHop('REQUEST').findings('tickets', text),
    ),
  );
  const quiet = text.replace(/TCK-/g, 'ticket ');
  rows.push(
    await sequential(
      'agp.detect.patterns: 2 literal-led patterns, text without them',
      ITERATIONS,
      1_000,
      () => quietSets.forHop('REQUEST').findings('tickets', quiet),
    ),
  );
  const [load] = os.loadavg();
  console.log(
    `message text ${(text.length / 1024).toFixed(1)} KB, ${os.cpus().length} cores, load ${load.toFixed(1)}`,
  );
  console.log(table(rows));
}

void main();
