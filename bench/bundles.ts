/**
 * The shipped bundles: their sizes, the .vsix's, and how long loading the SDK takes when an
 * agent first uses the gateway, ours against the layout before the SDK was shared, both built
 * in this run from the same sources with the same esbuild options.
 *
 *   ours      scripts/build.mjs --production: dist/gateway.js carries no SDK; it takes the
 *             server half from dist/mcp-sdk.js, which the servers' connections load anyway
 *             (bundled there, run only when the gateway's first request asks for it)
 *   previous  the layout until then: dist/gateway.js with its own server SDK, zod and ajv (the
 *             server package's own shim), dist/mcp-sdk.js with the client half only (rebuilt
 *             here from today's sources: src/mcp/sdk/server-sdk.ts bundled into the gateway
 *             instead of into mcp-sdk.js)
 *   floor     the SDK alone: the client and server packages (and @modelcontextprotocol/node)
 *             in one bundle with one zod and one ajv, nothing of ours. No layout loads less.
 *
 * A load is timed in a fresh Node process (nothing cached, as in a new extension host, whose
 * fetch is loaded already): the requires an agent's first call makes, gateway.js then
 * mcp-sdk.js (and, for ours, running its server half), from the first require to the end. The three are interleaved round by round, so none gets a warmer machine.
 * Each layout's .vsix is packaged by vsce from a copy of the package's files with that
 * layout's dist/, the same way for both.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { median, round } from './stats';

const REPO = resolve(__dirname, '..');
const ROUNDS = 21;

export interface BundleFigures {
  readonly rounds: number;
  /** Bytes of each shipped bundle, ours and previous. */
  readonly sizes: Record<'ours' | 'previous', Record<string, number>>;
  readonly vsixBytes: Record<'ours' | 'previous', number>;
  /** Median milliseconds, fresh process each. */
  readonly gatewayFirstUseMs: Record<'ours' | 'previous' | 'floor', number>;
  readonly gatewayStartMs: Record<'ours' | 'previous', number>;
  readonly serverStartMs: Record<'ours' | 'previous', number>;
}

const NODE_BUNDLE: esbuild.BuildOptions = {
  bundle: true,
  minify: true,
  legalComments: 'none',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  mainFields: ['module', 'main'],
  conditions: ['require', 'node'],
  logLevel: 'warning',
};

/** A module made of `contents`, resolved from src/mcp/sdk (for its relative imports). */
function virtual(filter: RegExp, importer: string, contents: string): esbuild.Plugin {
  return {
    name: `virtual-${importer}`,
    setup(build) {
      build.onResolve({ filter }, (args) => (args.importer.endsWith(importer) ? { path: args.path, namespace: `virtual-${importer}` } : undefined));
      build.onLoad({ filter: /.*/, namespace: `virtual-${importer}` }, () => ({ contents, loader: 'ts', resolveDir: join(REPO, 'src/mcp/sdk') }));
    },
  };
}

const re2External: esbuild.Plugin = {
  name: 're2-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/re2-engine$/ }, (args) => (args.importer.endsWith('pattern.ts') ? { path: './re2.js', external: true } : undefined));
  },
};

/** The layout before the SDK was shared, rebuilt from today's sources into `dir` (a copy of ours). */
async function buildPrevious(dir: string): Promise<void> {
  const clientShims = { '@modelcontextprotocol/client/_shims': join(REPO, 'src/mcp/sdk/sdk-shims.ts') };
  await esbuild.build({
    ...NODE_BUNDLE,
    absWorkingDir: REPO,
    entryPoints: ['src/mcp/sdk/sdk.ts'],
    outfile: join(dir, 'mcp-sdk.js'),
    alias: clientShims,
    plugins: [re2External, virtual(/^\.\/server-sdk$/, 'sdk.ts', 'export {};')],
  });
  await esbuild.build({
    ...NODE_BUNDLE,
    absWorkingDir: REPO,
    entryPoints: ['src/gateway/bundle.ts'],
    outfile: join(dir, 'gateway.js'),
    alias: clientShims,
    plugins: [virtual(/^\.\/sdk$/, 'sdk-loader.ts', "import * as server from './server-sdk'; export const loadServer = () => server;")],
  });
}

/** The SDK alone, in one bundle with one zod and one ajv. */
async function buildFloor(dir: string): Promise<string> {
  const shims = join(REPO, 'src/mcp/sdk/sdk-shims.ts');
  const out = join(dir, 'sdk-alone.js');
  await esbuild.build({
    ...NODE_BUNDLE,
    absWorkingDir: REPO,
    stdin: {
      contents: "export * from '@modelcontextprotocol/client'; export * from '@modelcontextprotocol/client/stdio'; export * as server from '@modelcontextprotocol/server'; export * as node from '@modelcontextprotocol/node';",
      resolveDir: REPO,
      loader: 'ts',
    },
    outfile: out,
    alias: { '@modelcontextprotocol/client/_shims': shims, '@modelcontextprotocol/server/_shims': shims },
  });
  return out;
}

