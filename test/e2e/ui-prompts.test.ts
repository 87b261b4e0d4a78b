/// <reference lib="dom" />
/**
 * UI scenarios: confirms, picks and inputs in VS Code's own quick input and dialogs, the
 * pending queue and the status bar, answered with the keyboard as a person would. The
 * fixture servers record what they received; the tests read it.
 */
import { strict as assert } from 'node:assert';
import type { Workbench } from './harness/workbench';
import { versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';
import { ResultTabs, runTool, waitForPrompt } from './ui-steps';


/** Waits until the quick input's placeholder (where a refused pick says why) reads this. */
async function waitForPlaceholder(workbench: Workbench, text: string): Promise<void> {
  await workbench.quickInput.locator(`input[placeholder*=${JSON.stringify(text)}]`).first().waitFor({ timeout: 20_000 });
}

async function waitForStatus(workbench: Workbench, ready: (text: string) => boolean, what: string): Promise<string> {
  const end = Date.now() + 20_000;
  let text = '';
  while (Date.now() < end) {
    text = await workbench.pendingStatus();
    if (ready(text)) return text;
    await workbench.page.waitForTimeout(100);
  }
  throw new Error(`the status bar never showed ${what} (last: "${text}")`);
}

describe(`UI: native prompts and the pending queue (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;

  let results: ResultTabs;

  before(async () => {
    ui = await startUi('prompts');
    results = new ResultTabs(ui.workbench);
  });
  uiHooks(() => ui);

  it('a destructive confirm is a modal whose default is Decline; accepted with the keyboard', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'Clear completed todos');
    await workbench.dialog.waitFor({ timeout: 20_000 });
    const text = await workbench.dialog.innerText();
    assert.match(text, /"fixture" wants to run "Clear completed todos", a destructive action\. Accept\?/);
    assert.match(text, /Remove 5 completed todos\? This cannot be undone\./);
    const focused = await workbench.page.evaluate(() => document.activeElement?.textContent?.trim());
    assert.equal(focused, 'Decline', 'the default button is not the destructive one');
    await workbench.screenshot('prompt-destructive-confirm');
    await workbench.page.keyboard.press('Tab');
    assert.equal(await workbench.page.evaluate(() => document.activeElement?.textContent?.trim()), 'Accept');
    await workbench.page.keyboard.press('Enter');
    assert.deepEqual(await ui!.nextRecord('clear_completed'), { action: 'accept', content: {} });
    await results.next();
  });

  it('Decline and Escape reach the server as decline and cancel', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'confirm_action', 'deploy to production');
    await waitForPrompt(workbench, 'Are you sure you want to: deploy to production?');
    await workbench.screenshot('prompt-pick-boolean');
    await workbench.clickRow(/Decline/);
    assert.deepEqual(await ui!.nextRecord('confirm_action'), { action: 'decline' });
    await results.next();

    await runTool(workbench, 'fixture', 'confirm_action', 'deploy again');
    await waitForPrompt(workbench, 'Are you sure you want to: deploy again?');
    await workbench.page.keyboard.press('Escape');
    assert.deepEqual(await ui!.nextRecord('confirm_action'), { action: 'cancel' });
    await results.next();
  });

  it('a pick shows the titled options with the default preselected, and sends the value', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'check_stock', 'blue paint');
    await waitForPrompt(workbench, 'Which warehouse should I check for blue paint?');
    const rows = await workbench.quickPickRows();
    for (const label of ['Berlin (main)', 'Lyon', 'Porto', 'Decline']) assert.ok(rows.some((r) => r.includes(label)), `${label} is offered: ${rows.join(' | ')}`);
    const active = await workbench.quickInput.locator('.quick-input-list .monaco-list-row.focused').innerText();
    assert.match(active, /Berlin \(main\)/, 'the default is preselected');
    assert.match(await workbench.placeholder(), /Warehouse: Where should I check the stock\?/);
    assert.match(await workbench.quickInput.locator('.quick-input-title').innerText(), /fixture · check_stock/);
    await workbench.screenshot('prompt-pick-titled');
    await workbench.page.keyboard.press('ArrowDown');
    await workbench.page.keyboard.press('Enter');
    assert.deepEqual(await ui!.nextRecord('check_stock'), { action: 'accept', content: { warehouse: 'wh-lyon' } });
    await results.next();
  });

  it('a pick-many refuses too few choices with a message, then accepts', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'pick_instruments', 'the blues');
    await workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Guitar' }).waitFor({ timeout: 20_000 });
    // The defaults (Piano, Bass) are checked; uncheck Bass to leave one.
    await workbench.clickRow('Bass');
    await workbench.quickInput.locator('.quick-input-count, .monaco-count-badge', { hasText: '1' }).first().waitFor();
    await workbench.page.keyboard.press('Enter');
    // Refused: the pick stays open and its placeholder says why.
    await waitForPlaceholder(workbench, 'Instruments: choose between 2 and 3 (1 chosen)');
    await workbench.screenshot('prompt-pick-many-refused');
    await workbench.clickRow('Drums');
    await workbench.page.keyboard.press('Enter');
    assert.deepEqual(await ui!.nextRecord('pick_instruments'), { action: 'accept', content: { instruments: ['piano', 'drums'] } });
    await results.next();
  });

  it('an input box shows the range error, then accepts a valid number', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'choose_quantity', 'nails');
    await waitForPrompt(workbench, 'How many boxes of nails?');
    assert.equal(await workbench.quickInput.locator('input').first().inputValue(), '1', 'the default is prefilled');
    await workbench.typeInQuickInput('50');
    await workbench.quickInput.locator('.quick-input-message', { hasText: 'Quantity must be between 1 and 10' }).waitFor();
    await workbench.screenshot('prompt-input-range-error');
    await workbench.page.keyboard.press('Enter');
    // Refused: the box stays open and says it sent nothing.
    await workbench.quickInput.locator('.quick-input-message', { hasText: 'Not sent: Quantity must be between 1 and 10' }).waitFor();
    await workbench.typeInQuickInput('3');
    await workbench.page.keyboard.press('Enter');
    assert.deepEqual(await ui!.nextRecord('choose_quantity'), { action: 'accept', content: { quantity: 3 } });
    await results.next();
  });

  it('an optional choice offers Leave empty; legacy enumNames show their titles; a long message is shown whole; too many choices are refused', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'one_question', { pick: 'enum' });
    await waitForPrompt(workbench, 'Which size should the new volume have?');
    const sizes = await workbench.quickPickRows();
    for (const label of ['small', 'medium', 'large', 'Leave empty']) assert.ok(sizes.some((r) => r.includes(label)), `${label} is offered: ${sizes.join(' | ')}`);
    assert.match(await workbench.placeholder(), /Size: Disk size of the volume \(optional\)/, 'the field\'s description is shown');
    await workbench.clickRow('Leave empty');
    assert.deepEqual(await ui!.nextRecord('one_question'), { shape: 'enum', action: 'accept', content: {} });
    await results.next();

    await runTool(workbench, 'fixture', 'one_question', { pick: 'enumNames' });
    await waitForPrompt(workbench, 'How was the deployment?');
    const ratings = await workbench.quickPickRows();
    for (const title of ['Poor', 'Fair', 'Good']) assert.ok(ratings.some((r) => r.includes(title)), `${title} is shown: ${ratings.join(' | ')}`);
    assert.ok(!ratings.some((r) => r.includes('Leave empty')), 'a required choice cannot be left empty');
    assert.match(await workbench.quickInput.locator('.quick-input-list .monaco-list-row.focused').innerText(), /Fair/, 'the default is preselected');
    await workbench.clickRow('Good');
    assert.deepEqual(await ui!.nextRecord('one_question'), { shape: 'enumNames', action: 'accept', content: { rating: '3' } });
    await results.next();

    await runTool(workbench, 'fixture', 'one_question', { pick: 'long' });
    await waitForPrompt(workbench, 'END-OF-MESSAGE');
    await workbench.page.mouse.move(700, 600);
    const lines = (await workbench.quickPickRows()).filter((r) => !/Accept|Decline/.test(r));
    const shown = lines.join(' ').replace(/\s+/g, ' ');
    assert.equal((shown.match(/rewrites the deployment configuration/g) ?? []).length, 6, `every sentence is shown: ${shown}`);
    assert.ok(lines.every((line) => !line.endsWith('…')), 'no line is cut');
    await workbench.screenshot('prompt-long-message');
    await workbench.clickRow(/Accept/);
    assert.deepEqual(await ui!.nextRecord('one_question'), { shape: 'long', action: 'accept', content: {} });
    await results.next();

    await runTool(workbench, 'fixture', 'pick_instruments', 'a march');
    await workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Guitar' }).waitFor({ timeout: 20_000 });
    // Piano and Bass are checked by default: two more make four, one too many.
    await workbench.clickRow('Guitar');
    await workbench.clickRow('Drums');
    await workbench.page.keyboard.press('Enter');
    await waitForPlaceholder(workbench, 'Instruments: choose between 2 and 3 (4 chosen)');
    await workbench.clickRow('Guitar');
    await workbench.page.keyboard.press('Enter');
    assert.deepEqual(await ui!.nextRecord('pick_instruments'), { action: 'accept', content: { instruments: ['piano', 'drums', 'bass'] } }, 'in the order of the options');
    await results.next();
  });

  it('a question with a schema outside the elicitation subset is refused: the server hears which field, the person why', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'invalid_schema', 'me');
    const outcome = (await ui!.nextRecord('invalid_schema')) as { error?: { code: number; message: string } };
    assert.equal(outcome.error?.code, -32602);
    assert.match(outcome.error?.message ?? '', /properties\.address: nested objects are not allowed in elicitation schemas/);
    await results.next();
    await workbench.waitForNotification(/fixture · invalid_schema asked a question that cannot be shown, and was told why: .*properties\.address: nested objects are not allowed/);
    assert.equal(await workbench.pendingStatus(), '', 'no question is waiting');
    assert.equal(ui!.records().filter((r) => r.tool === 'invalid_schema').length, 1, 'and none was answered');
  });

  it('Run Tool\'s own list steps over a question on screen; the question comes back unanswered, not cancelled', async () => {
    const { workbench } = ui!;
    const page = workbench.page;
    // The call stays in flight until its question is answered; its result editor opens then.
    await runTool(workbench, 'fixture', 'ask_later', '1000');
    await waitForPrompt(workbench, 'fixture has a question of its own: proceed?');
    // Run Tool from the Servers view's title (the command palette is VS Code's own quick input, not ours).
    await workbench.openAgentInputs();
    const header = page.locator('.pane-header', { hasText: /Servers/ }).first();
    await header.hover();
    await header.locator('.action-label[aria-label^="Run Tool"]').click();
    await workbench.waitForQuickInputTitle(/^Run Tool/);
    await page.keyboard.press('Escape');
    await waitForPrompt(workbench, 'fixture has a question of its own: proceed?');
    await workbench.clickRow(/Accept/);
    assert.deepEqual(await ui!.nextRecord('ask_later'), { action: 'accept', content: {} });
    await results.next();
  });

  it('two servers asking at once are answered in order; the status bar counts 2, 1, then nothing', async () => {
    const { workbench } = ui!;
    const sentBefore = ui!.records().filter((r) => r.tool === 'ask_later:sent').length;
    // Each call stays in flight until its question is answered; its result editor opens then.
    await runTool(workbench, 'fixture', 'ask_later', '3000');
    await runTool(workbench, 'second', 'ask_later', '1200');
    const two = await waitForStatus(workbench, (t) => /^2 /.test(t), '2 pending');
    assert.match(two, /2 (fixture|second) \+1/);
    await workbench.screenshot('prompt-two-servers');
    // First come, first served: in the order the servers sent their questions.
    const order = ui!.records().filter((r) => r.tool === 'ask_later:sent').slice(sentBefore).map((r) => String(r.outcome.server));
    assert.deepEqual([...order].sort(), ['fixture', 'second']);
    const [first, later] = order;
    await waitForPrompt(workbench, `${first} has a question of its own: proceed?`);
    await workbench.clickRow(/Accept/);
    const one = await waitForStatus(workbench, (t) => /^1 /.test(t), '1 pending');
    assert.match(one, new RegExp(`^1 ${later}`));
    await waitForPrompt(workbench, `${later} has a question of its own: proceed?`);
    await workbench.clickRow(/Accept/);
    await waitForStatus(workbench, (t) => t === '', 'nothing');
    assert.deepEqual(await ui!.nextRecord('ask_later'), { action: 'accept', content: {} });
    assert.deepEqual(await ui!.nextRecord('ask_later'), { action: 'accept', content: {} });
    await results.next();
    await results.next();
  });

  it('the pending list opens the question chosen; the one on screen waits', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'ask_later', '2500');
    await runTool(workbench, 'second', 'ask_later', '600');
    await waitForStatus(workbench, (t) => /^2 /.test(t), '2 pending');
    // First come, first served: whichever asked first is on screen (usually "second").
    const status = await workbench.pendingStatus();
    const [first, later] = /^2 second/.test(status) ? ['second', 'fixture'] : ['fixture', 'second'];
    await waitForPrompt(workbench, `${first} has a question of its own`);
    await workbench.openAgentInputs();
    const tree = await workbench.waitForViewRows(/Pending Inputs/, (r) => r.length === 2);
    assert.equal(tree.length, 2, `the Pending Inputs view lists both: ${tree.join(' | ')}`);
    for (const server of ['second', 'fixture']) {
      assert.ok(tree.some((row) => row.includes(server) && row.includes(`${server} has a question of its own`) && /\d+ s ago/.test(row)), `${server}'s row: ${tree.join(' | ')}`);
    }
    await workbench.pendingStatusItem.click();
    await workbench.waitForQuickInputTitle('Pending Agent Inputs');
    const rows = await workbench.quickPickRows();
    assert.equal(rows.length, 2, rows.join(' | '));
    // Each row: the server, what kind of question, its age, and the message.
    for (const server of ['second', 'fixture']) {
      assert.ok(rows.some((row) => row.startsWith(server) && /confirm · \d+ s ago/.test(row) && row.includes(`${server} has a question of its own: proceed?`)), `${server}'s row: ${rows.join(' | ')}`);
    }
    await workbench.screenshot('prompt-pending-list');
    // Open the later question first; the earlier one waits and comes back after it.
    await workbench.clickRow(new RegExp(`^${later}`));
    await waitForPrompt(workbench, `${later} has a question of its own`);
    await workbench.clickRow(/Decline/);
    await waitForPrompt(workbench, `${first} has a question of its own`);
    await workbench.clickRow(/Accept/);
    await waitForStatus(workbench, (t) => t === '', 'nothing');
    const last = ui!.records().filter((r) => r.tool === 'ask_later').slice(-2).map((r) => r.outcome.action);
    assert.deepEqual(last.sort(), ['accept', 'decline']);
    await results.next();
    await results.next();
  });

  it('a server killed while its prompt is open: the prompt closes and a message says why', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'second', 'crash_during_elicitation', '3000');
    await waitForPrompt(workbench, 'This server is about to crash');
    await workbench.screenshot('prompt-before-server-died');
    // Stamped in the page when the prompt leaves the screen; nobody touches it.
    const hiddenAt = workbench.page.evaluate(`new Promise((resolve) => {
      const widget = document.querySelector('.quick-input-widget');
      const observer = new MutationObserver(() => {
        if (getComputedStyle(widget).display === 'none') {
          observer.disconnect();
          resolve(performance.timeOrigin + performance.now());
        }
      });
      observer.observe(widget, { attributes: true, attributeFilter: ['style', 'class'] });
    })`) as Promise<number>;
    await workbench.waitForQuickInputHidden(15_000);
    await workbench.waitForNotification(/Question from second · crash_during_elicitation closed: second disconnected/);
    await workbench.screenshot('prompt-server-died');
    const exitedAt = Number(ui!.records().find((r) => r.tool === 'crash_during_elicitation:exiting')?.outcome.at);
    assert.ok(Number.isFinite(exitedAt), 'the fixture recorded when it exited');
    // A figure for the note, not a timed assertion: the prompt closed by itself.
    process.stdout.write(`      (the prompt closed ${Math.round((await hiddenAt) - exitedAt)} ms after the server exited)\n`);
    assert.equal(await workbench.pendingStatus(), '');
  });

});
