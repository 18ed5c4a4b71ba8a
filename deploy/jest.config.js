module.exports = {
  ...require('@agp/jest-config').createJestConfig(),
  testRegex: 'test/.*\\.spec\\.ts$',
};
