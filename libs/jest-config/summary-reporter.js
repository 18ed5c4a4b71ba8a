// Writes each jest run's counts to <repo>/.test-results/, so `npm test` can close with one
// "N passed, N failed" line over every package (scripts/run-tests.mjs).
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
      }),
    );
  }
}

module.exports = SummaryReporter;
