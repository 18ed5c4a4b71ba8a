module.exports = require('@agp/jest-config').createJestConfig({ kind: 'e2e' });
