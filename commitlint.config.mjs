import { readdirSync } from 'node:fs';

/** STYLE § 11: conventional commits, scoped by workspace name (or one of a few repo-wide scopes). */
const workspaces = ['apps', 'libs'].flatMap((dir) =>
  readdirSync(new URL(`./${dir}`, import.meta.url)),
);

export default {
  extends: ['@commitlint/config-conventional'],
  rules: {
    'scope-enum': [
      2,
      'always',
      [...workspaces, 'deps', 'ci', 'deploy', 'docker', 'k8s', 'docs', 'repo'],
    ],
    // Our subjects say what changed and why; some are long, and bodies carry the details.
    'header-max-length': [1, 'always', 300],
    'body-max-line-length': [0],
    'footer-max-line-length': [0],
    'subject-case': [0],
  },
};
