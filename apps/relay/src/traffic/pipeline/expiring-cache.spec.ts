import { ExpiringCache } from './expiring-cache';

describe(ExpiringCache.name, () => {
  it('should load once for concurrent readers and serve the value while it is fresh', async () => {
    const sut = new ExpiringCache<number>(60_000);
    let loads = 0;
    const load = () => Promise.resolve((loads += 1));

    const values = await Promise.all([sut.get('k', load), sut.get('k', load)]);
    const later = await sut.get('k', load);

    expect(values).toEqual([1, 1]);
    expect(later).toBe(1);
    expect(loads).toBe(1);
  });

  it('should load again when the value has expired', async () => {
    const sut = new ExpiringCache<number>(0);
    let loads = 0;
    const load = () => Promise.resolve((loads += 1));

    await sut.get('k', load);
    const second = await sut.get('k', load);

    expect(second).toBe(2);
  });

  it('should not keep a failed load', async () => {
    const sut = new ExpiringCache<number>(60_000);

    await expect(sut.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    const value = await sut.get('k', () => Promise.resolve(7));

    expect(value).toBe(7);
  });

  it('should drop the keys a predicate names', async () => {
    const sut = new ExpiringCache<string>(60_000);
    await sut.get('t1:a', () => Promise.resolve('old'));

    sut.invalidate((key) => key.startsWith('t1:'));
    const value = await sut.get('t1:a', () => Promise.resolve('new'));

    expect(value).toBe('new');
  });
});
