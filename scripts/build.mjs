// Builds the bundles with esbuild: the extension host (Node, CommonJS, `vscode` external),
// the webview page (browser) and the command-line runner.
//   node scripts/build.mjs [--production] [--watch] [--benchmark]
// --benchmark (or ELICITATION_HOST_BENCHMARK=1, which reaches the build `vsce package`
// runs) makes the variant `npm run bench` installs: the extension proper entered through
// bench/extension-main.ts, which puts in the benchmark hooks, and activation's stamps
// (BENCHMARK true). Every other build enters at src/extension-main.ts, which imports no bench.
import * as esbuild from 'esbuild';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const analyze = process.argv.includes('--analyze');
const watch = process.argv.includes('--watch');
const benchmark = process.argv.includes('--benchmark') || process.env.ELICITATION_HOST_BENCHMARK === '1';
/** What every bundle is given (src/build-flags.d.ts): the version is package.json's, written nowhere else. */
const defines = { PACKAGE_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) };

/**
 * Size budgets for minified production bundles, in bytes (dist/extension.js is the activate
 * call's stand-ins only: VS Code loads it, and the activation time counts it; the extension
 * proper, dist/extension-main.js, loads just after; dist/mcp-sdk.js, dist/acp-sdk.js and
 * dist/re2.js have none: they load when a server, the gateway's first request or an agent
 * starts, or on the first pattern; dist/ahp.js, the agent host client, loads when the first
 * agent host connects, and has one so that it stays the client alone). dist/gateway.js has one so that it never carries a second
 * copy of the SDK again: it takes the SDK from dist/mcp-sdk.js (src/mcp/sdk/server-sdk.ts).
 */
export const BUDGETS = { 'dist/extension.js': 10_000, 'dist/extension-main.js': 400_000, 'dist/webview/main.js': 150_000, 'dist/webview/checks.js': 180_000, 'dist/webview/session.js': 60_000, 'dist/gateway.js': 150_000, 'dist/mcp-sdk.js': Infinity, 'dist/acp-sdk.js': Infinity, 'dist/ahp.js': 150_000, 'dist/re2.js': Infinity };

/** In the extension bundle, the SDK module stays a separate file loaded on first use. */
const lazySdk = {
  name: 'lazy-sdk',
  setup(build) {
    build.onResolve({ filter: /^\.\/sdk$/ }, (args) =>
      args.importer.endsWith('sdk-loader.ts') ? { path: './mcp-sdk.js', external: true } : undefined,
    );
    // The ACP SDK loads when the first agent starts (src/acp/acp-sdk-loader.ts).
    build.onResolve({ filter: /^\.\/acp-sdk$/ }, (args) =>
      args.importer.endsWith('acp-sdk-loader.ts') ? { path: './acp-sdk.js', external: true } : undefined,
    );
    // The extension proper loads just after the activate call (src/extension.ts).
    build.onResolve({ filter: /^\.\/extension-main$/ }, (args) =>
      args.importer.endsWith('extension.ts') ? { path: './extension-main.js', external: true } : undefined,
    );
    // The gateway (and the MCP server SDK it carries) likewise loads when it starts.
    build.onResolve({ filter: /^\.\/gateway-bundle$/ }, (args) =>
      args.importer.endsWith('gateway-loader.ts') ? { path: './gateway.js', external: true } : undefined,
    );
    // The agent host client (and the ws package) loads when the first agent host connects (src/ui/agent-hosts/ahp-loader.ts).
    build.onResolve({ filter: /^\.\/ahp-bundle$/ }, (args) =>
      args.importer.endsWith('ahp-loader.ts') ? { path: './ahp.js', external: true } : undefined,
    );
  },
};

/**
 * re2js (as large as the rest of the extension) is its own file, dist/re2.js, loaded on the
 * first pattern; the extension and the SDK bundle share it.
 */
const sharedRe2 = {
  name: 'shared-re2',
  setup(build) {
    build.onResolve({ filter: /^\.\/re2-engine$/ }, (args) => (args.importer.endsWith('pattern.ts') ? { path: './re2.js', external: true } : undefined));
  },
};

