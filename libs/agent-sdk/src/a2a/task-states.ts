/**
 * Agent-to-agent task states as the client library polls them (specification, States and
 * transitions).
 */
export const NON_TERMINAL_TASK_STATES = [
  'working',
  'submitted',
  'input_required',
  'auth_required',
] as const;
export const TERMINAL_TASK_STATES = [
  'completed',
  'failed',
  'canceled',
  'rejected',
  'unknown',
] as const;

export type TaskStateName =
  (typeof NON_TERMINAL_TASK_STATES)[number] | (typeof TERMINAL_TASK_STATES)[number];

const BY_NUMBER: Record<number, TaskStateName> = {
  1: 'submitted',
  2: 'working',
  3: 'completed',
  4: 'failed',
  5: 'canceled',
  6: 'input_required',
  7: 'rejected',
  8: 'auth_required',
};

const KNOWN = new Set<string>([...NON_TERMINAL_TASK_STATES, ...TERMINAL_TASK_STATES]);

export function taskStateName(state: unknown): TaskStateName {
  if (typeof state === 'number') {
    return BY_NUMBER[state] ?? 'unknown';
  }
  if (typeof state !== 'string') {
    return 'unknown';
  }
  const name = state
    .trim()
    .toLowerCase()
    .replace(/^task_state_/, '')
    .replace(/-/g, '_')
    .replace(/^cancelled$/, 'canceled');
  return KNOWN.has(name) ? (name as TaskStateName) : 'unknown';
}

export function isTerminalTaskState(state: unknown): boolean {
  return (TERMINAL_TASK_STATES as readonly string[]).includes(taskStateName(state));
}
