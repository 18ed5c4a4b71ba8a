// test/oidc-idp.mjs is plain JavaScript run by node in a process of its own (the test's identity provider).
module.exports = [
  ...require('@agp/eslint-config').createEslintConfig(__dirname),
  { ignores: ['test/*.mjs'] },
];
