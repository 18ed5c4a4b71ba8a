import { StoredToolDefinition } from './tool-definitions.repository';
import { driftOf, imposedBy } from './tool-drift';

function stored(overrides: Partial<StoredToolDefinition> = {}): StoredToolDefinition {
  return {
    serverId: 'a',
    name: 'search',
    definition: { name: 'search', description: 'now' },
    definitionHash: 'h2',
    findings: [],
    firstSeenAt: new Date(0),
    changedAt: new Date(0),
    ...overrides,
  };
}

const pinnedEarlier = {
  pinnedHash: 'h1',
  pinnedDefinition: { name: 'search', description: 'before' },
};

describe(driftOf.name, () => {
  it('should say CHANGED with the changed fields when the pinned definition differs', () => {
    const sut = driftOf(stored(pinnedEarlier), []);

    expect(sut).toMatchObject({ isChanged: true, isShadowing: false });
    expect(sut.input).toEqual({
      hash: 'h2',
      pinned: false,
      changedFields: ['description'],
      status: 'CHANGED',
    });
  });

  it('should call an unpinned tool shadowing when the same name is pinned on another server', () => {
    const other = stored({ serverId: 'b', pinnedHash: 'x' });

    const sut = driftOf(stored(), [other]);

    expect(sut).toMatchObject({ isChanged: false, isShadowing: true });
    expect(sut.input.shadowedBy).toEqual(['b']);
  });

  it('should flag but not handle a shared name when neither server pinned it', () => {
    const sut = driftOf(stored(), [stored({ serverId: 'b' })]);

    expect(sut.isShadowing).toBe(false);
    expect(sut.input.shadowedBy).toEqual(['b']);
  });
});

describe(imposedBy.name, () => {
  const changed = driftOf(stored(pinnedEarlier), []);

  it('should impose nothing when toolDrift is LOG or nothing drifted', () => {
    expect(imposedBy('LOG', 'search', changed)).toBeUndefined();
    expect(imposedBy('BLOCK', 'search', driftOf(stored({ pinnedHash: 'h2' }), []))).toBeUndefined();
  });

  it('should hold under HOLD and block under BLOCK when the pinned definition changed', () => {
    expect(imposedBy('HOLD', 'search', changed)?.action).toBe('HUMAN_REVIEW_REQUIRED');
    expect(imposedBy('BLOCK', 'search', changed)).toMatchObject({
      action: 'BLOCK',
      reason: expect.stringContaining('changed since it was pinned (description)'),
    });
  });
});
