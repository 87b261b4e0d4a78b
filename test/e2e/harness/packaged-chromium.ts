/**
 * The Chromium that ships inside the npm package `@sparticuz/chromium` (a headless shell for
 * Linux x64, brotli-compressed in the package: no download, no install script), for machines
 * without an installed Chrome or Chromium. Unpacked once into the cache, next to the
 * provisioned VS Code; later calls find it there.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot } from './provision';
import { processRunning } from '../../../src/base/process-running';

export const PACKAGE = '@sparticuz/chromium';

/** The package's folder, ES module entry and version; a missing package says how to get it. */
function locatePackage(): { entry: string; version: string } {
  let resolved: string;
  try {
    resolved = require.resolve(PACKAGE);
  } catch {
    throw new Error(`no Chrome or Chromium is installed, and the npm package ${PACKAGE} that carries one is missing: run "npm install"`);
  }
  // Its package.json is not exported, so the folder is taken from the resolved entry's path.
  const marker = join('node_modules', PACKAGE);
  const dir = resolved.slice(0, resolved.lastIndexOf(marker) + marker.length);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; exports: { '.': { import: { default: string } } } };
  return { entry: join(dir, manifest.exports['.'].import.default), version: manifest.version };
}

/**
 * The package's own `executablePath()` unpacks into the OS temporary folder. It runs in a
 * child process whose TMPDIR is a fresh folder of ours, which is then moved into place
 * whole: concurrent test runs never see a half-written binary, and a failed run leaves
 * nothing that looks complete.
 */
function unpack(entry: string, into: string): Promise<string> {
  const script = `const { default: chromium } = await import(${JSON.stringify(pathToFileURL(entry).href)}); process.stdout.write(await chromium.executablePath());`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: into }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(output.trim()) : reject(new Error(`unpacking the Chromium of ${PACKAGE} failed (exit code ${code}):\n${output.slice(-2000)}`))));
  });
}

/** Half-unpacked folders of processes that died meanwhile (200 MB each). */
function removeAbandoned(parent: string): void {
  for (const entry of readdirSync(parent)) {
    const pid = /\.partial-(\d+)$/.exec(entry)?.[1];
    if (pid && !processRunning(Number(pid))) rmSync(join(parent, entry), { recursive: true, force: true });
  }
}

/** The path of the packaged Chromium, unpacking it first when needed (about 3 s, once). */
export async function packagedChromium(log: (line: string) => void = () => undefined): Promise<string> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`no Chrome or Chromium is installed, and the one in the npm package ${PACKAGE} runs only on Linux x64: install Chrome or Chromium, or name one in CHROMIUM_PATH`);
  }
  const { entry, version } = locatePackage();
  const parent = join(cacheRoot(), 'chromium');
  const dir = join(parent, `sparticuz-${version}`);
  const binary = join(dir, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(parent, { recursive: true });
  removeAbandoned(parent);
  const work = join(parent, `sparticuz-${version}.partial-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  try {
    log(`Unpacking the Chromium of ${PACKAGE} ${version} into ${dir} (once).`);
    const unpacked = await unpack(entry, work);
    if (unpacked !== join(work, 'chromium')) throw new Error(`${PACKAGE} unpacked its Chromium to ${unpacked}, not into ${work}`);
    try {
      renameSync(work, dir);
    } catch (error) {
      // Another process moved its own copy into place first: use that one.
      if (!existsSync(binary)) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
}
