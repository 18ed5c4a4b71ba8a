// Writes each jest run's counts to <repo>/.test-results/, so `npm test` can close with one
// "N passed, N failed" line over every package (scripts/run-tests.mjs), naming each failed test with the
// head of its error, so a CI log cut to its tail still says what failed.
const fs = require('node:fs');
const path = require('node:path');

const resultsDir = path.resolve(__dirname, '..', '..', '.test-results');

class SummaryReporter {
  constructor(_globalConfig, options = {}) {
    this.kind = options.kind ?? 'unit';
  }

  onRunComplete(_contexts, results) {
    const packageName = (() => {
      try {
        return require(path.join(process.cwd(), 'package.json')).name;
      } catch {
        return path.basename(process.cwd());
      }
    })();
    fs.mkdirSync(resultsDir, { recursive: true });
    const file = path.join(
      resultsDir,
      `${packageName.replace(/[^a-z0-9-]/gi, '_')}-${this.kind}.json`,
    );
    fs.writeFileSync(
      file,
      JSON.stringify({
        package: packageName,
        kind: this.kind,
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        skipped: results.numPendingTests + results.numTodoTests,
        failures: failuresOf(results),
      }),
    );
  }
}

const ERROR_HEAD_LINES = 6;

function failuresOf(results) {
  const failures = [];
  for (const suite of results.testResults) {
    const file = path.relative(process.cwd(), suite.testFilePath);
    if (suite.testExecError)
      failures.push({ file, test: '(suite)', error: head(suite.testExecError.message) });
    for (const test of suite.testResults) {
      if (test.status === 'failed') {
        failures.push({ file, test: test.fullName, error: head(test.failureMessages.join('\n')) });
      }
    }
  }
  return failures;
}

function head(message = '') {
  // eslint-disable-next-line no-control-regex -- strip the colour codes jest puts in its messages
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  return plain.split('\n').slice(0, ERROR_HEAD_LINES).join('\n');
}

module.exports = SummaryReporter;
