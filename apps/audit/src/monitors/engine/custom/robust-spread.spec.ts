import { leaveOneOutSpreads, robustSpread } from './robust-spread';

describe(leaveOneOutSpreads.name, () => {
  function naive(values: number[]): Array<{ median: number; scale: number }> {
    return values.map((_v, i) => robustSpread(values.filter((_w, j) => j !== i)));
  }

  it('should give each value the spread of its peers when values are distinct, tied or mostly equal', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const samples = [
      [1, 2, 3],
      [5, 5, 5, 40],
      [0, 0, 0, 0, 1, 9],
      Array.from({ length: 101 }, () => Math.round(random() * 20)),
      Array.from({ length: 64 }, () => random() * 1_000),
    ];
    for (const values of samples) {
      const expected = naive(values);
      const sut = leaveOneOutSpreads(values);
      sut.forEach((spread, i) => {
        expect(spread.median).toBeCloseTo(expected[i].median, 9);
        expect(spread.scale).toBeCloseTo(expected[i].scale, 9);
      });
    }
  });

  it('should use the mean absolute deviation when more than half the peers are equal', () => {
    const [outlier] = leaveOneOutSpreads([100, 3, 3, 3, 4]);

    expect(outlier).toEqual({ median: 3, scale: 1.2533 * 0.25 });
  });
});
