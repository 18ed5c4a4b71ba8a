import { randomUUID } from 'node:crypto';

import { isSampled } from './shadow-sampling';

describe(isSampled.name, () => {
  it('should keep every hop at rate 1 and none at rate 0', () => {
    const ids = Array.from({ length: 50 }, () => randomUUID());

    expect(ids.every((id) => isSampled(id, 1))).toBe(true);
    expect(ids.some((id) => isSampled(id, 0))).toBe(false);
  });

  it('should answer the same for the same hop id every time', () => {
    const ids = Array.from({ length: 200 }, () => randomUUID());

    expect(ids.map((id) => isSampled(id, 0.3))).toEqual(ids.map((id) => isSampled(id, 0.3)));
  });

  it('should keep about the share the rate says when many hops pass', () => {
    const ids = Array.from({ length: 20_000 }, () => randomUUID());
    const kept = ids.filter((id) => isSampled(id, 0.25)).length / ids.length;

    expect(kept).toBeGreaterThan(0.22);
    expect(kept).toBeLessThan(0.28);
  });

  it('should keep at a lower rate only hops it keeps at a higher one', () => {
    const ids = Array.from({ length: 2_000 }, () => randomUUID());

    expect(ids.filter((id) => isSampled(id, 0.1)).every((id) => isSampled(id, 0.5))).toBe(true);
  });
});
