import { candidateOutcome, replacedBy, sameScope } from './candidate-placement';
import { BindingResult } from './decision.types';

function result(
  bindingId: string,
  groupId: string,
  action: BindingResult['action'],
): BindingResult {
  return {
    bindingId,
    bindingLevel: 'TENANT',
    priority: 100,
    groupId,
    groupName: groupId,
    groupVersion: '1',
    action,
    reasons: [`${bindingId} says ${action}`],
    mask: [],
    detections: [],
  };
}

describe(candidateOutcome.name, () => {
  it('should replace the enforced result of the binding the candidate stands in for', () => {
    const enforced = [result('e1', 'g', 'BLOCK'), result('e2', 'h', 'LOG')];

    const sut = candidateOutcome(enforced, ['e1'], result('c', 'g', 'WARN'), false);

    expect(sut.action).toBe('WARN');
    expect(sut.reasons).toEqual(['c says WARN', 'e2 says LOG']);
  });

  it('should add the candidate beside every enforced result when it replaces none', () => {
    const enforced = [result('e1', 'g', 'MASK')];

    const sut = candidateOutcome(enforced, [], result('c', 'k', 'LOG'), false);

    expect(sut.action).toBe('MASK');
  });

  it('should not count a failing candidate when the tenant fails open', () => {
    const sut = candidateOutcome([result('e1', 'g', 'LOG')], [], result('c', 'k', 'ERROR'), true);

    expect(sut.action).toBe('LOG');
  });
});

describe(replacedBy.name, () => {
  const scope = { bindingLevel: 'AGENT' as const, agentId: 'a1', validFrom: 0 };

  it('should name the enforced bindings of the same group at the same place only', () => {
    const enforced = [
      { ...scope, bindingId: 'same', groupId: 'g' },
      { ...scope, bindingId: 'other-group', groupId: 'h' },
      { ...scope, bindingId: 'other-agent', groupId: 'g', agentId: 'a2' },
      { bindingLevel: 'TENANT' as const, validFrom: 0, bindingId: 'tenant', groupId: 'g' },
    ];

    expect(replacedBy({ ...scope, bindingId: 'c', groupId: 'g' }, enforced)).toEqual(['same']);
  });

  it('should tell places apart by level and parties', () => {
    expect(sameScope(scope, { ...scope, validFrom: 5 })).toBe(true);
    expect(sameScope(scope, { ...scope, bindingLevel: 'TENANT' })).toBe(false);
  });
});