/**
 * Milliseconds from the first require to the last's return, in a fresh Node process. Node's
 * fetch is loaded first, as it is in an extension host (VS Code reads globalThis.fetch when
 * the host starts, to patch in its proxy support): the SDK's server side touches it at load,
 * which in a bare process would load Node's fetch, some 40 ms VS Code has already paid.
 */
function timeRequires(files: readonly string[], serverFrom?: string): number {
  // Ours also runs the SDK's server half, bundled in mcp-sdk.js but run only when the gateway's first request loads it.
  const server = serverFrom ? `require(${JSON.stringify(serverFrom)}).loadServer();` : '';
  const script = `(async () => { void globalThis.fetch; const t0 = performance.now(); for (const f of ${JSON.stringify(files)}) require(f); ${server} process.stdout.write(String(performance.now() - t0)); })();`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`requiring ${files.join(', ')} failed: ${child.stderr}`);
  return Number(child.stdout);
}

/** Packages a copy of the package's files with `dist` as its dist/, as vsce does for a release. */
function vsixBytes(dist: string, work: string): number {
  const stage = join(work, 'package');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md', 'elicitation-host.d.ts', '.vscodeignore']) cpSync(join(REPO, file), join(stage, file));
  for (const folder of ['media', 'docs/images']) cpSync(join(REPO, folder), join(stage, folder), { recursive: true });
  cpSync(dist, join(stage, 'dist'), { recursive: true });
  // The copy is built already: no prepublish build, and no node_modules to list.
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  delete manifest.scripts;
  writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2));
  const out = join(work, 'layout.vsix');
  const vsce = spawnSync(join(REPO, 'node_modules/.bin/vsce'), ['package', '--no-dependencies', '-o', out], { cwd: stage, encoding: 'utf8' });
  if (vsce.status !== 0) throw new Error(`vsce package failed: ${vsce.stdout}${vsce.stderr}`);
  return statSync(out).size;
}

const SHIPPED = ['extension.js', 'extension-main.js', 'mcp-sdk.js', 'gateway.js', 'acp-sdk.js', 're2.js'];

function sizes(dir: string): Record<string, number> {
  return Object.fromEntries(SHIPPED.map((file) => [file, statSync(join(dir, file)).size]));
}

export async function benchBundles(): Promise<BundleFigures> {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--production'], { stdio: 'inherit', cwd: REPO });
  if (build.status !== 0) throw new Error('the production build failed');
  const work = mkdtempSync(join(tmpdir(), 'eh-bench-bundles-'));
  try {
    const ours = join(REPO, 'dist');
    const previous = join(work, 'previous-dist');
    cpSync(ours, previous, { recursive: true });
    await buildPrevious(previous);
    const floor = await buildFloor(work);

    const firstUse = { ours: [] as number[], previous: [] as number[], floor: [] as number[] };
    const gatewayStart = { ours: [] as number[], previous: [] as number[] };
    const serverStart = { ours: [] as number[], previous: [] as number[] };
    for (let i = 0; i < ROUNDS; i++) {
      firstUse.ours.push(timeRequires([join(ours, 'gateway.js'), join(ours, 'mcp-sdk.js')], join(ours, 'mcp-sdk.js')));
      firstUse.previous.push(timeRequires([join(previous, 'gateway.js'), join(previous, 'mcp-sdk.js')]));
      firstUse.floor.push(timeRequires([floor]));
      gatewayStart.ours.push(timeRequires([join(ours, 'gateway.js')]));
      gatewayStart.previous.push(timeRequires([join(previous, 'gateway.js')]));
      serverStart.ours.push(timeRequires([join(ours, 'mcp-sdk.js')]));
      serverStart.previous.push(timeRequires([join(previous, 'mcp-sdk.js')]));
    }
    const medians = <K extends string>(samples: Record<K, number[]>): Record<K, number> =>
      Object.fromEntries(Object.entries<number[]>(samples).map(([k, v]) => [k, round(median(v), 1)])) as Record<K, number>;
    return {
      rounds: ROUNDS,
      sizes: { ours: sizes(ours), previous: sizes(previous) },
      vsixBytes: { ours: vsixBytes(ours, join(work, 'ours')), previous: vsixBytes(previous, join(work, 'previous')) },
      gatewayFirstUseMs: medians(firstUse),
      gatewayStartMs: medians(gatewayStart),
      serverStartMs: medians(serverStart),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
