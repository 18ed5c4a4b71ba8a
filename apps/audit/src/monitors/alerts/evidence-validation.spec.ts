import { evidenceProblems } from './evidence-validation';

const ID = '5a0c8f1e-2b7d-4e3a-9c1f-0d2e3f4a5b6c';

describe('evidenceProblems', () => {
  const firstSeen = {
    kind: 'FIRST_SEEN',
    subjectType: 'MCP_SERVER',
    subjectId: ID,
    observation: 'TOOL_CALL',
    key: 'delete_repo',
    lookbackDays: 7,
    occurrencesInRecent: 3,
  };

  it('should accept evidence when every required field is there', () => {
    expect(evidenceProblems(firstSeen)).toEqual([]);
  });

  it('should name the field when the key is empty', () => {
    expect(evidenceProblems({ ...firstSeen, key: '' })).toEqual([expect.stringMatching(/^key: /)]);
  });

  it('should name the field when an enumeration is broken', () => {
    expect(evidenceProblems({ ...firstSeen, observation: 'SMELL' })).toEqual([
      expect.stringMatching(/^observation: /),
    ]);
  });

  it('should refuse a field when the kind does not have it', () => {
    expect(evidenceProblems({ ...firstSeen, ratio: 2 })).toEqual([
      expect.stringMatching(/^ratio: /),
    ]);
  });

  it('should refuse evidence when the kind is unknown', () => {
    expect(evidenceProblems({ ...firstSeen, kind: 'VIBES' })).toEqual([
      'kind: unknown evidence kind VIBES',
    ]);
  });

  it('should refuse dormant evidence when dormantDays is not an integer', () => {
    const dormant = {
      kind: 'DORMANT_REACTIVATION',
      subjectType: 'AGENT',
      subjectId: ID,
      dormantDays: 1.5,
      recentEventCount: 2,
    };
    expect(evidenceProblems(dormant)).toEqual([expect.stringMatching(/^dormantDays: /)]);
  });
});
