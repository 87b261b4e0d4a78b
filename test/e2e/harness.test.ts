/**
 * The harness itself: the cache is reused, a stopped server leaves no process behind, nor
 * does a test run ended by Ctrl-C or a crash, nor a failed start; a missing browser is a
 * failure that says what to do; and the packaged browser drives the workbench.
 */
import { strict as assert } from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium, launchChromium } from './harness/browser';
import { PACKAGE } from './harness/packaged-chromium';
import { cacheRoot, provisionVsCode } from './harness/provision';
import { groupMembers, startVsCodeServer } from './harness/server';
import { Workbench } from './harness/workbench';
import { closeBrowser, FIXTURES, provisioned, REPO, requireBuilt, RESULTS, sharedBrowser, versionName, WORKSPACE } from './context';
import { openToolList } from './ui-steps';
import { ChildOutput, describeProcesses, killProcesses, processTable, processTree, type ProcessRow, waitForExit, waitUntilGone } from './processes';

const HARNESS_RUN = join(REPO, 'test/e2e/harness-run.ts');

/** What a connected workbench makes the server start: the processes the cleanup has to find. */
function expectedServerProcesses(): Array<[string, RegExp]> {
  const both: Array<[string, RegExp]> = [
    ['extension host', /--type=extensionHost/],
    ['fixture server "fixture" (started by the extension)', /stdio\.js --name fixture/],
    ['fixture server "second"', /stdio\.js --name second/],
  ];
  // 1.139 also starts a file watcher, an agent host and, under that, the copilot runtime.
  return versionName() === 'newest' ? [...both, ['file watcher', /--type=fileWatcher/], ['agent host', /--type=agentHost/], ['copilot runtime', /copilot-runtime/]] : both;
}

/**
 * Runs harness-run.ts in a child process, connects a workbench to its server, waits until the
 * server's helpers run, then ends the child with `end`: the child exits as expected and every
 * process it started is gone.
 */
async function endTestRunInChild(options: { crash: boolean; end: (child: ChildProcess) => void; expectedExit: { code: number | null; signal: NodeJS.Signals | null } }): Promise<void> {
  requireBuilt(join(REPO, 'dist/extension.js'), join(FIXTURES, 'stdio.js'));
  const child = spawn(process.execPath, ['--import', 'tsx', HARNESS_RUN, ...(options.crash ? ['--crash'] : [])], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
  const output = new ChildOutput(child);
  const context = await (await sharedBrowser()).newContext();
  let seen: ProcessRow[] = [];
  try {
    const [line] = await output.waitFor(/^\{.*\}$/m, 120_000, 'its server was listening');
    const { pgid, workbenchUrl } = JSON.parse(line) as { pgid: number; workbenchUrl: string };
    const page = await context.newPage();
    await page.goto(workbenchUrl);
    await page.locator('.activitybar [aria-label^="Agent Inputs"]').first().waitFor({ timeout: 60_000 });
    let missing: string[] = [];
    for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 500))) {
      seen = processTree(child.pid!);
      missing = expectedServerProcesses().filter(([, args]) => !seen.some((p) => args.test(p.args))).map(([name]) => name);
      if (missing.length === 0 || Date.now() > deadline) break;
    }
    assert.deepEqual(missing, [], `the server runs all its helpers; the test run's processes:\n${describeProcesses(seen)}`);
    assert.ok(seen.some((p) => p.pid === pgid), 'the server is among them');

    options.end(child);
    const exit = await waitForExit(child, 30_000);
    assert.deepEqual(exit, options.expectedExit, `how the test run ended; its output:\n${output.text.slice(-3000)}`);
    const survivors = await waitUntilGone(seen, 10_000);
    assert.deepEqual(survivors.map((p) => p.args), [], `processes of the test run survived it:\n${describeProcesses(survivors)}`);
  } finally {
    await context.close();
    child.kill('SIGKILL');
    killProcesses(seen);
  }
}

/** Processes whose environment holds this entry (what the server passes on to all it starts). */
function processesWithEnvironment(entry: string): ProcessRow[] {
  if (!existsSync('/proc/self/environ')) throw new Error('this test reads process environments from /proc: run it on Linux');
  return processTable().filter((p) => {
    try {
      return `\0${readFileSync(`/proc/${p.pid}/environ`, 'latin1')}`.includes(`\0${entry}\0`) && !p.zombie;
    } catch {
      return false;
    }
  });
}

