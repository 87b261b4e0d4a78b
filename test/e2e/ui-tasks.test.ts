/**
 * UI scenarios: MCP Tasks in the real workbench, with the packaged extension, against the
 * reference server (`@modelcontextprotocol/server-everything`, pinned, MCP 2025-11-25 tasks)
 * and the 2026-07-28 fixture (`tasks-v2`, over HTTP, its tasks kept in its process so a
 * reloaded window finds them again):
 * - a task tool run from Run Tool, listed under its server while it runs, its question
 *   waiting in Pending Inputs (announced, never opening by itself) and answered from the
 *   announcement, the result naming the answer;
 * - Cancel on a task's row in the Servers view;
 * - a task-backed question the server sends us, answered later from Pending Inputs;
 * - a 2026-07-28 task's question surviving a reload of the window (asked again, its
 *   server started for it), its result offered with Open Result; the 2025-era task running
 *   beside it is named as lost.
 * The workspace has no servers of its own and nothing starts by itself: a server that
 * starts after the reload does so because a task was kept for it.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import type { Workbench } from './harness/workbench';
import { versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';
import { clickToastButton, collapseServers, openToolList, ResultTabs, serverRow, toast } from './ui-steps';
import { EVERYTHING_ENTRY } from '../support/everything';
import { type HttpFixture, startHttpFixture } from '../support/servers';
import { waitUntil } from '../support/wait';

const field = (id: string): string => `[data-question-id="${id}"]`;

/** The form document inside the Agent Input webview, once it shows this message. */
async function formWith(workbench: Workbench, message: string): Promise<FrameLocator> {
  const frame = workbench.webview();
  await frame.locator('h1.message', { hasText: message }).waitFor({ timeout: 30_000 });
  return frame;
}

/**
 * Shows this server's children alone: the list is virtual, and a server with many tools
 * would push another's rows out of view. Every server collapsed, then this one opened
 * (a click toggles it).
 */
async function expandOnly(workbench: Workbench, server: string): Promise<void> {
  await collapseServers(workbench);
  await expand(workbench, serverRow(workbench, server), server);
  // Collapse All may have closed its Tasks group too.
  const pane = workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: /Servers/ }) }).first();
  const tasks = pane.locator('.monaco-list-row[aria-level="2"]', { hasText: /^Tasks/ }).first();
  if ((await tasks.count()) > 0) await expand(workbench, tasks, 'its Tasks group');
}

/** Selects a tree row and opens it with the Right key (a click would toggle it; the key only opens). */
async function expand(workbench: Workbench, row: ReturnType<typeof serverRow>, what: string): Promise<void> {
  await row.click();
  await waitUntil(`${what} to open in the Servers view`, async () => {
    if ((await row.getAttribute('aria-expanded')) === 'true') return true;
    await workbench.page.keyboard.press('ArrowRight');
    return false;
  });
}

/** Waits until the Servers view shows a row matching `row`; returns the rows seen. */
async function serversRows(workbench: Workbench, row: RegExp, timeout = 30_000): Promise<string[]> {
  const rows = await workbench.waitForViewRows(/Servers/i, (r) => r.some((text) => row.test(text)), timeout);
  assert.ok(rows.some((text) => row.test(text)), `the Servers view shows ${row}: ${rows.join(' | ')}`);
  return rows;
}

