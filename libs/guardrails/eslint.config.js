module.exports = require('@agp/eslint-config').createEslintConfig(__dirname);
