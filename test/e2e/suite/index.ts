/**
 * The extension-host suite's entry: VS Code loads this module (extensionTestsPath) in the
 * extension host and calls run(); mocha runs the bundled test files next to it. With
 * ELICITATION_HOST_SUITE_REPORT set, the results are also written there as JSON, for the
 * runner outside the browser to print.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

interface Report {
  passed: string[];
  failed: Array<{ title: string; error: string }>;
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(join(__dirname, file));
  const report: Report = { passed: [], failed: [] };
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const path = process.env.ELICITATION_HOST_SUITE_REPORT;
      if (path) writeFileSync(path, JSON.stringify(report, null, 2));
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
      else resolve();
    });
    runner.on('pass', (test) => report.passed.push(test.fullTitle()));
    runner.on('fail', (test, error: Error) => report.failed.push({ title: test.fullTitle(), error: error.stack ?? error.message }));
    runner.on('pending', (test) => report.failed.push({ title: test.fullTitle(), error: 'skipped (pending tests are not allowed)' }));
  });
}
