/**
 * `npm run bench`: every performance goal measured against a baseline in the same run.
 * Figures go to bench/results/latest.json and a table on stdout.
 *
 *   npm run bench [-- middle|visible|forms|schema ...]   (default: all)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { benchMiddle } from './middle';
import { benchSchema } from './schema';
import { round } from './stats';

const REPO = resolve(__dirname, '..');

interface Row {
  readonly measure: string;
  readonly ours: string;
  readonly baseline: string;
  readonly ratio: number;
  readonly target: string;
}

async function main(): Promise<void> {
  const wanted = new Set(process.argv.slice(2));
  const all = wanted.size === 0;
  const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };
  const rows: Row[] = [];

  // First, before the build below loads the machine: it runs in this process, from source.
  if (all || wanted.has('schema')) {
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
  if (!all && !['middle', 'visible', 'forms'].some((m) => wanted.has(m))) return report(results, rows);

  // The workbench figures use the packaged extension, as a user installs it,
  // in its benchmark variant (scripts/build.mjs: the hooks of bench/extension-hooks.ts compiled
  // in). It replaces dist-vsix/elicitation-host.vsix: `npm run test:e2e` packages anew.
  const build = spawnSync('npm', ['run', '--silent', 'package'], { stdio: 'inherit', cwd: REPO, env: { ...process.env, ELICITATION_HOST_BENCHMARK: '1' } });
  if (build.status !== 0) throw new Error('the build failed');

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
  if (all || wanted.has('visible') || wanted.has('forms')) {
    const { benchWorkbench } = await import('./workbench');
    const figures = await benchWorkbench({ visible: all || wanted.has('visible'), forms: all || wanted.has('forms') });
    Object.assign(results, figures.results);
    rows.push(...figures.rows);
  }
  report(results, rows);
}

function report(results: Record<string, unknown>, rows: readonly Row[]): void {
  mkdirSync(join(REPO, 'bench/results'), { recursive: true });
  writeFileSync(join(REPO, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const header = ['measure', 'ours', 'baseline', 'ratio', 'target'];
  const table = [header, ...rows.map((r) => [r.measure, r.ours, r.baseline, String(r.ratio), r.target])];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  process.stdout.write('\n');
  for (const row of table) process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i])).join('  ')}\n`);
  process.stdout.write('\nwritten to bench/results/latest.json\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
