// `npm test`: lint, type checks, unit, integration and end-to-end tests, in that order,
// each stage's own output streamed, then one summary ending in "N passed, N failed".
// Every stage runs even when an earlier one failed, so one run shows everything broken.
import { spawn } from 'node:child_process';

const stages = [
  { name: 'lint', command: 'npx', args: ['eslint', '.'] },
  { name: 'check-types', command: 'npm', args: ['run', '--silent', 'check-types'] },
  { name: 'unit', command: 'npm', args: ['run', '--silent', 'test:unit'], mocha: true },
  { name: 'integration', command: 'npm', args: ['run', '--silent', 'test:integration'], mocha: true },
  // The end-to-end tests run against the newest VS Code; CI also runs them against the
  // oldest one engines.vscode allows.
  ...(process.env.CI ? ['newest', 'minimum'] : ['newest']).map((version) => ({
    name: `e2e ${version}`,
    command: 'npm',
    args: ['run', '--silent', 'test:e2e'],
    env: { VSCODE_VERSION: version },
    mocha: true,
  })),
];

function run(stage) {
  return new Promise((resolve) => {
    const started = Date.now();
    let output = '';
    const child = spawn(stage.command, stage.args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0', ...stage.env } });
    const forward = (stream) => (chunk) => {
      output += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', forward(process.stdout));
    child.stderr.on('data', forward(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output, seconds: (Date.now() - started) / 1000 }));
  });
}

/** Mocha's own summary lines, e.g. "  159 passing (2s)", "  1 failing", "  2 pending". */
function mochaCounts(output) {
  const count = (word) => [...output.matchAll(new RegExp(`^\\s+(\\d+) ${word}`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
  return { passed: count('passing'), failed: count('failing'), pending: count('pending') };
}

const rows = [];
let passed = 0;
let failed = 0;
for (const stage of stages) {
  console.log(`\n=== ${stage.name} ===`);
  const { code, output, seconds } = await run(stage);
  if (stage.mocha) {
    const counts = mochaCounts(output);
    // A pending test is a skipped one: it fails the run instead of hiding.
    const stageFailed = counts.failed + counts.pending + (code !== 0 && counts.failed === 0 ? 1 : 0);
    passed += counts.passed;
    failed += stageFailed;
    rows.push([stage.name, `${counts.passed} passing, ${counts.failed} failing${counts.pending ? `, ${counts.pending} pending (not allowed)` : ''}${code !== 0 && counts.failed === 0 ? `, exit code ${code}` : ''}`, seconds]);
  } else {
    if (code === 0) passed += 1;
    else failed += 1;
    rows.push([stage.name, code === 0 ? 'ok' : `failed (exit code ${code})`, seconds]);
  }
}

console.log('\n=== summary ===');
for (const [name, result, seconds] of rows) console.log(`  ${name.padEnd(12)} ${result.padEnd(44)} ${seconds.toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
