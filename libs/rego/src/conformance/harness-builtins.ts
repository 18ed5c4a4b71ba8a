import { parseDuration } from '../builtins/time';
import { def, str } from '../builtins/helpers';
import { addBuiltins } from '../builtins/registry';
import { BuiltinDef } from '../builtins/types';

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Registered by the conformance runner only. */
export const HARNESS_BUILTINS: BuiltinDef[] = [
  def('test.sleep', 1, ([d]) => {
    Atomics.wait(pause, 0, 0, Number(parseDuration(str(d, 1)) / 1_000_000n));
    return null;
  }),
];

let registered = false;

/** Adds the harness built-ins to the registry (once). */
export function registerHarnessBuiltins(): void {
  if (!registered) {
    registered = true;
    addBuiltins(HARNESS_BUILTINS);
  }
}
