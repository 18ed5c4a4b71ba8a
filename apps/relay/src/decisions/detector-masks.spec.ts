import { applyMasks } from './apply-masks';
import { normalizeDecision } from './normalize-decision';

describe('detector masks (GR8) and detection counts (GR9)', () => {
  const message = {
    params: {
      name: 'lookup_customer',
      arguments: { note: 'mail ana@example.org, card 4111 1111 1111 1111', id: 'c-17' },
    },
  };

  it('should replace each finding of the engine by its type label', () => {
    const sut = applyMasks(message, [{ path: 'params.arguments', detector: 'PII' }]);
    expect((sut.json as typeof message).params.arguments).toEqual({
      note: 'mail [MASKED:EMAIL], card [MASKED:PAYMENT_CARD]',
      id: 'c-17',
    });
    expect(sut.maskedFields).toEqual(['params.arguments']);
    expect(sut.text).not.toContain('ana@example.org');
  });

  it('should mask only the listed types when the mask names some', () => {
    const sut = applyMasks(message, [{ path: '', detector: 'PII', types: ['PAYMENT_CARD'] }]);
    expect((sut.json as typeof message).params.arguments.note).toBe(
      'mail ana@example.org, card [MASKED:PAYMENT_CARD]',
    );
  });

  it('should accept detector masks and counted detections, and refuse an unknown detector', () => {
    const ok = normalizeDecision({
      action: 'MASK',
      mask: [{ path: '', detector: 'SECRETS', types: ['JWT'] }],
      detections: [{ kind: 'PII_DETECTION', label: 'EMAIL', count: 2 }],
    });
    expect(ok).toEqual({
      ok: true,
      decision: {
        action: 'MASK',
        reasons: [],
        mask: [{ path: '', detector: 'SECRETS', types: ['JWT'] }],
        detections: [{ kind: 'PII_DETECTION', label: 'EMAIL', count: 2 }],
      },
    });
    expect(normalizeDecision({ mask: [{ path: '', detector: 'DLP' }] }).ok).toBe(false);
    expect(normalizeDecision({ detections: [{ kind: 'X', label: 'Y', count: -1 }] }).ok).toBe(
      false,
    );
  });
});
