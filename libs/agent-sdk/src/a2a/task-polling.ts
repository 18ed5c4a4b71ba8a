import { TaskTimeoutError } from '../errors';
import { sleep } from '../http/backoff';
import { TaskStateName, isTerminalTaskState, taskStateName } from './task-states';

export const TASK_POLL_INTERVAL_MS = 5_000;
export const TASK_POLL_MAX_WAIT_MS = 600_000;

export interface PolledTask {
  status?: { state?: unknown } | undefined;
}

export interface PollTaskOptions {
  intervalMs?: number;
  maxWaitMs?: number;
  onState?: (state: TaskStateName) => void;
  signal?: AbortSignal;
}

/**
 * Reads a task with `tasks/get` (through `getTask`) every interval while its state is non-terminal,
 * and returns it at the first terminal state; {@link TaskTimeoutError} after the maximum wait.
 */
export async function pollTask<T extends PolledTask>(
  taskId: string,
  getTask: (taskId: string) => Promise<T>,
  options: PollTaskOptions = {},
): Promise<T> {
  const intervalMs = options.intervalMs ?? TASK_POLL_INTERVAL_MS;
  const deadline = Date.now() + (options.maxWaitMs ?? TASK_POLL_MAX_WAIT_MS);
  for (;;) {
    options.signal?.throwIfAborted();
    const task = await getTask(taskId);
    const state = taskStateName(task.status?.state);
    options.onState?.(state);
    if (isTerminalTaskState(state)) {
      return task;
    }
    if (Date.now() + intervalMs > deadline) {
      throw new TaskTimeoutError(taskId, state);
    }
    await sleep(intervalMs);
  }
}
