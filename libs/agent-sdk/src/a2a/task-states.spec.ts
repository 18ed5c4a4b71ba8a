import { isTerminalTaskState, taskStateName } from './task-states';

describe(taskStateName.name, () => {
  it.each([
    ['working', 'working'],
    ['submitted', 'submitted'],
    ['input-required', 'input_required'],
    ['auth-required', 'auth_required'],
    ['TASK_STATE_INPUT_REQUIRED', 'input_required'],
    [2, 'working'],
    [6, 'input_required'],
    [8, 'auth_required'],
  ])('should read %p as the non-terminal state %s', (wire, name) => {
    expect(taskStateName(wire)).toBe(name);
    expect(isTerminalTaskState(wire)).toBe(false);
  });

  it.each([
    ['completed', 'completed'],
    ['failed', 'failed'],
    ['canceled', 'canceled'],
    ['cancelled', 'canceled'],
    ['rejected', 'rejected'],
    ['unknown', 'unknown'],
    ['TASK_STATE_COMPLETED', 'completed'],
    [3, 'completed'],
    [7, 'rejected'],
    [0, 'unknown'],
    [-1, 'unknown'],
    ['something-new', 'unknown'],
    [undefined, 'unknown'],
  ])('should read %p as the terminal state %s', (wire, name) => {
    expect(taskStateName(wire)).toBe(name);
    expect(isTerminalTaskState(wire)).toBe(true);
  });
});
