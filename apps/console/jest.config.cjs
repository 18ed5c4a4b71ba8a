// The console's unit specs (pure logic beside the code): the shared settings, in Node.
module.exports = require('@agp/jest-config').createJestConfig();
