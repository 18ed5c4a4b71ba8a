import { Action } from '@agp/contracts';

import { combineDecisions } from './combine-decisions';
import { BindingResult } from './decision.types';

function result(
  bindingId: string,
  action: Action,
  priority: number,
  extra: Partial<BindingResult> = {},
): BindingResult {
  return {
    bindingId,
    bindingLevel: 'TENANT',
    priority,
    groupId: `g-${bindingId}`,
    groupName: `group-${bindingId}`,
    groupVersion: '1',
    action,
    reasons: [`${bindingId} says ${action}`],
    mask: [],
    detections: [],
    ...extra,
  };
}

describe('combineDecisions', () => {
  it('should let the most severe action win when bindings disagree', () => {
    const sut = combineDecisions(
      [result('a', 'WARN', 1), result('b', 'HUMAN_REVIEW_REQUIRED', 5), result('c', 'MASK', 0)],
      false,
    );
    expect(sut.action).toBe('HUMAN_REVIEW_REQUIRED');
    expect(sut.isBlocked).toBe(false);
    expect(sut.ordered.map((r) => r.bindingId)).toEqual(['b', 'c', 'a']);
  });

  it('should report the lower priority number first when severities are equal', () => {
    const sut = combineDecisions(
      [result('late', 'BLOCK', 50), result('early', 'BLOCK', 10)],
      false,
    );
    expect(sut.ordered.map((r) => r.bindingId)).toEqual(['early', 'late']);
    expect(sut.reasons).toEqual(['early says BLOCK', 'late says BLOCK']);
    expect(sut.isBlocked).toBe(true);
  });

  it('should accumulate masks and detections of every binding when several ask', () => {
    const sut = combineDecisions(
      [
        result('a', 'MASK', 1, {
          mask: [{ path: 'a' }],
          detections: [{ kind: 'REGEX', label: 'SSN' }],
        }),
        result('b', 'MASK', 2, { mask: [{ path: 'b', pattern: 'x' }] }),
      ],
      false,
    );
    expect(sut.mask).toEqual([{ path: 'a' }, { path: 'b', pattern: 'x' }]);
    expect(sut.detections).toEqual([{ kind: 'REGEX', label: 'SSN' }]);
  });

  it('should block with ERROR when an evaluation failed and the tenant fails closed', () => {
    const sut = combineDecisions(
      [result('ok', 'MASK', 1), result('bad', 'ERROR', 9, { reasons: [], error: 'timeout' })],
      false,
    );
    expect(sut.action).toBe('ERROR');
    expect(sut.isBlocked).toBe(true);
    expect(sut.reasons[0]).toContain('timeout');
  });

  it('should ignore the failed evaluation when the tenant fails open', () => {
    const sut = combineDecisions(
      [result('ok', 'MASK', 1), result('bad', 'ERROR', 9, { reasons: [], error: 'timeout' })],
      true,
    );
    expect(sut.action).toBe('MASK');
    expect(sut.isBlocked).toBe(false);
    expect(sut.ordered.map((r) => r.bindingId)).toEqual(['bad', 'ok']);
  });

  it('should be LOG when no binding applies', () => {
    expect(combineDecisions([], false)).toEqual(
      expect.objectContaining({ action: 'LOG', isBlocked: false, reasons: [] }),
    );
  });
});
