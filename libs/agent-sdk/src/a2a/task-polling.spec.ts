import { TaskTimeoutError } from '../errors';
import { pollTask } from './task-polling';

function tasksIn(...states: unknown[]): (id: string) => Promise<{ status: { state: unknown } }> {
  const queue = [...states];
  return async () => ({ status: { state: queue.length > 1 ? queue.shift() : queue[0] } });
}

describe(pollTask.name, () => {
  it('should poll while the state is non-terminal and stop at the first terminal one', async () => {
    const seen: string[] = [];

    const task = await pollTask(
      't1',
      tasksIn('submitted', 'working', 'input-required', 'completed'),
      {
        intervalMs: 1,
        onState: (state) => seen.push(state),
      },
    );

    expect(task.status.state).toBe('completed');
    expect(seen).toEqual(['submitted', 'working', 'input_required', 'completed']);
  });

  it('should raise TaskTimeoutError with the last state when the maximum wait passes', async () => {
    const error = await pollTask('t2', tasksIn('working'), { intervalMs: 5, maxWaitMs: 20 }).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(TaskTimeoutError);
    expect(error).toMatchObject({ taskId: 't2', lastState: 'working' });
  });
});
