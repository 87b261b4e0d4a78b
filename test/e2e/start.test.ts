/**
 * `npm start`: scripts/start.ts run as package.json's start script runs it, with --no-open. The URL
 * it prints serves the workbench, which shows Agent Inputs with the demo servers running;
 * Ctrl-C ends it and every process it started.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workbench } from './harness/workbench';
import { closeBrowser, provisioned, REPO, RESULTS, sharedBrowser, versionName } from './context';
import { ChildOutput, describeProcesses, killProcesses, processTree, type ProcessRow, waitForExit, waitUntilGone } from './processes';

/**
 * package.json's start script, run as npm runs it but without npm around it (npm's own signal
 * handling is not ours to test: it ignores a SIGINT sent to it alone).
 */
function startCommand(): { command: string; args: string[] } {
  const script = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [command, ...args] = script.split(' ');
  if (command !== 'node') throw new Error(`this test runs the start script "${script}" with this Node: make it start with "node" or adapt the test`);
  return { command: process.execPath, args };
}
/** demo/.vscode/mcp.json's servers. */
const DEMO_SERVERS = ['restaurant', 'helpdesk', 'remote'];

/**
 * Runs `npm start`'s script, checks what it serves, then ends it with `interrupt` (given its
 * pid, which also leads its process group): it exits normally and leaves nothing behind.
 */
async function runAndInterrupt(interrupt: (pid: number) => void): Promise<void> {
  // Provisioned here first, so that a first run's long provisioning is not start.ts's to wait for.
  await provisioned();
  const { command, args } = startCommand();
  // A process group of its own, as a terminal gives a command.
  const start = spawn(command, [...args, '--no-open', ...(versionName() === 'minimum' ? ['--minimum'] : [])], { cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = new ChildOutput(start);
  let processes: ProcessRow[] = [];
  let workbench: Workbench | undefined;
  try {
    // The build, packaging for the minimum version, and the server's start.
    const [url] = await output.waitFor(/http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+/, 120_000, 'it printed the URL to open');
    const response = await fetch(url);
    assert.equal(response.status, 200, `GET ${url}`);
    const html = await response.text();
    assert.match(html, /<!DOCTYPE html>/i);
    assert.match(html, /workbench/, 'the page is the VS Code workbench');

    workbench = await Workbench.openUrl(await sharedBrowser(), url, join(RESULTS, versionName()));
    await workbench.openAgentInputs();
    const runningWithTools = (rows: string[], name: string): boolean => rows.some((r) => r.startsWith(name) && /\d+ tools/.test(r));
    await workbench.waitForViewRows(/Servers/i, (rows) => DEMO_SERVERS.some((name) => runningWithTools(rows, name)), 45_000);
    // The list is virtual: collapse the servers to bring them all into view.
    await workbench.page.locator('.pane-header', { hasText: /Servers/i }).hover();
    await workbench.page.locator('.pane-header .action-label[aria-label^="Collapse All"]').first().click();
    const rows = await workbench.waitForViewRows(/Servers/i, (r) => DEMO_SERVERS.every((name) => runningWithTools(r, name)), 45_000);
    await workbench.screenshot('npm-start');
    for (const name of DEMO_SERVERS) assert.ok(runningWithTools(rows, name), `the demo server ${name} runs and lists its tools: ${rows.join(' | ')}`);

    processes = processTree(start.pid!);
    for (const [what, pattern] of [
      ['the VS Code server', /server-main\.js/],
      ['the extension host', /--type=extensionHost/],
      ['the demo HTTP server', /fixtures\/http\.js/],
      ['the demo server restaurant', /stdio\.js --name restaurant/],
      ['the demo server helpdesk', /stdio\.js --name helpdesk/],
    ] as const) {
      assert.ok(processes.some((p) => pattern.test(p.args)), `${what} runs under npm start:\n${describeProcesses(processes)}`);
    }

    interrupt(start.pid!);
    const exit = await waitForExit(start, 30_000);
    assert.deepEqual(exit, { code: 0, signal: null }, `an interrupt is a normal end; output:\n${output.text.slice(-3000)}`);
    assert.match(output.text, /Stopping…/);
    const survivors = await waitUntilGone(processes, 10_000);
    assert.deepEqual(survivors.map((p) => p.args), [], `processes of npm start survived the interrupt:\n${describeProcesses(survivors)}`);
  } catch (error) {
    const shown = await workbench?.screenshot('FAILED-npm-start').catch(() => undefined);
    if (shown) process.stdout.write(`      screenshot: ${shown}\n`);
    throw error;
  } finally {
    await workbench?.close().catch(() => undefined);
    killProcesses(processes);
    try {
      process.kill(-start.pid!, 'SIGKILL');
    } catch {
      // It ended, as it should.
    }
  }
}

describe(`npm start (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);

  after(closeBrowser);

  it('serves VS Code with the extension and the demo servers; Ctrl-C in a terminal stops everything', async () => {
    // A terminal's Ctrl-C signals the whole foreground process group.
    await runAndInterrupt((pid) => process.kill(-pid, 'SIGINT'));
  });

  it('SIGINT to its process alone (kill -INT) stops everything too', async () => {
    // Nothing else hears it: start.ts has to end the demo HTTP server and the VS Code server itself.
    await runAndInterrupt((pid) => process.kill(pid, 'SIGINT'));
  });
});
