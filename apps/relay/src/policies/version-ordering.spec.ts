import { VERSION_PATTERN, compareVersions, nextVersion, versionSortKey } from './version-ordering';

describe('version ordering', () => {
  it('should order versions numerically segment by segment when compared', () => {
    expect(compareVersions('1.10', '1.9')).toBeGreaterThan(0);
    expect(compareVersions('2', '1.99.99')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0', '1')).toBe(0);
    expect(compareVersions('0.9', '1')).toBeLessThan(0);
  });

  it('should give sort keys whose text order is the version order when sorted', () => {
    const versions = ['1.10', '1.2', '10', '1.9.1', '2', '1'];
    const byKey = [...versions].sort((a, b) => versionSortKey(a).localeCompare(versionSortKey(b)));
    const byCompare = [...versions].sort(compareVersions);
    expect(byKey).toEqual(byCompare);
    expect(byKey).toEqual(['1', '1.2', '1.9.1', '1.10', '2', '10']);
  });

  it('should increment the last segment when no version is named', () => {
    expect(nextVersion(undefined)).toBe('1');
    expect(nextVersion('1')).toBe('2');
    expect(nextVersion('1.4.9')).toBe('1.4.10');
  });

  it('should accept dotted numbers only when validating a version string', () => {
    expect(['1', '1.2.3', '2026.11.22.1'].every((v) => VERSION_PATTERN.test(v))).toBe(true);
    expect(['v1', '1.', '1..2', '1.2.3.4.5', '', '-1'].some((v) => VERSION_PATTERN.test(v))).toBe(
      false,
    );
  });
});
