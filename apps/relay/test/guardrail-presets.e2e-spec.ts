import { eventually } from '@agp/testing';

import { RunResponse } from '../src/evaluation-packs/dto/pack-responses';
import { InstalledPreset } from '../src/guardrails/dto/install-guardrail-presets.dto';
import { RelayBed } from './support/relay-bed';

// GR11: one call installs the three ready-made guardrails, bound at TENANT level, with packs that
// pass against them through the real decision service.
describe('ready-made guardrail policies', () => {
  const relay = RelayBed.use('presets');

  it('should list the catalogue', async () => {
    const list = await relay.call<{ items: { name: string }[] }>(
      'GET',
      '/relay/v1/guardrail-presets',
    );
    expect(list.body.items.map((p) => p.name)).toEqual(['PII', 'SECRETS', 'PROMPT_INJECTION']);
  });

  it('should refuse an unknown preset with the field named', async () => {
    const refused = await relay.call('POST', '/relay/v1/guardrail-presets/install', {
      presets: ['DLP'],
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('presets');
  });

  it('should install, bind and prove all three in one call, and refuse a second install', async () => {
    const installed = await relay.call<{ items: InstalledPreset[] }>(
      'POST',
      '/relay/v1/guardrail-presets/install',
      {},
    );
    expect(installed.status).toBe(201);
    expect(installed.body.items.map((i) => [i.preset, typeof i.bindingId])).toEqual([
      ['PII', 'string'],
      ['SECRETS', 'string'],
      ['PROMPT_INJECTION', 'string'],
    ]);
    for (const item of installed.body.items) {
      const started = await relay.call<{ runId: string }>(
        'POST',
        `/relay/v1/evaluation-packs/${item.packId}/runs`,
        {},
      );
      const run = await eventually(async () => {
        const got = await relay.call<RunResponse>(
          'GET',
          `/relay/v1/evaluation-packs/${item.packId}/runs/${started.body.runId}`,
        );
        expect(got.body.status).toBe('COMPLETED');
        return got.body;
      });
      expect([item.preset, run.failed, run.passed]).toEqual([item.preset, 0, run.evaluationCount]);
    }
    const again = await relay.call('POST', '/relay/v1/guardrail-presets/install', {
      presets: ['PII'],
    });
    expect(again.status).toBe(409);
  });
});
