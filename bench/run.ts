/**
 * `npm run bench`: every performance goal measured against a baseline in the same run.
 * Figures go to bench/results/latest.json and a table on stdout.
 *
 *   npm run bench [-- schema|bundles|middle|gateway|memory|activation|visible|forms|spans|first-call|agents|ahp|session ...]   (default: all)
 *
 * A figure that is wrong rather than slow (the gateway's concurrency check) fails the run:
 * the table is still written, and the exit code is 1.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { benchBundles } from './bundles';
import { benchGatewayConcurrency, benchGatewayLatency } from './gateway';
import { benchMemory } from './memory';
import { benchMiddle } from './middle';
import { benchSchema } from './schema';
import type { Row } from './row';
import { round } from './stats';

const REPO = resolve(__dirname, '..');
// `first-call` is part of `spans` (VS Code's agent's first call in a new window); named alone, it runs without the rest.
const BENCHES = ['schema', 'bundles', 'middle', 'gateway', 'memory', 'activation', 'visible', 'forms', 'spans', 'first-call', 'agents', 'ahp', 'session'];


async function main(): Promise<void> {
  const wanted = new Set(process.argv.slice(2));
  const unknown = [...wanted].filter((name) => !BENCHES.includes(name));
  if (unknown.length) throw new Error(`no bench named ${unknown.join(', ')}; there are ${BENCHES.join(', ')}`);
  const all = wanted.size === 0;
  /** Any of these benches is to run (all of them, without names). */
  const wants = (...names: string[]): boolean => all || names.some((name) => wanted.has(name));
  const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };
  const rows: Row[] = [];
  const failures: string[] = [];

  // First, before the build below loads the machine: it runs in this process, from source.
  if (wants('schema')) {
    process.stdout.write('schema: the worst schema the limits accept, parsed cold; the schema of issue 10, refused…\n');
    const schema = await benchSchema();
    results.schema = schema;
    rows.push({
      measure: `schema, parse of the worst accepted schema (${schema.worstChars.toLocaleString('en-US')} chars, 100 fields, median)`,
      ours: `${schema.worstParseMs} ms`,
      baseline: `${schema.worstJsonParseMs} ms (JSON.parse of its text)`,
      ratio: round(schema.worstParseMs / schema.worstJsonParseMs, 2),
      target: '< 5 ms',
    });
    for (const h of schema.hostile) {
      rows.push({
        measure: `schema, issue 10's hostile schema with ${h.fields} fields refused (first / again from the cache)`,
        ours: `${h.firstRefusalMs} / ${h.cachedRefusalMs} ms`,
        baseline: `${h.jsonParseMs} ms (JSON.parse of its text)`,
        ratio: round(h.firstRefusalMs / h.jsonParseMs, 2),
        target: '< 5 ms (was 1,600 ms)',
      });
    }
  }
  // Its own production build, before the build below replaces dist/.
  if (wants('bundles')) {
    process.stdout.write('bundles: the production bundles and .vsix, ours and the layout before the SDK was shared; loading them in fresh processes…\n');
    const b = await benchBundles();
    results.bundles = b;
    const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;
    const both = (layout: 'ours' | 'previous'): number => b.sizes[layout]['gateway.js'] + b.sizes[layout]['mcp-sdk.js'];
    rows.push(
      { measure: 'bundles, the .vsix', ours: kb(b.vsixBytes.ours), baseline: `${kb(b.vsixBytes.previous)} (previous layout)`, ratio: round(b.vsixBytes.ours / b.vsixBytes.previous, 3), target: '< 1' },
      {
        measure: `bundles, what an agent's first call loads: gateway.js + mcp-sdk.js (acp-sdk.js ${kb(b.sizes.ours['acp-sdk.js'])}, extension.js ${kb(b.sizes.ours['extension.js'])} + extension-main.js ${kb(b.sizes.ours['extension-main.js'])})`,
        ours: `${kb(b.sizes.ours['gateway.js'])} + ${kb(b.sizes.ours['mcp-sdk.js'])}`,
        baseline: `${kb(b.sizes.previous['gateway.js'])} + ${kb(b.sizes.previous['mcp-sdk.js'])} (previous layout)`,
        ratio: round(both('ours') / both('previous'), 3),
        target: '< 1',
      },
      { measure: `bundles, loading the SDK for an agent's first call through the gateway (gateway.js, then mcp-sdk.js; fresh process, median of ${b.rounds})`, ours: `${b.gatewayFirstUseMs.ours} ms`, baseline: `${b.gatewayFirstUseMs.previous} ms (previous layout)`, ratio: round(b.gatewayFirstUseMs.ours / b.gatewayFirstUseMs.previous, 2), target: '< 1' },
      { measure: 'bundles, the same against the SDK alone (client and server packages in one bundle: the floor)', ours: `${b.gatewayFirstUseMs.ours} ms`, baseline: `${b.gatewayFirstUseMs.floor} ms (the SDK alone)`, ratio: round(b.gatewayFirstUseMs.ours / b.gatewayFirstUseMs.floor, 2), target: '(the floor)' },
      { measure: 'bundles, the gateway starting (gateway.js alone, right after activation)', ours: `${b.gatewayStartMs.ours} ms`, baseline: `${b.gatewayStartMs.previous} ms (previous layout)`, ratio: round(b.gatewayStartMs.ours / b.gatewayStartMs.previous, 2), target: '< 1' },
      { measure: 'bundles, the first server starting without the gateway (mcp-sdk.js alone)', ours: `${b.serverStartMs.ours} ms`, baseline: `${b.serverStartMs.previous} ms (previous layout)`, ratio: round(b.serverStartMs.ours / b.serverStartMs.previous, 2), target: '(the cost of sharing)' },
    );
  }
  if (!wants(...BENCHES.filter((name) => name !== 'schema' && name !== 'bundles'))) return report(results, rows, failures);

  // The workbench figures use the packaged extension, as a user installs it, in its benchmark
  // variant (scripts/build.mjs: the hooks of bench/extension-hooks.ts compiled in; it replaces
  // dist-vsix/elicitation-host.vsix, `npm run test:e2e` packages anew). The others need only
  // the fixture servers.
  const workbench = wants('activation', 'visible', 'forms', 'spans', 'first-call', 'agents', 'ahp', 'session');
  const build = workbench
    ? spawnSync('npm', ['run', '--silent', 'package'], { stdio: 'inherit', cwd: REPO, env: { ...process.env, ELICITATION_HOST_BENCHMARK: '1' } })
    : spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit', cwd: REPO });
  if (build.status !== 0) throw new Error('the build failed');

  if (wants('middle')) {
    process.stdout.write('middle: 1,000 book_restaurant elicitations, ours vs a bare SDK client, stdio…\n');
    const middle = await benchMiddle();
    results.middle = middle;
    rows.push({
      measure: `middle, median round trip (${middle.elicitations} elicitations, 5 interleaved blocks; block ratios ${middle.blockRatios.min}-${middle.blockRatios.max}, median ${middle.blockRatios.median})`,
      ours: `${middle.oursMedianMs} ms`,
      baseline: `${middle.bareMedianMs} ms (bare SDK client)`,
      ratio: middle.ratio,
      target: '<= 1.05',
    });
  }
  if (wants('gateway')) {
    process.stdout.write('gateway: 1,000 tool calls through the gateway vs a bare SDK proxy, interleaved…\n');
    const latency = await benchGatewayLatency();
    process.stdout.write('gateway: 5 agents × 20 concurrent calls, each answered by a scripted person…\n');
    const shipped = await benchGatewayConcurrency();
    results.gateway = { latency, concurrency: shipped };
    rows.push({
      measure: `gateway, median tool call (${latency.calls} calls; block ratios ${latency.blockRatios.min}-${latency.blockRatios.max})`,
      ours: `${latency.oursMedianMs} ms`,
      baseline: `${latency.bareMedianMs} ms (bare SDK proxy)`,
      ratio: latency.ratio,
      target: '<= 1.05',
    });
    for (const [label, c] of [['broker as shipped', shipped]] as const) {
      const calls = c.agents * c.callsPerAgent;
      const ok = c.answered === calls && c.lost === 0 && c.wrong === 0 && c.duplicates === 0;
      rows.push({
        measure: `gateway, ${c.agents} agents x ${c.callsPerAgent} concurrent questions, ${label} (${c.wallMs} ms)`,
        ours: `${c.answered}/${calls} right, ${c.lost} lost, ${c.wrong} wrong`,
        baseline: '-',
        ratio: ok ? 'ok' : 'FAILED',
        target: '0 lost, 0 wrong',
      });
      if (!ok) failures.push(`gateway concurrency (${label}): ${c.lost} lost, ${c.wrong} wrong, ${c.duplicates} asked twice: ${c.failures.join('; ')}`);
    }
  }
  if (wants('memory')) {
    process.stdout.write('memory: the heap after 10 and after 1,010 elicitations, and gateway calls, garbage collected…\n');
    const memory = benchMemory();
    results.memory = memory;
    for (const [label, f] of [['1,000 elicitations answered', memory.elicitations], ['1,000 tool calls through the gateway', memory.gatewayCalls]] as const) {
      rows.push({ measure: `memory, heap growth over ${label} (after GC)`, ours: `${f.growthMb} MB`, baseline: `${f.beforeMb} MB after the first 10`, ratio: round(f.afterMb / f.beforeMb, 2), target: '< 5 MB growth' });
      if (f.growthMb >= 5) failures.push(`memory: the heap grew ${f.growthMb} MB over ${label}`);
    }
  }
  if (wants('activation')) {
    process.stdout.write('activation: ours vs an empty extension, both from a .vsix, 10 window loads…\n');
    const { benchActivation } = await import('./activation');
    const activation = await benchActivation();
    results.activation = activation;
    rows.push({
      measure: `activation, VS Code's own time (code loading + activate call, median of ${activation.loads} window loads)`,
      ours: `${activation.oursMedianMs} ms`,
      baseline: `${activation.emptyMedianMs} ms (an empty extension)`,
      ratio: activation.ratio,
      target: '<= 1.5',
    });
    const parts = activation.breakdownMedianMs;
    rows.push({
      measure: `activation, ours in parts (benchmark build's stamps, medians): dist/extension.js's top-level code; the activate call to its first wait, the stand-ins registered (the rest of VS Code's figure: reading and compiling the bundle, VS Code's bookkeeping)`,
      ours: `${parts.moduleMs} ms; ${parts.activateCallMs} ms`,
      baseline: '-',
      ratio: '-',
      target: '(the parts)',
    });
    rows.push({
      measure: `activation, what follows the activate call (not in VS Code's figure): the wait for the next turn; loading dist/extension-main.js (its top-level code alone); the extension proper's activation to its first wait`,
      ours: `${parts.afterActivateMs} ms; ${parts.mainLoadMs} ms (${parts.mainModuleMs} ms); ${parts.mainActivateMs} ms`,
      baseline: '-',
      ratio: '-',
      target: '(the parts)',
    });
    // The workbench benches close the shared browser when they end; alone, this one does.
    if (!wants('visible', 'forms', 'spans', 'first-call', 'agents', 'ahp', 'session')) await (await import('../test/e2e/context')).closeBrowser();
  }
  if (wants('visible', 'forms', 'spans', 'first-call', 'agents', 'ahp', 'session')) {
    const { benchWorkbench } = await import('./workbench');
    const figures = await benchWorkbench({ visible: wants('visible'), forms: wants('forms'), spans: wants('spans'), firstCall: wants('spans', 'first-call'), agents: wants('agents'), ahp: wants('ahp'), session: wants('session') });
    Object.assign(results, figures.results);
    rows.push(...figures.rows);
  }
  report(results, rows, failures);
}

