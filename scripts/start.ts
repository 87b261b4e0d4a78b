/**
 * `npm start`: builds the extension, provisions VS Code's server (once), starts the demo
 * HTTP server, and serves a real VS Code in the browser with the extension loaded and the
 * demo workspace open. Prints the URL (and opens it when a browser is available and
 * --no-open is not given). Ctrl-C stops everything.
 *
 *   npm start [-- --no-open] [-- --port N] [-- --minimum]
 */
import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { provisionVsCode } from '../test/e2e/harness/provision';
import { installVsix, type RunningVsCode, startVsCodeServer } from '../test/e2e/harness/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { type HttpFixture, startDemoHttpServer } from '../test/support/servers';

const REPO = resolve(__dirname, '..');
const args = process.argv.slice(2);
const portIndex = args.indexOf('--port');

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function browserAvailable(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY) && spawnSync('sh', ['-c', 'command -v xdg-open']).status === 0;
}

/** What runs so far; Ctrl-C stops it, in whatever phase. */
let demoHttp: HttpFixture | undefined;
let server: RunningVsCode | undefined;

let stopping = false;
async function stopEverything(): Promise<void> {
  // One Ctrl-C often arrives twice (from the terminal, and relayed by npm): stop once.
  if (stopping) return;
  stopping = true;
  log('\nStopping…');
  await server?.stop().catch((e: unknown) => log(String(e)));
  await demoHttp?.stop();
  process.exit(0);
}

async function main(): Promise<void> {
  // Added, never replacing the harness's listener, which ends the VS Code server's processes.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stopEverything());
  log('Building the extension and the demo servers…');
  const build = spawnSync(process.execPath, [join(REPO, 'scripts/build.mjs')], { stdio: 'inherit', cwd: REPO });
  if (build.status !== 0) throw new Error('the build failed');
  const minimum = args.includes('--minimum');
  const vscode = await provisionVsCode(minimum ? 'minimum' : 'newest', log);
  // VS Code 1.103 refuses dialogs when the smoke-test driver is on (which loading a
  // development extension from the URL needs), so there the packaged extension is installed instead.
  let extensionsDir: string | undefined;
  if (minimum) {
    const pack = spawnSync('npm', ['run', '--silent', 'package'], { stdio: 'inherit', cwd: REPO });
    if (pack.status !== 0) throw new Error('packaging failed');
    const dir = mkdtempSync(join(tmpdir(), 'eh-demo-extensions-'));
    extensionsDir = dir;
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    installVsix(vscode, join(REPO, 'dist-vsix/elicitation-host.vsix'), extensionsDir);
  }
  const http = await startDemoHttpServer();
  demoHttp = http;
  // Whatever ends this process (a failed start, a second Ctrl-C) ends the demo HTTP server too.
  process.on('exit', () => http.process.kill());
  server = await startVsCodeServer({
    vscode,
    workspaceTrust: false,
    smokeTestDriver: !minimum,
    ...(extensionsDir && { extensionsDir }),
    env: { ELICITATION_HOST_DEMO_HTTP_PORT: String(http.port) },
    userSettings: { 'workbench.colorTheme': 'Default Dark Modern' },
    ...(portIndex >= 0 && { port: Number(args[portIndex + 1]) }),
  });
  const url = server.workbenchUrl({ folder: join(REPO, 'demo'), ...(!minimum && { extensionDevelopmentPath: REPO }) });
  log(`\nVS Code ${vscode.vscodeVersion} with Elicitation Host and the demo servers is running.`);
  log(`Open this in your browser:\n\n  ${url}\n`);
  log('(Ctrl-C stops everything.)');
  if (!args.includes('--no-open') && browserAvailable()) {
    const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'start' : 'xdg-open';
    spawn(opener, [url], { stdio: 'ignore', detached: true }).unref();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`npm start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
