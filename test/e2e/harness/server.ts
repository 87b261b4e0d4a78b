/**
 * Starts a provisioned VS Code server on a free loopback port with fresh user-data,
 * server-data and extensions folders and quiet settings, and stops it with every process
 * it started (1.139's file watcher, agent host and copilot runtime included): on stop(),
 * and on failure, Ctrl-C or exit of this process.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProvisionedVsCode } from './provision';

export interface RunningVsCode {
  readonly port: number;
  /** The server's process group: the server's pid; every process it starts belongs to it. */
  readonly pgid: number;
  /** http://127.0.0.1:PORT */
  readonly baseUrl: string;
  readonly userDataDir: string;
  readonly serverDataDir: string;
  readonly extensionsDir: string;
  /** The workbench opening `folder`; the payload loads an extension under development and its tests. */
  workbenchUrl(options: { folder: string; extensionDevelopmentPath?: string; extensionTestsPath?: string }): string;
  /** Installs a packaged extension into this server's extensions folder. */
  installVsix(vsixPath: string): Promise<void>;
  /** The server's output so far (its last 200 kB), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly vscode: ProvisionedVsCode;
  /** false passes --disable-workspace-trust; true lets a test see the restricted mode. */
  readonly workspaceTrust: boolean;
  /** Merged over the quiet defaults. */
  readonly userSettings?: Record<string, unknown>;
  /** Used as is (and kept on stop) when given; a fresh temporary folder otherwise. */
  readonly extensionsDir?: string;
  /**
   * --enable-smoke-test-driver, on unless false: the workbench then honours the URL's payload
   * (extension under development, tests), but VS Code 1.103 also refuses to show dialogs.
   */
  readonly smokeTestDriver?: boolean;
  /** A port to listen on; a free one when absent. */
  readonly port?: number;
  /** Extra environment for the server and the extension host it starts. */
  readonly env?: Record<string, string>;
  /** A file holding the server's connection token (kept out of `ps`); --without-connection-token when absent. */
  readonly connectionTokenFile?: string;
  /** Further command-line arguments (for instance `--agent-host-port 0`). */
  readonly extraArgs?: readonly string[];
  readonly log?: (line: string) => void;
}

/** A first run that asks nothing, opens nothing and calls no one. */
const QUIET_SETTINGS: Readonly<Record<string, unknown>> = {
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  // VS Code's own MCP client reads .vscode/mcp.json too: it must not start our fixture servers.
  'chat.mcp.autostart': 'never',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.enabled': false,
  // With trust on, the workspace opens in restricted mode without the modal prompt.
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
};

const OUTPUT_LIMIT = 200_000;
const START_TIMEOUT_MS = 60_000;

/**
 * Set in the server's environment, which every process it starts inherits: it finds the
 * server's processes even after they left its group and their parent died (re-parented).
 */
const TAG_VARIABLE = 'ELICITATION_HOST_E2E_SERVER';

/** What identifies one server's processes. */
interface ServerIdentity {
  /** Its process group: the server's pid. */
  readonly pgid: number;
  /** The value of TAG_VARIABLE in its environment, unique per server. */
  readonly tag: string;
}

/** The servers still running (process group → identity and temporary folder), ended when this process ends. */
const running = new Map<number, { readonly server: ServerIdentity; readonly base: string }>();

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // The process is already gone.
  }
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  signalProcess(-pgid, signal);
}

