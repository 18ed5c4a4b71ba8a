import { refusalText } from './refusal-text';

describe(refusalText.name, () => {
  it.each([
    ['killSwitch', '-31005 kill_switch'],
    ['reviewPending', '-31004 review_pending'],
    ['reviewRejected', '-31003 review_rejected'],
  ] as const)('should show D41 code and name when the refusal is %s', (name, expected) => {
    expect(refusalText(name)).toBe(expected);
  });
});