describe(`harness (VS Code ${versionName()})`, function () {
  this.timeout(10 * 60_000);

  after(closeBrowser);

  it('provisions once and reuses the cache', async () => {
    const first = await provisioned();
    const again = await provisionVsCode(versionName());
    assert.deepEqual(again, first);
    assert.ok(existsSync(join(first.root, '..', '..', '..', '..', '.provisioned')), 'the cache is marked as checked');
  });

  it('stops the server and every process it started', async () => {
    const server = await startVsCodeServer({ vscode: await provisioned(), workspaceTrust: false });
    const response = await fetch(server.baseUrl);
    assert.equal(response.status, 200);
    const members = groupMembers(server.pgid);
    assert.ok(members.length >= 1, 'the server runs in its own process group');
    await server.stop();
    assert.deepEqual(groupMembers(server.pgid), [], 'nothing of the server is left');
  });

  it('Ctrl-C (SIGINT) of a test run ends its server and every process the server started', async () => {
    // As the harness's signal handler exits: 128 + SIGINT's number.
    await endTestRunInChild({ crash: false, end: (child) => child.kill('SIGINT'), expectedExit: { code: 130, signal: null } });
  });

  it('a test run that crashes (uncaught exception) ends its server and every process the server started', async () => {
    await endTestRunInChild({ crash: true, end: (child) => child.stdin!.write('crash\n'), expectedExit: { code: 1, signal: null } });
  });

  it('a server that cannot listen (its port taken) fails at once and leaves nothing behind', async () => {
    const blocker = createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
    const mark = { name: 'ELICITATION_HOST_HARNESS_TEST', value: randomUUID() };
    const markEntry = `${mark.name}=${mark.value}`;
    assert.deepEqual(processesWithEnvironment(markEntry), [], 'no process carries the mark before the start');
    // Watched while it starts: proves the check below would see the server's processes.
    const seen = new Map<number, ProcessRow>();
    const watcher = setInterval(() => processesWithEnvironment(markEntry).forEach((p) => seen.set(p.pid, p)), 100);
    const started = Date.now();
    try {
      await assert.rejects(
        startVsCodeServer({ vscode: await provisioned(), workspaceTrust: false, port, env: { [mark.name]: mark.value } }),
        (error: Error) => {
          assert.match(error.message, new RegExp(`cannot listen on port ${port}: it is in use`));
          assert.doesNotMatch(error.message, /survived/);
          return true;
        },
      );
    } finally {
      clearInterval(watcher);
      blocker.close();
    }
    assert.ok(Date.now() - started < 30_000, `it failed after ${(Date.now() - started) / 1000} s, not at once`);
    assert.ok(seen.size >= 1, 'the server process was seen while it started');
    assert.deepEqual(processesWithEnvironment(markEntry).map((p) => p.args), [], 'nothing of the server is left');
  });

  it('a server that exits at once leaves nothing behind, not even a helper outside its process group', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eh-fake-server-'));
    const helperMark = `eh-helper-${randomUUID()}`;
    const fakeServerMain = join(dir, 'server-main.js');
    // A helper in a session and group of its own (as 1.139's may be), left behind when the
    // server exits: only the server's environment still leads to it.
    writeFileSync(
      fakeServerMain,
      `const { spawn } = require('node:child_process');
const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', ${JSON.stringify(helperMark)}], { detached: true, stdio: 'ignore' });
require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'helper.pid'))}, String(helper.pid));
process.exit(3);
`,
    );
    try {
      const vscode = { ...(await provisioned()), serverMain: fakeServerMain, nodeBin: process.execPath };
      await assert.rejects(startVsCodeServer({ vscode, workspaceTrust: false }), (error: Error) => {
        assert.match(error.message, /exited \(exit code 3\) before listening/);
        assert.doesNotMatch(error.message, /survived/);
        return true;
      });
      assert.ok(readdirSync(dir).includes('helper.pid'), 'the fake server started its helper');
      const helpers = processTable().filter((p) => p.args.includes(helperMark) && !p.zombie);
      assert.deepEqual(helpers.map((p) => `${p.pid} ${p.args}`), [], `the helper (pid ${readFileSync(join(dir, 'helper.pid'), 'utf8')}) is gone`);
    } finally {
      killProcesses(processTable().filter((p) => p.args.includes(helperMark)));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a browser named but missing fails with what to do', async () => {
    await assert.rejects(launchChromium('/nonexistent/chromium'), /no browser at \/nonexistent\/chromium: install Chrome or Chromium there/);
    await withChromiumPath('/nonexistent/chromium', () =>
      assert.rejects(findChromium(), /CHROMIUM_PATH=\/nonexistent\/chromium names no file: set it to a Chrome or Chromium, to @sparticuz\/chromium for the packaged one/),
    );
  });

  it(`the Chromium packaged in ${PACKAGE} (used where none is installed) drives the workbench`, async () => {
    requireBuilt(join(REPO, 'dist/extension.js'), join(FIXTURES, 'stdio.js'));
    const path = await withChromiumPath(PACKAGE, () => findChromium());
    assert.equal(path, join(cacheRoot(), 'chromium', `sparticuz-${packageVersion()}`, 'chromium'), 'unpacked into the cache');
    const browser = await launchChromium(path);
    const server = await startVsCodeServer({ vscode: await provisioned(), workspaceTrust: false, env: { ELICITATION_HOST_FIXTURES: FIXTURES, FIXTURE_RECORD: '/dev/null' } });
    try {
      assert.equal(browser.version().split('.')[0], packageVersion().split('.')[0], `the packaged browser runs (${browser.version()})`);
      const url = server.workbenchUrl({ folder: WORKSPACE, extensionDevelopmentPath: REPO });
      const workbench = await Workbench.openUrl(browser, url, join(RESULTS, versionName()));
      // Quick input from the palette, our extension's tool list, a tool's argument box.
      await openToolList(workbench, 'fixture');
      await workbench.pick('echo');
      await workbench.waitForQuickInputTitle('fixture · echo');
      await workbench.screenshot('packaged-chromium');
    } finally {
      await browser.close();
      await server.stop();
    }
  });
});

/** Runs `body` with CHROMIUM_PATH set to `value`, then restores it. */
async function withChromiumPath<T>(value: string, body: () => Promise<T>): Promise<T> {
  const previous = process.env.CHROMIUM_PATH;
  process.env.CHROMIUM_PATH = value;
  try {
    return await body();
  } finally {
    if (previous === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = previous;
  }
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(REPO, 'node_modules', PACKAGE, 'package.json'), 'utf8')) as { version: string }).version;
}
