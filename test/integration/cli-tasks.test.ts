/**
 * The runner with tools that run as tasks (MCP Tasks): `call` prints each status change
 * and the task's question, answers it from the answers file, and prints the result; with
 * --json the task's states are lines of their own.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVERYTHING_ENTRY, everythingDefinition } from '../support/everything';
import { type Finished, runCli } from '../support/cli-run';
import { requireFixtures } from '../support/servers';

const dir = mkdtempSync(join(tmpdir(), 'eh-cli-tasks-'));

function run(args: string[]): Promise<Finished> {
  requireFixtures();
  everythingDefinition();
  return runCli(args);
}

const EVERYTHING = ['--', process.execPath, EVERYTHING_ENTRY, 'stdio'];

describe('runner: tools that run as tasks', function () {
  this.timeout(60_000);

  it('call prints the task\'s states and its question, answers it from the file, and prints the report', async () => {
    const file = join(dir, 'clarify.json');
    writeFileSync(file, JSON.stringify([{ action: 'accept', content: { interpretation: 'programming' } }]));
    const { code, stdout } = await run(['call', '--answers', file, '--args', JSON.stringify({ topic: 'python', ambiguous: true }), 'simulate-research-query', ...EVERYTHING]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /… task \S+ of Simulate Research Query: working: Gathering sources\.\.\./);
    assert.match(stdout, /… task \S+ of Simulate Research Query: input_required: Found multiple interpretations for "python"/);
    assert.match(stdout, /\? index\.js · Simulate Research Query \(background task\): The research query "python" could have multiple interpretations/);
    assert.match(stdout, /… task \S+ of Simulate Research Query: completed/);
    assert.match(stdout, /✓ simulate-research-query: # Research Report: python \(programming\)/);
  });

  it('--json: the task\'s states are lines of type "task", the question is marked as a background task\'s', async () => {
    const file = join(dir, 'decline.json');
    writeFileSync(file, JSON.stringify([{ action: 'decline' }]));
    const { code, stdout } = await run(['call', '--json', '--answers', file, '--args', JSON.stringify({ topic: 'python', ambiguous: true }), 'simulate-research-query', ...EVERYTHING]);
    assert.equal(code, 0, stdout);
    const lines = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const tasks = lines.filter((l) => l.type === 'task');
    assert.deepEqual(tasks.map((t) => t.status).filter((s, i, all) => i === 0 || all[i - 1] !== s), ['working', 'input_required', 'working', 'completed']);
    assert.deepEqual(Object.keys(tasks[0]).sort(), ['generation', 'pollIntervalMs', 'status', 'statusMessage', 'taskId', 'tool', 'ttlMs', 'type']);
    assert.equal(tasks[0].generation, '2025-11-25');
    const question = lines.find((l) => l.type === 'elicitation');
    assert.equal(question?.background, true);
    assert.equal(lines.find((l) => l.type === 'answer')?.action, 'decline');
    assert.match(String((lines.at(-1)?.result as { content: Array<{ text: string }> }).content[0].text), /User declined - using default interpretation/);
  });
});
