import { actionsFor } from './lifecycle';

describe(actionsFor.name, () => {
  it.each([
    ['OPEN', ['acknowledge', 'resolve', 'dismiss']],
    ['ACKNOWLEDGED', ['resolve', 'dismiss']],
    ['RESOLVED', ['reopen']],
    ['DISMISSED', ['reopen']],
  ] as const)('should offer D14 transitions when the alert is %s', (status, expected) => {
    expect(actionsFor(status)).toEqual(expected);
  });
});
