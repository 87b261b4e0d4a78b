/**
 * Starts a provisioned VS Code server on a free loopback port with fresh user-data,
 * server-data and extensions folders and quiet settings, and stops it with every process
 * it started (its file watcher, agent host and copilot runtime included): on stop(), on
 * failure, on Ctrl-C and when this process exits.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProvisionedVsCode } from './provision';

export interface RunningVsCode {
  readonly port: number;
  /** The server's process group: every process it starts belongs to it. */
  readonly pgid: number;
  readonly baseUrl: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  workbenchUrl(options: { folder: string; extensionDevelopmentPath?: string; extensionTestsPath?: string }): string;
  installVsix(vsixPath: string): Promise<void>;
  /** The server's output so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly vscode: ProvisionedVsCode;
  /** Off passes --disable-workspace-trust; on lets a test see the untrusted behaviour. */
  readonly workspaceTrust: boolean;
  readonly userSettings?: Record<string, unknown>;
  readonly extensionsDir?: string;
  /** A port to use; a free one when absent. */
  readonly port?: number;
  /** Extra environment for the server and the extension host it starts. */
  readonly env?: Record<string, string>;
  readonly log?: (line: string) => void;
}

const QUIET_SETTINGS: Record<string, unknown> = {
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'chat.mcp.autostart': 'never',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
};

const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function cleanUpAll(): void {
  for (const child of running) killGroup(child, 'SIGKILL');
}

let handlersInstalled = false;
function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.once('exit', cleanUpAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      cleanUpAll();
      process.exit(130);
    });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Processes still alive in a process group (what `stop` must leave empty). */
export function groupMembers(pgid: number): string[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && Number(l.split(/\s+/)[1]) === pgid);
}

/** Installs a packaged extension the way a user would, `.vscodeignore` and all. */
export function installVsix(vscode: ProvisionedVsCode, vsixPath: string, extensionsDir: string): void {
  mkdirSync(extensionsDir, { recursive: true });
  const result = spawnSync(vscode.nodeBin, [vscode.serverMain, '--install-extension', vsixPath, '--force', '--extensions-dir', extensionsDir], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`installing ${vsixPath} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
}

export async function startVsCodeServer(options: StartOptions): Promise<RunningVsCode> {
  installExitHandlers();
  const log = options.log ?? (() => undefined);
  const base = mkdtempSync(join(tmpdir(), 'eh-vscode-'));
  const userDataDir = join(base, 'user-data');
  const serverDataDir = join(base, 'server-data');
  const extensionsDir = options.extensionsDir ?? join(base, 'extensions');
  for (const dir of [join(userDataDir, 'User'), serverDataDir, extensionsDir]) mkdirSync(dir, { recursive: true });
  const settings = { ...QUIET_SETTINGS, 'security.workspace.trust.enabled': options.workspaceTrust, ...options.userSettings };
  // The web workbench reads user settings from the server's user-data folder.
  for (const dir of [join(userDataDir, 'User'), join(serverDataDir, 'data', 'User')]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  }
  const port = options.port ?? (await freePort());
  const args = [
    options.vscode.serverMain,
    '--host', '127.0.0.1',
    '--port', String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--enable-smoke-test-driver',
    '--disable-telemetry',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--user-data-dir', userDataDir,
    '--server-data-dir', serverDataDir,
    '--extensions-dir', extensionsDir,
  ];
  const child = spawn(options.vscode.nodeBin, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  running.add(child);
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const started = Date.now();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`VS Code server did not start within 60 s:\n${output.slice(-3000)}`)), 60_000);
      const check = (): void => {
        if (/Extension host agent listening on|Web UI available at/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`VS Code server exited with code ${code} before listening:\n${output.slice(-3000)}`));
      });
    });
  } catch (error) {
    killGroup(child, 'SIGKILL');
    running.delete(child);
    throw error;
  }
  log(`VS Code ${options.vscode.vscodeVersion} server on port ${port} (${Date.now() - started} ms)`);
  const baseUrl = `http://127.0.0.1:${port}`;
  const remote = (path: string): string => `vscode-remote://127.0.0.1:${port}${path}`;

  return {
    port,
    pgid: child.pid!,
    baseUrl,
    userDataDir,
    extensionsDir,
    output: () => output,
    workbenchUrl({ folder, extensionDevelopmentPath, extensionTestsPath }) {
      const payload: Array<[string, string]> = [['skipWelcome', 'true']];
      if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
      if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
      return `${baseUrl}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
    async installVsix(vsixPath) {
      installVsix(options.vscode, vsixPath, extensionsDir);
    },
    async stop() {
      if (!running.has(child)) return;
      running.delete(child);
      const pgid = child.pid!;
      killGroup(child, 'SIGTERM');
      const deadline = Date.now() + 5000;
      while (groupMembers(pgid).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      killGroup(child, 'SIGKILL');
      const end = Date.now() + 2000;
      while (groupMembers(pgid).length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      const left = groupMembers(pgid);
      rmSync(base, { recursive: true, force: true });
      if (left.length > 0) throw new Error(`processes of the VS Code server survived stop():\n${left.join('\n')}`);
    },
  };
}
