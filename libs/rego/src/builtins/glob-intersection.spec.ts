import { GlobSyntaxError, globsIntersect } from './glob-intersection';

describe('globsIntersect', () => {
  it.each([
    ['abcd', '[a-d]*'],
    ['pqrs', 'pq.s'],
    ['d*', 'd[a-z]+'],
    ['[a-p]+', '[p-z]+'],
    ['abcd[a-c]z+', 'abcd[b-d][yz]*'],
    ['.*\\\\', 'asdfasdf\\\\'],
    ['foo.*bar', 'fooalkdsjfbar'],
    ['[ab]+c', '[bc]*'],
    ['a.a.[0-9]+z', '.b.b2359825792*594823z'],
  ])('should find a common string for %s and %s', (a, b) => {
    expect(globsIntersect(a, b)).toBe(true);
    expect(globsIntersect(b, a)).toBe(true);
  });

  it.each([
    ['abcd', 'abcdla'],
    ['[a-d]+', '[e-f]+'],
    ['[0-9]*', '.\\*'],
    ['mamama.*', 'dadada.*'],
    ['.*mamama', '.*nanana'],
    ['ab+', 'abc'],
    ['.*.*.*.*f', '.*.*.*.*g'],
    ['.*', ''],
  ])('should find no common string for %s and %s', (a, b) => {
    expect(globsIntersect(a, b)).toBe(false);
  });

  it('should report an invalid glob with the position as OPA does', () => {
    expect(() => globsIntersect('pqrs]', 'a')).toThrow(
      new GlobSyntaxError(
        "input:pqrs], pos:5, set-close ']' with no preceding '[': the input provided is invalid",
      ),
    );
    expect(() => globsIntersect('[a-', 'a')).toThrow(GlobSyntaxError);
    expect(() => globsIntersect('+a', 'a')).toThrow(/flag '\+' must be preceded by a non-flag/);
    expect(() => globsIntersect('[z-a]', 'a')).toThrow(/range is out of order/);
  });
});