describe(`UI: MCP Tasks (VS Code ${versionName()})`, function () {
  this.timeout(6 * 60_000);
  let ui: Ui | undefined;
  let trips: HttpFixture | undefined;
  let results: ResultTabs;
  const scratch = mkdtempSync(join(tmpdir(), 'eh-tasks-'));
  const folder = join(scratch, 'workspace');
  const tripsRecord = join(scratch, 'trips.jsonl');
  const tripsRecords = (): Array<Record<string, unknown>> =>
    readFileSync(tripsRecord, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

  before(async () => {
    writeFileSync(tripsRecord, '');
    trips = await startHttpFixture([], { FIXTURE_RECORD: tripsRecord }, 'tasks-v2.js');
    mkdirSync(folder);
    ui = await startUi(
      'tasks',
      {
        'elicitationHost.servers': {
          everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
          trips: { type: 'http', url: `http://127.0.0.1:${trips.port}/mcp` },
        },
        // Nothing starts by itself: after the reload, trips starts because a task was kept for it.
        'elicitationHost.autoStart': [],
      },
      {},
      folder,
    );
    results = new ResultTabs(ui.workbench);
    await ui.workbench.openAgentInputs();
    const everything = serverRow(ui.workbench, 'everything');
    await everything.hover();
    await everything.locator('.action-label[aria-label^="Start Server"]').click();
    // Its task tools are registered once it knows what we declared: the pinned server then has 19
    // (the list is virtual: its rows further down are not drawn, so the count is what to wait for).
    await serversRows(ui.workbench, /^everything.*· 19 tools ·/, 60_000);
  });
  uiHooks(
    () => ui,
    () => {
      void trips?.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  );

  it("Run Tool on a task tool: listed under its server while it runs; its question waits in Pending Inputs, announced, and the answer is in the result", async () => {
    const { workbench } = ui!;
    await openToolList(workbench, 'everything');
    await workbench.pick('simulate-research-query');
    const args = await formWith(workbench, 'Arguments for Simulate Research Query');
    await args.locator(`${field('topic')} input`).fill('python');
    await args.locator(`${field('ambiguous')} input[type="checkbox"]`).click();
    await args.locator('button', { hasText: 'Run' }).click();

    // Its question comes on the task, headed as a background task's, and waits: announced, not opened.
    const announcement = /Question from everything · Simulate Research Query \(background task\), waiting in Pending Inputs: The research query "python"/;
    await toast(workbench, announcement).waitFor({ timeout: 30_000 });
    assert.equal(await workbench.quickInputVisible(), false, 'no quick input opened by itself');
    const rows = await serversRows(workbench, /^Simulate Research Query · needs your answer · \d+s/);
    assert.ok(rows.some((r) => /^Tasks\s*1 running, 1 needs your answer/.test(r)), `the Tasks group: ${rows.join(' | ')}`);
    const pending = await workbench.waitForViewRows(/Pending Inputs/, (r) => r.some((row) => row.includes('Simulate Research Query (background task)')));
    assert.ok(pending.some((row) => row.startsWith('everything · Simulate Research Query (background task)')), `Pending Inputs: ${pending.join(' | ')}`);
    await waitUntil('the status bar to count it', async () => /^1 everything/.test(await workbench.pendingStatus()));
    await workbench.screenshot('tasks-question-waiting');

    // One click on the announcement asks it.
    await clickToastButton(workbench, announcement, 'Answer');
    await workbench.waitForQuickInputTitle('everything · Simulate Research Query (background task)');
    await workbench.clickRow('Python snake species');
    await results.next(60_000);
    const report = await workbench.editorText();
    assert.match(report, /Research Report: python \(snake\)/);
    assert.match(report, /Clarification\*\*: snake/);
    // Ended: the Tasks group is gone with it.
    await workbench.waitForViewRows(/Servers/i, (r) => !r.some((row) => row.startsWith('Tasks')));
  });

  it("Cancel on a task's row in the Servers view cancels it (tasks/cancel) and its call stops", async () => {
    const { workbench } = ui!;
    // trips starts for this call, and opens with its children in view.
    await collapseServers(workbench);
    await openToolList(workbench, 'trips');
    await workbench.pick('forever');
    const rows = await serversRows(workbench, /^forever · working · \d+s/);
    // The elapsed time moves while it runs.
    const first = rows.find((r) => r.startsWith('forever · working'))!;
    await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('forever · working') && row !== first));
    await workbench.screenshot('tasks-running-in-servers-view');
    const row = serverRow(workbench, 'forever · working');
    await row.hover();
    await row.locator('.action-label[aria-label^="Cancel Task"]').click();
    const taskId = await waitUntil('the fixture to be asked to cancel', () => tripsRecords().find((r) => typeof r.cancel === 'string')?.cancel as string | undefined, 20_000);
    assert.match(taskId, /^task-\d+$/);
    await workbench.waitForNotification(/forever on trips stopped: you cancelled its task\./);
    await workbench.waitForViewRows(/Servers/i, (r) => !r.some((text) => text.startsWith('forever ·')));
  });

  it('a task-backed question the server sends us waits in Pending Inputs and is answered from there', async () => {
    const { workbench } = ui!;
    await openToolList(workbench, 'everything');
    await workbench.pick('trigger-elicitation-request-async');
    const announcement = /Question from everything · Trigger Async Elicitation Request Tool \(background task\), waiting in Pending Inputs/;
    await toast(workbench, announcement).waitFor({ timeout: 30_000 });
    assert.equal(await workbench.page.locator('.tab', { hasText: 'Agent Input' }).count(), 0, 'no form opened by itself');
    await waitUntil('the status bar to count it', async () => /^1 everything/.test(await workbench.pendingStatus()));
    // The person comes back to it from the Pending Inputs view.
    const pane = workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: /Pending Inputs/ }) }).first();
    const row = pane.locator('.monaco-list-row', { hasText: 'Trigger Async Elicitation Request Tool (background task)' }).first();
    await row.waitFor({ timeout: 20_000 });
    await row.click();
    const frame = await formWith(workbench, 'Please provide inputs for the following fields (async task demo):');
    assert.equal(await frame.locator('.source').textContent(), 'everything · Trigger Async Elicitation Request Tool (background task)');
    await frame.locator(`${field('name')} input`).fill('Ada Lovelace');
    await workbench.screenshot('tasks-task-backed-question');
    await frame.locator('button', { hasText: 'Submit' }).click();
    await results.next(60_000);
    const text = await workbench.editorText();
    assert.match(text, /\[COMPLETED\] User provided the requested information!/);
    assert.match(text, /- Name: Ada Lovelace/);
  });

  it("a 2026-07-28 task's question survives a reload of the window; the 2025-era task beside it is named as lost", async () => {
    const { workbench } = ui!;
    const { page } = workbench;
    // A 2025-era task left waiting on its question...
    await openToolList(workbench, 'everything');
    await workbench.pick('simulate-research-query');
    const args = await formWith(workbench, 'Arguments for Simulate Research Query');
    await args.locator(`${field('topic')} input`).fill('tides');
    await args.locator(`${field('ambiguous')} input[type="checkbox"]`).click();
    await args.locator('button', { hasText: 'Run' }).click();
    await expandOnly(workbench, 'everything');
    await serversRows(workbench, /^Simulate Research Query · needs your answer/);
    await toast(workbench, /Question from everything · Simulate Research Query \(background task\), waiting in Pending Inputs/).waitFor({ timeout: 30_000 });
    // ...and a 2026-07-28 one, asking its first question.
    await openToolList(workbench, 'trips');
    await workbench.pick('Plan a Trip');
    await toast(workbench, /Question from trips · Plan a Trip \(background task\), waiting in Pending Inputs: Where to, and for how long\?/).waitFor({ timeout: 30_000 });
    await expandOnly(workbench, 'trips');
    await serversRows(workbench, /^Plan a Trip · needs your answer/);
    const kept = tripsRecords().filter((r) => r.get !== undefined).at(-1)?.get as string;

    await page.reload();
    await page.locator('.activitybar [aria-label^="Agent Inputs"]').first().waitFor({ timeout: 60_000 });
    // The reloaded window has none of the earlier result tabs: counted afresh.
    const reloadedResults = new ResultTabs(workbench);
    await workbench.openAgentInputs();
    // trips started by itself for its kept task, which asks its question again.
    const announcement = /Question from trips · Plan a Trip \(background task\), waiting in Pending Inputs: Where to, and for how long\?/;
    await toast(workbench, announcement).waitFor({ timeout: 60_000 });
    // What the 2025-era task lost is said (looked for after the toast: the notification list hides toasts).
    await workbench.waitForNotification(/1 task was running when this window last closed and could not be kept: Simulate Research Query on everything\./);
    await expandOnly(workbench, 'trips');
    const rows = await serversRows(workbench, /^Plan a Trip · needs your answer/);
    // Nothing was kept for the 2025-era task: its server was not started for it.
    assert.ok(rows.some((r) => /^everything.*stopped/.test(r)), `everything stays stopped: ${rows.join(' | ')}`);
    await workbench.screenshot('tasks-after-reload');
    const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Pending Inputs/ }) }).first();
    await pane.locator('.monaco-list-row', { hasText: 'Plan a Trip (background task)' }).first().click();
    const frame = await formWith(workbench, 'Where to, and for how long?');
    await frame.locator(`${field('destination')} input`).fill('Oslo');
    await frame.locator(`${field('nights')} input`).fill('2');
    await frame.locator('button', { hasText: 'Submit' }).click();
    // Its second question, a confirm, waits too: answered from its announcement.
    await clickToastButton(workbench, /Plan a Trip \(background task\), waiting in Pending Inputs: Book 2 nights in Oslo\?/, 'Answer');
    await workbench.waitForQuickInputTitle('trips · Plan a Trip (background task)');
    await workbench.clickRow(/Accept/);
    // Nobody's call waits for it: its end is told, and the result opens on request.
    await clickToastButton(workbench, /Task Plan a Trip on trips finished\./, 'Open Result');
    await reloadedResults.next(30_000);
    const text = await workbench.editorText();
    assert.match(text, /"destination":"Oslo","nights":2,"booked":true/);
    assert.match(text, /Not kept: the task was picked up again after a reload/);
    const updates = tripsRecords().filter((r) => r.update === kept);
    assert.deepEqual(updates.map((u) => Object.keys(u.inputResponses as object)), [['trip'], ['sure']], 'both answers went to the task kept across the reload');
  });
});