/**
 * `import * as vscode from 'vscode'` becomes `__toESM(require("vscode"))` in every module that
 * has it: each copies the API's few hundred names onto a new object, two dozen times, which was
 * most of the bundle's start-up (the activation bench's breakdown). The code only reads
 * `vscode.name` (no default import: lint holds that), so the API object itself serves; the
 * call is blanked to spaces, keeping every column (and the source map) where it was.
 */
const plainVscodeRequire = {
  name: 'plain-vscode-require',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0) return;
      const file = build.initialOptions.outfile;
      const text = readFileSync(file, 'utf8');
      const helpers = new Set();
      const plain = text.replace(/([\w$]+)\(require\("vscode"\)\)/g, (_all, helper) => {
        helpers.add(helper);
        return `${' '.repeat(helper.length)}(require("vscode"))`;
      });
      // Only the one helper, and only if it is esbuild's __toESM (its body starts the same, minified or not).
      const [helper] = helpers;
      if (helpers.size !== 1 || !new RegExp(`(var|,)\\s*${helper.replace(/\$/g, '\\$')}\\s*=\\s*\\(mod, isNodeMode, target\\)|${helper.replace(/\$/g, '\\$')}=\\((\\w),(\\w),(\\w)\\)=>\\(\\4=\\2!=null`).test(text)) {
        throw new Error(`${file}: expected one __toESM helper around require("vscode"), found ${[...helpers].join(', ') || 'none'}`);
      }
      writeFileSync(file, plain);
    });
  },
};

/** The page's pattern and formats modules are the deferred ones: re2js and ajv-formats come in their own bundle (webview/checks-deferred.ts). */
const deferredChecks = {
  name: 'deferred-checks',
  setup(build) {
    build.onResolve({ filter: /^\.\/(pattern|formats)$/ }, (args) =>
      args.importer.endsWith('validation.ts') ? { path: new URL('../webview/checks-deferred.ts', import.meta.url).pathname } : undefined,
    );
  },
};

const common = {
  bundle: true,
  // One ajv, ours, instead of the SDK's client and server each inlining another copy (see src/mcp/sdk/sdk-shims.ts).
  alias: { '@modelcontextprotocol/client/_shims': './src/mcp/sdk/sdk-shims.ts', '@modelcontextprotocol/server/_shims': './src/mcp/sdk/sdk-shims.ts' },
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
  define: defines,
};

/** A Node bundle loaded by require() (the extension host, the runner): CommonJS, ESM sources preferred. */
const nodeCjs = {
  ...common,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // ESM builds first: jsonc-parser's UMD build requires its parts dynamically, which a bundle cannot follow.
  mainFields: ['module', 'main'],
};

