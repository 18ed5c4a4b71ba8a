import { HopDecision } from '../../decisions/decision.types';
import { withImposed } from './imposed-decision';

function decision(overrides: Partial<HopDecision> = {}): HopDecision {
  return {
    action: 'LOG',
    isBlocked: false,
    failOpen: false,
    reasons: [],
    mask: [],
    detections: [],
    maskedFields: [],
    bindings: [],
    maskedMessage: { text: '', json: {} },
    ...overrides,
  };
}

describe(withImposed.name, () => {
  it('should hold a delivered hop when a hold is imposed', () => {
    const sut = withImposed(decision(), { action: 'HUMAN_REVIEW_REQUIRED', reason: 'drift' });
    expect(sut).toMatchObject({ action: 'HUMAN_REVIEW_REQUIRED', isBlocked: false });
    expect(sut.reasons).toEqual(['drift']);
  });

  it('should block a hop the policies would hold when BLOCK is imposed', () => {
    const held = decision({ action: 'HUMAN_REVIEW_REQUIRED', reasons: ['pii'] });
    const sut = withImposed(held, { action: 'BLOCK', reason: 'drift' });
    expect(sut).toMatchObject({ action: 'BLOCK', isBlocked: true, reasons: ['pii', 'drift'] });
  });

  it('should keep a policy block as it is when only a hold is imposed', () => {
    const blocked = decision({ action: 'BLOCK', isBlocked: true, reasons: ['secret'] });
    expect(withImposed(blocked, { action: 'HUMAN_REVIEW_REQUIRED', reason: 'x' })).toBe(blocked);
  });

  it('should turn a LOG into a WARN and keep a stricter decision when a warning is imposed', () => {
    expect(withImposed(decision(), { action: 'WARN', reason: 'budget' })).toMatchObject({
      action: 'WARN',
      reasons: ['budget'],
    });
    const masked = withImposed(decision({ action: 'MASK', reasons: ['pii'] }), {
      action: 'WARN',
      reason: 'budget',
    });
    expect(masked).toMatchObject({ action: 'MASK', reasons: ['pii', 'budget'] });
    const blocked = decision({ action: 'BLOCK', isBlocked: true, reasons: ['secret'] });
    expect(withImposed(blocked, { action: 'WARN', reason: 'budget' })).toBe(blocked);
  });
});
