/// <reference lib="dom" />
/**
 * UI scenarios: the History view in the real workbench. Requests that ended every way a
 * request ends are listed, newest first, with secrets masked; a row opens the whole entry
 * (with the result of the tool the person ran); the history outlives a reload of the
 * window; Clear History empties it.
 */
import { strict as assert } from 'node:assert';
import { versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';
import { openToolList, ResultTabs, runTool, waitForPrompt } from './ui-steps';

const TOKEN = 'sk-live-history-0123456789';

describe(`UI: the History view (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let results: ResultTabs;

  before(async () => {
    ui = await startUi('history');
    results = new ResultTabs(ui.workbench);
  });
  uiHooks(() => ui);

  it('lists accepted, declined, withdrawn and abandoned requests with masked secrets; a row opens the entry; it outlives a reload; Clear History empties it', async () => {
    const { workbench } = ui!;
    const { page } = workbench;
    // Accepted, with a secret-looking answer.
    await openToolList(workbench, 'fixture');
    await workbench.pick('ask_secret');
    await waitForPrompt(workbench, 'Paste your API token');
    await workbench.typeInQuickInput(TOKEN);
    await page.keyboard.press('Enter');
    await results.next();
    // Declined.
    await runTool(workbench, 'fixture', 'confirm_action', 'deploy to production');
    await waitForPrompt(workbench, 'Are you sure you want to: deploy to production?');
    await workbench.clickRow(/Decline/);
    assert.deepEqual(await ui!.nextRecord('confirm_action'), { action: 'decline' });
    await results.next();
    // Withdrawn by the server.
    await runTool(workbench, 'fixture', 'cancel_elicitation', '1500');
    await waitForPrompt(workbench, 'Will be withdrawn');
    await workbench.waitForQuickInputHidden();
    await results.next();
    // Abandoned: its server died.
    await runTool(workbench, 'second', 'crash_during_elicitation', '1500');
    await waitForPrompt(workbench, 'This server is about to crash');
    await workbench.waitForQuickInputHidden();

    await workbench.openAgentInputs();
    // Collapsed at first (Servers and Pending Inputs come first): opened by its header.
    const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /History/ }) }).first();
    const header = pane.locator('.pane-header').first();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const expected = [
      ['second · crash_during_elicitation', 'abandoned'],
      ['fixture · cancel_elicitation', 'withdrawn'],
      ['fixture · confirm_action', 'declined'],
      ['fixture · ask_secret', 'accepted'],
    ];
    const shows = (rows: string[]): boolean => rows.length >= expected.length && expected.every(([who, how], i) => rows[i]?.startsWith(who) && rows[i].includes(how));
    let rows = await workbench.waitForViewRows(/History/, shows);
    assert.ok(shows(rows), `the History view, newest first: ${rows.join(' | ')}`);
    assert.ok(!rows.join('\n').includes(TOKEN), 'the token is not in the view');
    await workbench.screenshot('history-view');

    // The accepted entry, whole: masked answer, and the result of the tool the person ran.
    await pane.locator('.monaco-list-row', { hasText: 'ask_secret' }).first().click();
    await page.locator('.tab', { hasText: /\.txt/ }).first().waitFor();
    // The tab comes before the entry's content: wait for the text itself, its first line to its last.
    const text = await workbench.waitForEditorText(/Paste your API token[\s\S]*Tool result:/);
    assert.match(text, /API token: •+/);
    assert.match(text, /Tool result:/);
    assert.ok(!text.includes(TOKEN), `the entry does not hold the token: ${text}`);
    await workbench.screenshot('history-entry');

    // A reload of the window: the history is read back from the workspace's storage.
    await page.reload();
    await page.locator('.activitybar [aria-label^="Agent Inputs"]').first().waitFor({ timeout: 60_000 });
    await workbench.openAgentInputs();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    rows = await workbench.waitForViewRows(/History/, shows, 60_000);
    assert.ok(shows(rows), `after a reload: ${rows.join(' | ')}`);

    await workbench.runCommand('Elicitation Host: Clear History');
    await pane.locator('.monaco-list-row').first().waitFor({ state: 'detached' });
    await pane.getByText('No question has been asked in this workspace yet.').waitFor();
  });
});
