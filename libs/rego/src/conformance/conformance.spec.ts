import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultCasesDir, loadCases } from './cases';
import { runCase } from './runner';

const floorFile = path.resolve(__dirname, '..', '..', 'conformance-floor.json');

describe('conformance', () => {
  it('should pass at least the recorded floor of OPA cases when run in-process', () => {
    const floor = (JSON.parse(fs.readFileSync(floorFile, 'utf8')) as { passed: number }).passed;
    const dir = defaultCasesDir();
    expect(fs.existsSync(dir)).toBe(true);

    const passed = loadCases(dir)
      .map(runCase)
      .filter((r) => r.passed).length;

    expect(passed).toBeGreaterThanOrEqual(floor);
  });
});
