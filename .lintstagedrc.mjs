/** STYLE § 11: what the pre-commit hook checks on the staged files (CI checks everything). */
export default {
  '*.{ts,js,mjs,cjs,json,md,yml,yaml}': 'prettier --write',
  '*.ts': 'node scripts/lint-staged-eslint.mjs',
};
