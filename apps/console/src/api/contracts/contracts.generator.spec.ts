import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const repoDir = join(__dirname, '..', '..', '..', '..', '..');
const SERVICES = ['relay', 'audit', 'tenant-auth'];

describe('generateContracts', () => {
  // In a process of its own: Prettier 3 and json-schema-to-typescript load ES modules with
  // `import()`, which jest's CommonJS runtime refuses.
  it('should be what the committed contracts say (else run `npm run contracts -w @agp/console`)', () => {
    const run = spawnSync(
      join(repoDir, 'node_modules', '.bin', 'tsx'),
      [join(__dirname, 'contracts.cli.ts'), '--check'],
      { encoding: 'utf8', cwd: join(repoDir, 'apps', 'console') },
    );

    const verdicts = run.stdout.trim().split('\n').sort();
    expect({ verdicts, stderr: run.stderr }).toEqual({
      verdicts: SERVICES.map((service) => `current ${join(__dirname, `${service}.ts`)}`).sort(),
      stderr: '',
    });
    expect(run.status).toBe(0);
  }, 120_000);
});
