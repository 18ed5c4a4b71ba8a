import { toList } from './list-value';

describe(toList.name, () => {
  it('should split comma-separated values when one parameter holds several', () => {
    expect(toList('BLOCK, WARN')).toEqual(['BLOCK', 'WARN']);
  });

  it('should join repeated parameters when the query repeats a name', () => {
    expect(toList(['BLOCK', 'WARN,LOG'])).toEqual(['BLOCK', 'WARN', 'LOG']);
  });

  it('should give undefined when the parameter is empty', () => {
    expect(toList('')).toBeUndefined();
  });
});
