// F27: the runner composes the services into one process, so it alone may import apps.
module.exports = require('@agp/eslint-config').createEslintConfig(__dirname, {
  composesApps: true,
});
