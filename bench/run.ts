/**
 * `npm run bench`: every performance goal measured against a baseline in the same run.
 * Figures go to bench/results/latest.json and a table on stdout.
 *
 *   npm run bench [-- middle|gateway|visible|forms ...]   (default: all)
 *
 * A figure that is wrong rather than slow (the gateway's concurrency check) fails the run:
 * the table is still written, and the exit code is 1.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { benchGatewayConcurrency, benchGatewayLatency } from './gateway';
import { benchMiddle } from './middle';

const REPO = resolve(__dirname, '..');
const BENCHES = ['middle', 'gateway', 'visible', 'forms'];

interface Row {
  readonly measure: string;
  readonly ours: string;
  readonly baseline: string;
  /** A number, or a word for a figure that has no baseline (a correctness check). */
  readonly ratio: number | string;
  readonly target: string;
}

async function main(): Promise<void> {
  const wanted = new Set(process.argv.slice(2));
  const unknown = [...wanted].filter((name) => !BENCHES.includes(name));
  if (unknown.length) throw new Error(`no bench named ${unknown.join(', ')}; there are ${BENCHES.join(', ')}`);
  const all = wanted.size === 0;
  const workbench = all || wanted.has('visible') || wanted.has('forms');
  // The workbench figures use the packaged extension, as a user installs it; the others need only the fixture servers.
  const build = workbench
    ? spawnSync('npm', ['run', '--silent', 'package'], { stdio: 'inherit', cwd: REPO })
    : spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit', cwd: REPO });
  if (build.status !== 0) throw new Error('the build failed');
  const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };
  const rows: Row[] = [];
  const failures: string[] = [];

  if (all || wanted.has('middle')) {
    process.stdout.write('middle: 1,000 book_restaurant elicitations, ours vs a bare SDK client, stdio…\n');
    const middle = await benchMiddle();
    results.middle = middle;
    rows.push({
      measure: `middle, median round trip (${middle.elicitations} elicitations)`,
      ours: `${middle.oursMedianMs} ms`,
      baseline: `${middle.bareMedianMs} ms (bare SDK client)`,
      ratio: middle.ratio,
      target: '< 1.1',
    });
  }
  if (all || wanted.has('gateway')) {
    process.stdout.write('gateway: 1,000 tool calls through the gateway vs a bare SDK proxy, interleaved…\n');
    const latency = await benchGatewayLatency();
    process.stdout.write('gateway: 5 agents × 20 concurrent calls, each answered by a scripted person…\n');
    const shipped = await benchGatewayConcurrency();
    process.stdout.write('gateway: the same, the broker limit of open questions per server raised to 100 (routing alone)…\n');
    const routing = await benchGatewayConcurrency(5, 20, 100);
    results.gateway = { latency, concurrency: shipped, concurrencyLimitRaised: routing };
    rows.push({
      measure: `gateway, median tool call (${latency.calls} calls; block ratios ${latency.blockRatios.min}-${latency.blockRatios.max})`,
      ours: `${latency.oursMedianMs} ms`,
      baseline: `${latency.bareMedianMs} ms (bare SDK proxy)`,
      ratio: latency.ratio,
      target: '<= 1.15',
    });
    for (const [label, c] of [['broker as shipped', shipped], ['open-question limit 100', routing]] as const) {
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
  if (workbench) {
    const { benchWorkbench } = await import('./workbench');
    const figures = await benchWorkbench({ visible: all || wanted.has('visible'), forms: all || wanted.has('forms') });
    Object.assign(results, figures.results);
    rows.push(...figures.rows);
  }

  mkdirSync(join(REPO, 'bench/results'), { recursive: true });
  writeFileSync(join(REPO, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const header = ['measure', 'ours', 'baseline', 'ratio', 'target'];
  const table = [header, ...rows.map((r) => [r.measure, r.ours, r.baseline, String(r.ratio), r.target])];
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