/**
 * A run of some benches keeps the other figures of the file: each bench's figures say when
 * they were measured (`measuredAt`), so a figure and its baseline always come from one run.
 */
function report(results: Record<string, unknown>, rows: readonly Row[], failures: readonly string[]): void {
  mkdirSync(join(REPO, 'bench/results'), { recursive: true });
  const file = join(REPO, 'bench/results/latest.json');
  const earlier = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const measuredAt = { ...(earlier.measuredAt as Record<string, string> | undefined) };
  for (const key of Object.keys(results)) if (key !== 'at' && key !== 'node') measuredAt[key] = String(results.at);
  writeFileSync(file, `${JSON.stringify({ ...earlier, ...results, measuredAt }, null, 2)}\n`);
  const header = ['measure', 'ours', 'baseline', 'ratio', 'target'];
  // A median of pairs' ratios carries its 95% interval: a goal met or missed by less than the run's spread says so.
  const ratioCell = (r: Row): string => (r.interval ? `${r.ratio} [${r.interval.low}-${r.interval.high}]` : String(r.ratio));
  const table = [header, ...rows.map((r) => [r.measure, r.ours, r.baseline, ratioCell(r), r.target])];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  process.stdout.write('\n');
  for (const row of table) process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i])).join('  ')}\n`);
  process.stdout.write('\nwritten to bench/results/latest.json\n');
  if (failures.length) {
    for (const failure of failures) process.stderr.write(`bench failed: ${failure}\n`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
