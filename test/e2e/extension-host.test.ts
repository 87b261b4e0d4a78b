/**
 * The extension-host suite (test/e2e/suite) inside a real VS Code: the web workbench from
 * code-server, opened by Chromium, reporting its exit code through codeAutomationExit.
 * It runs twice: in a trusted and in an untrusted workspace.
 */
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExtensionTestsInBrowser } from './harness/browser';
import { startVsCodeServer } from './harness/server';
import { closeBrowser, FIXTURES, provisioned, REPO, requireBuilt, RESULTS, sharedBrowser, SUITE, userServerSettings, versionName, WORKSPACE } from './context';

describe(`extension-host suite in VS Code (${versionName()})`, function () {
  this.timeout(15 * 60_000);

  before(async () => {
    requireBuilt(join(REPO, 'dist/extension.js'), join(SUITE, 'index.js'), join(FIXTURES, 'stdio.js'));
    await provisioned();
  });

  after(closeBrowser);

  for (const trusted of [true, false]) {
    it(`passes in a${trusted ? ' trusted' : 'n untrusted'} workspace`, async () => {
      const vscode = await provisioned();
      const dir = mkdtempSync(join(tmpdir(), 'eh-suite-'));
      const reportPath = join(dir, 'report.json');
      // A copy of the workspace: the suite edits its mcp.json.
      const workspace = join(dir, 'workspace');
      cpSync(WORKSPACE, workspace, { recursive: true });
      const server = await startVsCodeServer({
        vscode,
        workspaceTrust: !trusted,
        userSettings: userServerSettings(),
        env: {
          ELICITATION_HOST_FIXTURES: FIXTURES,
          ELICITATION_HOST_EXPECT_TRUSTED: String(trusted),
          ELICITATION_HOST_SUITE_REPORT: reportPath,
          FIXTURE_RECORD: '/dev/null',
        },
      });
      try {
        const run = await runExtensionTestsInBrowser({
          browser: await sharedBrowser(),
          server,
          folder: workspace,
          extensionDevelopmentPath: REPO,
          extensionTestsPath: join(SUITE, 'index.js'),
          timeoutMs: 180_000,
          screenshotPath: join(RESULTS, `extension-host-${versionName()}-${trusted ? 'trusted' : 'untrusted'}.png`),
        });
        assert.ok(existsSync(reportPath), `the suite wrote no report (exit code ${run.exitCode}); console:\n${run.consoleLines.slice(-60).join('\n')}\n--- server ---\n${server.output().slice(-3000)}`);
        const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { passed: string[]; failed: Array<{ title: string; error: string }> };
        for (const title of report.passed) process.stdout.write(`        ✔ ${title}\n`);
        for (const { title, error } of report.failed) process.stdout.write(`        ✖ ${title}\n          ${error.split('\n').slice(0, 6).join('\n          ')}\n`);
        assert.deepEqual(report.failed.map((f) => f.title), [], 'every extension-host test passes');
        assert.ok(report.passed.length >= 8, `only ${report.passed.length} extension-host tests ran`);
        assert.equal(run.exitCode, 0, 'the workbench reports exit code 0');
      } finally {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
