/**
 * A test run in miniature, for harness.test.ts: starts a VS Code server with the harness (the
 * test workspace's fixture servers and the extension under development in its workbench URL),
 * prints one JSON line { "pgid", "workbenchUrl" }, then lives until a signal ends it; with
 * --crash it throws, uncaught, when a line arrives on stdin.
 *
 *   VSCODE_VERSION=newest|minimum node --import tsx test/e2e/harness-run.ts [--crash]
 */
import { startVsCodeServer } from './harness/server';
import { FIXTURES, provisioned, REPO, WORKSPACE } from './context';

async function main(): Promise<void> {
  const server = await startVsCodeServer({
    vscode: await provisioned(),
    workspaceTrust: false,
    env: { ELICITATION_HOST_FIXTURES: FIXTURES, FIXTURE_RECORD: '/dev/null' },
  });
  process.stdout.write(`${JSON.stringify({ pgid: server.pgid, workbenchUrl: server.workbenchUrl({ folder: WORKSPACE, extensionDevelopmentPath: REPO }) })}\n`);
  if (process.argv.includes('--crash')) {
    process.stdin.once('data', () => {
      throw new Error('the crash harness.test.ts asked for');
    });
  } else {
    // Nothing else keeps this process alive once the server's pipes are quiet.
    setInterval(() => undefined, 60_000);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`harness-run failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
