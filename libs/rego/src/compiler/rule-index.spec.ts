import { compilePolicy } from '../policy';
import { buildIndex } from './rule-index';

const SRC = `package a
deny contains "t1" if input.tool == "one"
deny contains "t2" if input.tool == "two"
deny contains "t3" if { input.tool == "two"; input.user == "u" }
deny contains "any" if startswith(input.tool, "t")
deny contains "num" if input.n == 3
`;

describe(buildIndex.name, () => {
  it('should group rules by the constant they compare input with when a node has several rules', () => {
    const policy = compilePolicy({ 'a.rego': SRC });
    const node = policy.program.root.children.get('a')!.children.get('deny')!;

    const sut = node.index!;

    expect(sut.always).toHaveLength(1);
    expect(sut.groups.map((g) => [...g.byValue.keys()])).toEqual([['one', 'two'], [3]]);
  });

  it('should give the same answer as unindexed evaluation when inputs vary', () => {
    const policy = compilePolicy({ 'a.rego': SRC });

    expect(policy.evaluateRule('data.a.deny', { input: { tool: 'two', user: 'u', n: 3 } })).toEqual(
      ['num', 't2', 't3', 'any'].sort(),
    );
    expect(policy.evaluateRule('data.a.deny', { input: { tool: 'one', n: 3.0 } })).toEqual([
      'num',
      't1',
    ]);
    expect(policy.evaluateRule('data.a.deny', { input: {} })).toEqual([]);
  });
});
