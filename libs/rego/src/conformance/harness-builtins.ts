import { parseDuration } from '../builtins/time';
import { def, str } from '../builtins/helpers';
import { addBuiltins } from '../builtins/registry';
import { BuiltinDef } from '../builtins/types';

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Built-ins that OPA's conformance harness registers for its cases and that are no part of OPA's
 * capabilities: `test.sleep(duration)` blocks for a Go duration and returns null (the "time
 * caching" case checks that `time.now_ns` stays fixed across it). Registered by the conformance
 * runner only.
 */
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