let exitHandlersInstalled = false;
function installExitHandlers(): void {
  if (exitHandlersInstalled) return;
  exitHandlersInstalled = true;
  // Synchronous: on 'exit' nothing asynchronous runs any more.
  const killAll = (): void => {
    for (const { server, base } of running.values()) {
      // One server's failure must not keep the others running.
      try {
        killServerProcesses(server);
        rmSync(base, { recursive: true, force: true, maxRetries: 3 });
      } catch (error) {
        process.stderr.write(`ending the VS Code server (process group ${server.pgid}) failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
    // Once: a signal's exit would otherwise walk them again.
    running.clear();
  };
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      killAll();
      // Listening replaces the default action: exit as it would have, unless someone else handles it.
      if (process.listenerCount(signal) === 1) process.exit(128 + constants.signals[signal]);
    });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

interface PsRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** Dead, its exit status not yet collected by its parent. */
  readonly zombie: boolean;
  readonly line: string;
}

function ps(): PsRow[] {
  const result = spawnSync('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' });
  // An empty listing would read as "all gone".
  if (result.status !== 0) throw new Error(`ps failed (${result.error?.message ?? `exit code ${result.status}`}): the VS Code server's processes cannot be listed`);
  return result.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 5)
    .map(([pid, ppid, pgid, stat, ...args]) => ({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: stat.startsWith('Z'), line: `${pid} ${pgid} ${args.join(' ')}` }));
}

/** `ps` lines of the processes still alive in a process group. */
export function groupMembers(pgid: number): string[] {
  return ps()
    .filter((p) => p.pgid === pgid && !p.zombie)
    .map((p) => p.line);
}

/** Whether a process's environment holds this entry (Linux: /proc; elsewhere never). */
function carriesEnvironmentEntry(pid: number, entry: string): boolean {
  try {
    return `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(`\0${entry}\0`);
  } catch {
    // Gone, not ours to read, or no /proc.
    return false;
  }
}

/**
 * The server's processes in a `ps` listing: its group's members, every process carrying its
 * tag, those of `earlier` still there (the same pid and command line: not a reused pid),
 * and the descendants of all of these.
 */
function serverProcesses(server: ServerIdentity, rows: readonly PsRow[], earlier: readonly PsRow[] = []): PsRow[] {
  const entry = `${TAG_VARIABLE}=${server.tag}`;
  const earlierLines = new Set(earlier.map((r) => r.line));
  const found = new Set<number>();
  for (const row of rows) {
    if (row.pgid === server.pgid || earlierLines.has(row.line) || (!row.zombie && carriesEnvironmentEntry(row.pid, entry))) found.add(row.pid);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (!found.has(row.pid) && found.has(row.ppid)) {
        found.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((r) => found.has(r.pid));
}

/**
 * Ends every process of a server at once. Synchronous, so that the exit and signal handlers
 * use it as stop() does. Each one found is frozen (SIGSTOP) until a walk finds no new one (a
 * frozen process starts no other), then all are killed (SIGKILL ends frozen ones too).
 */
function killServerProcesses(server: ServerIdentity, earlier: readonly PsRow[] = []): void {
  const frozen = new Set<number>();
  try {
    for (let round = 0; round < 20; round++) {
      const fresh = serverProcesses(server, ps(), earlier).filter((r) => !r.zombie && !frozen.has(r.pid));
      if (fresh.length === 0) break;
      for (const row of fresh) {
        signalProcess(row.pid, 'SIGSTOP');
        frozen.add(row.pid);
      }
    }
  } finally {
    // Even when a walk failed: nothing stays frozen.
    killGroup(server.pgid, 'SIGKILL');
    for (const pid of frozen) signalProcess(pid, 'SIGKILL');
  }
}

/**
 * Installs a packaged extension the way a user would (`.vscodeignore` applied), with
 * throwaway data folders so nothing is written to the home folder.
 */
export function installVsix(vscode: ProvisionedVsCode, vsixPath: string, extensionsDir: string): void {
  mkdirSync(extensionsDir, { recursive: true });
  const data = mkdtempSync(join(tmpdir(), 'eh-vsix-'));
  try {
    const args = [vscode.serverMain, '--install-extension', vsixPath, '--force', '--extensions-dir', extensionsDir, '--user-data-dir', join(data, 'user'), '--server-data-dir', join(data, 'server'), '--accept-server-license-terms'];
    const result = spawnSync(vscode.nodeBin, args, { encoding: 'utf8' });
    // Exit code 1 for a missing or broken file and for an incompatible engine (checked).
    if (result.status !== 0) {
      throw new Error(`installing ${vsixPath} failed (${result.signal ?? `exit code ${result.status}`}): ${vscode.nodeBin} ${args.join(' ')}\n${result.stdout}${result.stderr}`);
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

function writeSettings(userDataDir: string, settings: Record<string, unknown>): void {
  const dir = join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
}

function waitUntilListening(child: ChildProcess, port: number, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve();
    };
    const check = (): void => {
      if (/Extension host agent listening on \d+/.test(output())) done();
      // The server reports a taken port and then waits forever.
      else if (/listen EADDRINUSE/.test(output())) done(new Error(`the VS Code server cannot listen on port ${port}: it is in use:\n${output().slice(-4000)}`));
    };
    const exited = (code: number | null, signal: NodeJS.Signals | null): void => {
      const report = (): void => done(new Error(`the VS Code server exited (${signal ?? `exit code ${code}`}) before listening:\n${output().slice(-4000)}`));
      // Its last words may still be in the pipes: wait for them to close, briefly (a helper may hold them open).
      const grace = setTimeout(report, 1000);
      child.once('close', () => {
        clearTimeout(grace);
        report();
      });
    };
    const timer = setTimeout(() => done(new Error(`the VS Code server was not listening after ${START_TIMEOUT_MS / 1000} s:\n${output().slice(-4000)}`)), START_TIMEOUT_MS);
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', exited);
  });
}

export async function startVsCodeServer(options: StartOptions): Promise<RunningVsCode> {
  installExitHandlers();
  const { vscode } = options;
  const log = options.log ?? (() => undefined);
  const base = mkdtempSync(join(tmpdir(), 'eh-vscode-'));
  const userDataDir = join(base, 'user-data');
  const serverDataDir = join(base, 'server-data');
  const extensionsDir = options.extensionsDir ?? join(base, 'extensions');
  for (const dir of [serverDataDir, extensionsDir]) mkdirSync(dir, { recursive: true });
  writeSettings(userDataDir, { ...QUIET_SETTINGS, 'security.workspace.trust.enabled': options.workspaceTrust, ...options.userSettings });

  const port = options.port ?? (await freePort());
  const args = [
    vscode.serverMain,
    '--host', '127.0.0.1',
    '--port', String(port),
    ...(options.connectionTokenFile === undefined ? ['--without-connection-token'] : ['--connection-token-file', options.connectionTokenFile]),
    '--accept-server-license-terms',
    ...(options.smokeTestDriver === false ? [] : ['--enable-smoke-test-driver']),
    '--disable-telemetry',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--user-data-dir', userDataDir,
    '--server-data-dir', serverDataDir,
    '--extensions-dir', extensionsDir,
    ...(options.extraArgs ?? []),
  ];
  const started = Date.now();
  // Its own process group and a tag in its environment, so that stop() reaches every helper it starts.
  const tag = `${process.pid}-${randomUUID()}`;
  const child = spawn(vscode.nodeBin, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env, [TAG_VARIABLE]: tag } });
  if (child.pid === undefined) {
    rmSync(base, { recursive: true, force: true });
    throw new Error(`the VS Code server could not be started: ${vscode.nodeBin} ${args.join(' ')}`);
  }
  const pgid = child.pid;
  const server: ServerIdentity = { pgid, tag };
  running.set(pgid, { server, base });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-OUTPUT_LIMIT);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  let stopped: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    // Known before the kill: without /proc (no tags to read), a helper that left the group is still found once its parent is gone.
    const known = serverProcesses(server, ps());
    const remaining = (withZombies = false): PsRow[] => serverProcesses(server, ps(), known).filter((r) => withZombies || !r.zombie);
    const settle = async (ms: number, withZombies = false): Promise<void> => {
      for (const deadline = Date.now() + ms; remaining(withZombies).length > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
    };
    // A chance to end cleanly first, for those outside the group too.
    killGroup(pgid, 'SIGTERM');
    for (const row of known) if (row.pgid !== pgid) signalProcess(row.pid, 'SIGTERM');
    await settle(5000);
    killServerProcesses(server, known);
    await settle(3000);
    // Dead ones leave the process table when reaped (by this process, or by init): a moment.
    await settle(2000, true);
    running.delete(pgid);
    const left = remaining();
    rmSync(base, { recursive: true, force: true });
    if (left.length > 0) throw new Error(`processes of the VS Code server survived stop():\n${left.map((r) => r.line).join('\n')}`);
  };

  try {
    await waitUntilListening(child, port, () => output);
  } catch (error) {
    // Why the start failed comes first; processes that outlived the cleanup are added to it.
    const survivors = await stop().then(
      () => '',
      (stopError: unknown) => `\n${stopError instanceof Error ? stopError.message : String(stopError)}`,
    );
    if (survivors && error instanceof Error) error.message += survivors;
    throw error;
  }
  log(`VS Code ${vscode.vscodeVersion} server listening on port ${port} after ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const baseUrl = `http://127.0.0.1:${port}`;
  const remote = (path: string): string => `vscode-remote://127.0.0.1:${port}${path}`;
  return {
    port,
    pgid,
    baseUrl,
    userDataDir,
    serverDataDir,
    extensionsDir,
    workbenchUrl({ folder, extensionDevelopmentPath, extensionTestsPath }) {
      const payload: Array<[string, string]> = [];
      if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
      if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
      payload.push(['skipWelcome', 'true']);
      return `${baseUrl}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
    async installVsix(vsixPath) {
      installVsix(vscode, vsixPath, extensionsDir);
    },
    output: () => output,
    stop() {
      stopped ??= stop();
      return stopped;
    },
  };
}
