module.exports = require('@agp/jest-config').createJestConfig();
