import { JsonValue } from '@agp/rego';

import { normalizeDecision } from './normalize-decision';

describe('normalizeDecision', () => {
  it('should be LOG with nothing else when the policy defines no decision', () => {
    expect(normalizeDecision(undefined)).toEqual({
      ok: true,
      decision: { action: 'LOG', reasons: [], mask: [], detections: [] },
    });
  });

  it('should fill the defaults and keep only the known fields when the decision is partial', () => {
    const sut = normalizeDecision({
      reasons: ['r'],
      mask: [{ path: 'a', label: 'L', extra: 1 }],
      detections: [{ kind: 'K', label: 'L' }],
      other: true,
    });
    expect(sut).toEqual({
      ok: true,
      decision: {
        action: 'LOG',
        reasons: ['r'],
        mask: [{ path: 'a', label: 'L' }],
        detections: [{ kind: 'K', label: 'L' }],
      },
    });
  });

  it('should be an error when the decision has the wrong shape', () => {
    const values: JsonValue[] = [
      'BLOCK',
      { action: 'ERROR' },
      { action: 'EXPLODE' },
      { reasons: 'r' },
      { mask: [{ pattern: 'x' }] },
      { detections: [{ kind: 1 }] },
    ];
    for (const value of values) {
      expect(normalizeDecision(value).ok).toBe(false);
    }
  });
});