const builds = [
  // The two halves of the extension: activation's stand-ins (what VS Code loads and times) and the extension proper.
  ...[
    ['src/extension.ts', 'dist/extension.js', 'Code'],
    [benchmark ? 'bench/extension-main.ts' : 'src/extension-main.ts', 'dist/extension-main.js', 'MainCode'],
  ].map(([entry, outfile, stamp]) => ({
    ...nodeCjs,
    entryPoints: [entry],
    outfile,
    external: ['vscode'],
    plugins: [lazySdk, sharedRe2, plainVscodeRequire],
    define: { ...defines, BENCHMARK: String(benchmark) },
    // The benchmark variant stamps when its top-level code starts and ends (bench/extension-hooks.ts: the activation breakdown).
    ...(benchmark && {
      banner: { js: `globalThis.__elicitationHost${stamp}Started = performance.now();` },
      footer: { js: `globalThis.__elicitationHost${stamp}Ended = performance.now();` },
    }),
  })),
  { ...nodeCjs, entryPoints: ['src/mcp/sdk/sdk.ts'], outfile: 'dist/mcp-sdk.js', conditions: ['require', 'node'], plugins: [sharedRe2] },
  { ...nodeCjs, entryPoints: ['src/acp/acp-sdk.ts'], outfile: 'dist/acp-sdk.js', conditions: ['require', 'node'] },
  { ...nodeCjs, entryPoints: ['src/ahp/bundle.ts'], outfile: 'dist/ahp.js', conditions: ['require', 'node'], plugins: [sharedRe2] },
  { ...nodeCjs, entryPoints: ['src/elicitation/re2-engine.ts'], outfile: 'dist/re2.js' },
  // The gateway's SDK is dist/mcp-sdk.js's (lazySdk maps the loader's './sdk' there too).
  { ...nodeCjs, entryPoints: ['src/gateway/bundle.ts'], outfile: 'dist/gateway.js', conditions: ['require', 'node'], plugins: [lazySdk, sharedRe2] },
  {
    ...nodeCjs,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    conditions: ['require', 'node'],
    // The runner ships in the .vsix beside the extension (src/ui/gateway/cli-on-path.ts): it takes
    // the SDKs, the gateway and re2js from the same files rather than carrying a copy of each.
    plugins: [lazySdk, sharedRe2],
  },
  {
    ...common,
    entryPoints: { main: 'webview/main.ts', styles: 'webview/styles.css' },
    outdir: 'dist/webview',
    platform: 'browser',
    // A classic script: inlined, it runs as soon as it is parsed (a module waits for the document).
    format: 'iife',
    target: 'es2022',
    plugins: [deferredChecks],
  },
  {
    // An agent's session page (src/ui/gateway/session-page.ts): loaded only when a session opens.
    ...common,
    entryPoints: { session: 'webview/session/main.ts', 'session-styles': 'webview/session/styles.css' },
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    ...common,
    entryPoints: { checks: 'webview/checks.ts' },
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  {
    // Test and demo MCP servers: not shipped (out/ is outside the package).
    ...common,
    minify: false,
    entryPoints: {
      stdio: 'test/fixtures/servers/stdio.ts',
      http: 'test/fixtures/servers/http.ts',
      protected: 'test/fixtures/servers/protected.ts',
      'raw-input-required': 'test/fixtures/servers/raw-input-required.ts',
      modern: 'test/fixtures/servers/modern.ts',
      'tasks-v2': 'test/fixtures/servers/tasks-v2.ts',
      'task-questions': 'test/fixtures/servers/task-questions.ts',
      'acp-agent': 'test/fixtures/acp/fixture-agent.ts',
      'acp-client': 'test/fixtures/acp/fixture-client.ts',
    },
    outdir: 'out/fixtures',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    conditions: ['require', 'node'],
  },
  {
    // The middle bench's two sides, bundled as the extension is (no tsx keepNames wrappers): bench/middle-sides.ts.
    ...nodeCjs,
    minify: false,
    entryPoints: { 'middle-sides': 'bench/middle-sides.ts' },
    outdir: 'out/bench',
    conditions: ['require', 'node'],
  },
  {
    // The extension-host test suite: loaded by VS Code from out/e2e-suite (web or desktop).
    ...common,
    minify: false,
    entryPoints: readdirSync('test/e2e/suite')
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `test/e2e/suite/${f}`),
    outdir: 'out/e2e-suite',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
  },
].filter((b) => b.entryPoints && (Array.isArray(b.entryPoints) ? b.entryPoints : Object.values(b.entryPoints)).every(exists));

function exists(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

// A production build starts from an empty dist/, so nothing stale (source maps of a
// development build) can end up in the package.
if (production) rmSync('dist', { recursive: true, force: true });

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
  console.log('[watch] building; waiting for changes');
} else {
  const results = await Promise.all(builds.map((options) => esbuild.build({ ...options, metafile: analyze })));
  if (analyze) for (const r of results) console.log(await esbuild.analyzeMetafile(r.metafile, { verbose: false }));
  if (production) {
    let over = false;
    for (const [file, budget] of Object.entries(BUDGETS)) {
      if (!exists(file)) continue;
      const size = statSync(file).size;
      over ||= size > budget;
      const limit = Number.isFinite(budget) ? `budget ${budget / 1000} kB` : 'loaded on first use';
      console.log(`${file}: ${(size / 1000).toFixed(1)} kB (${limit})${size > budget ? '  OVER BUDGET' : ''}`);
    }
    if (over) process.exit(1);
  }
}
