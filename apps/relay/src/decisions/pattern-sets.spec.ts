import { TenantPatternSets, withPatternDetections } from './pattern-sets';

describe('tenant pattern sets as a hop sees them (D53, GR15–GR18)', () => {
  const sets = TenantPatternSets.compile([
    {
      set: 'orders',
      label: 'ORDER',
      pattern: 'ORD-\\d{4}',
      flags: '',
      mode: 'DETECT',
      scope: 'ALL',
    },
    {
      set: 'orders',
      label: 'INTERNAL_HOST',
      pattern: '[a-z]+\\.corp\\.internal',
      flags: '',
      mode: 'MUST_NOT_MATCH',
      scope: 'RESPONSE',
    },
    // Stored before the engine refused it: left out, never thrown at a hop.
    { set: 'orders', label: 'BROKEN', pattern: '(a)\\1', flags: '', mode: 'DETECT', scope: 'ALL' },
  ]);

  it('should apply only the patterns whose scope takes in the direction, and none of an unknown set', () => {
    const text = 'ORD-1234 from db.corp.internal';
    const request = sets.forHop('REQUEST');
    const response = sets.forHop('RESPONSE');

    expect(request.findings('orders', text).map((f) => f.type)).toEqual(['ORDER']);
    expect(response.findings('orders', text).map((f) => [f.type, f.mode])).toEqual([
      ['ORDER', 'DETECT'],
      ['INTERNAL_HOST', 'MUST_NOT_MATCH'],
    ]);
    expect(response.findings('absent', text)).toEqual([]);
  });

  it('should count each set and label once per text, however many policies ask', () => {
    const hop = sets.forHop('RESPONSE');
    hop.findings('orders', 'ORD-1111 ORD-2222 api.corp.internal');
    hop.findings('orders', 'ORD-1111 ORD-2222 api.corp.internal');
    hop.findings('orders', 'ORD-3333');

    expect(hop.detections()).toEqual([
      { kind: 'REGEX', label: 'ORDER', count: 3, set: 'orders', mode: 'DETECT' },
      { kind: 'REGEX', label: 'INTERNAL_HOST', count: 1, set: 'orders', mode: 'MUST_NOT_MATCH' },
    ]);
  });

  it('should not report a label twice when a policy reported it as a regex detection', () => {
    const found = [
      { kind: 'REGEX', label: 'ORDER', count: 2, set: 'orders', mode: 'DETECT' },
      { kind: 'REGEX', label: 'HOST', count: 1, set: 'orders', mode: 'DETECT' },
    ];
    const policies = [
      { kind: 'REGEX', label: 'ORDER', count: 2 },
      { kind: 'PII_DETECTION', label: 'HOST', count: 1 },
    ];

    expect(withPatternDetections(policies, found)).toEqual([...policies, found[1]]);
  });
});
