import * as path from 'node:path';
import type { compilePolicy } from '../policy';

/**
 * `REGO_BASELINE_DIST`: another build of this package (main's, made by scripts/bench-baseline.sh),
 * measured in the same run as the current build.
 */
export const baseline = process.env.REGO_BASELINE_DIST
  ? // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require(path.resolve(process.env.REGO_BASELINE_DIST, 'policy.js')) as {
      compilePolicy: typeof compilePolicy;
    })
  : undefined;
