import * as path from 'node:path';
import { loadCases } from './cases';
import { runCase } from './runner';

// The engine's own cases in OPA's format (engine-cases/README.md): in the project, so they run
// whether or not OPA's shared cases are present.
const casesDir = path.resolve(__dirname, 'engine-cases');

describe('engine cases', () => {
  const cases = loadCases(casesDir);

  it('should find the cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [`${c.file}#${c.index} ${c.spec.note}`, c] as const))(
    'should give what OPA gives for %s',
    (_name, c) => {
      const r = runCase(c);

      expect(r.actual).toBe(r.expected);
      expect(r.passed).toBe(true);
    },
  );
});
