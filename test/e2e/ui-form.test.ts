/**
 * UI scenarios: the Agent Input form panel in the real workbench, with the packaged
 * extension. The fixture servers record what they received; the tests read it.
 */
/// <reference lib="dom" />
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import type { Workbench } from './harness/workbench';
import { versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';
import { openToolList, ResultTabs, runTool } from './ui-steps';
import { waitUntil } from '../support/wait';

/** The form document inside the Agent Input webview, once it shows this message. */
async function formWith(workbench: Workbench, message: string): Promise<FrameLocator> {
  const frame = workbench.webview();
  await frame.locator('h1.message', { hasText: message }).waitFor({ timeout: 30_000 });
  return frame;
}

const field = (id: string): string => `[data-question-id="${id}"]`;

/** The extension's own log ("Elicitation Host" output channel), as VS Code wrote it under the user data. */
function extensionLog(userDataDir: string): string {
  const files = (readdirSync(join(userDataDir, 'logs'), { recursive: true }) as string[]).filter((f) => f.endsWith('Elicitation Host.log'));
  assert.ok(files.length > 0, `no "Elicitation Host.log" under ${userDataDir}/logs`);
  return files.map((f) => readFileSync(join(userDataDir, 'logs', f), 'utf8')).join('\n');
}

async function chooseDietary(frame: FrameLocator, value: string): Promise<void> {
  await frame.locator(`${field('dietary')} select`).evaluate((select, v) => {
    (select as HTMLElement & { value: string }).value = v;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
}

describe(`UI: the form panel (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let results: ResultTabs;

  before(async () => {
    ui = await startUi('form');
    results = new ResultTabs(ui.workbench);
  });
  uiHooks(() => ui);

  it('book_restaurant: filled and submitted, the server receives typed content', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'book_restaurant', 'Chez Playwright');
    const frame = await formWith(workbench, 'Please provide your reservation details for Chez Playwright:');
    assert.equal(await frame.locator('.source').textContent(), 'fixture · book_restaurant');
    assert.equal(await frame.locator(`${field('party_size')} input`).inputValue(), '2', 'defaults are filled');
    const focused = await frame.locator('body').evaluate(() => document.activeElement?.closest('[data-question-id]')?.getAttribute('data-question-id'));
    assert.equal(focused, 'party_size', 'the first field has focus');
    await frame.locator(`${field('party_size')} input`).fill('4');
    await frame.locator(`${field('date')} input`).fill('2026-12-24');
    await chooseDietary(frame, 'vegan');
    await workbench.screenshot('form-book-restaurant-dark');
    await frame.locator('button', { hasText: 'Submit' }).click();
    assert.deepEqual(await ui!.nextRecord('book_restaurant'), { action: 'accept', content: { party_size: 4, date: '2026-12-24', dietary: 'vegan' } });
    await results.next();
  });

  it('a wrong party size shows the error and blocks Submit', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'book_restaurant', 'Chez Errors');
    const frame = await formWith(workbench, 'Chez Errors');
    await frame.locator(`${field('party_size')} input`).fill('25');
    await frame.locator(`${field('party_size')} .error`, { hasText: 'Party Size must be between 1 and 20' }).waitFor();
    await frame.locator(`${field('date')} input`).fill('2026-12-31');
    await frame.locator('button', { hasText: 'Submit' }).click();
    // The page refuses the submission itself and moves the focus to the first error; a
    // refused submission posts nothing (the form-page integration test shows it).
    await frame.locator(`${field('party_size')} input:focus`).waitFor();
    assert.equal(ui!.records().filter((r) => r.tool === 'book_restaurant').length, 1, 'nothing was sent');
    await workbench.screenshot('form-error');
    await frame.locator(`${field('party_size')} input`).fill('5');
    await frame.locator('button', { hasText: 'Submit' }).click();
    assert.deepEqual(await ui!.nextRecord('book_restaurant'), { action: 'accept', content: { party_size: 5, date: '2026-12-31', dietary: 'none' } });
    await results.next();
  });

  it("a pattern is checked as the person types, by the host's matcher loaded into the page (dist/webview/checks.js)", async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'voucher', 'Pattern Shop');
    const frame = await formWith(workbench, 'Enter your voucher');
    await frame.locator(`${field('code')} input`).fill('abc-1234');
    await frame.locator(`${field('code')} .error`, { hasText: 'Voucher code must match the pattern ^[A-Z]{3}-\\d{4}$' }).waitFor();
    await frame.locator(`${field('code')} input`).fill('ABC-1234');
    await frame.locator('button', { hasText: 'Submit' }).click();
    assert.deepEqual(await ui!.nextRecord('voucher'), { action: 'accept', content: { code: 'ABC-1234' } });
    await results.next();
  });

  it('closing the panel keeps the request pending; reopened from the status bar, the drafts are intact', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'book_restaurant', 'Chez Later');
    let frame = await formWith(workbench, 'Chez Later');
    await frame.locator(`${field('party_size')} input`).fill('7');
    await frame.locator(`${field('date')} input`).fill('2027-03-14');
    await chooseDietary(frame, 'halal');
    // No pause before closing: what was typed goes to the host as the panel loses the focus.
    await workbench.page.locator('.tab', { hasText: 'Agent Input' }).locator('.codicon-close, .tab-actions .action-label').first().click();
    await workbench.page.locator('.tab', { hasText: 'Agent Input' }).waitFor({ state: 'detached' });
    assert.match(await workbench.pendingStatus(), /^1 fixture/);
    await workbench.pendingStatusItem.click();
    await workbench.waitForQuickInputTitle('Pending Agent Inputs');
    await workbench.clickRow(/fixture · book_restaurant/);
    frame = await formWith(workbench, 'Chez Later');
    assert.equal(await frame.locator(`${field('party_size')} input`).inputValue(), '7');
    assert.equal(await frame.locator(`${field('date')} input`).inputValue(), '2027-03-14');
    await workbench.screenshot('form-reopened');
    await frame.locator('button', { hasText: 'Submit' }).click();
    assert.deepEqual(await ui!.nextRecord('book_restaurant'), { action: 'accept', content: { party_size: 7, date: '2027-03-14', dietary: 'halal' } });
    await results.next();
  });

  it('Decline and Cancel are distinguished at the server; when nothing waits, the Agent Input tab closes', async () => {
    const { workbench } = ui!;
    const tab = workbench.page.locator('.tab', { hasText: 'Agent Input' });
    await runTool(workbench, 'fixture', 'collect_feedback', 'the demo');
    let frame = await formWith(workbench, 'Please provide your feedback about: the demo');
    await frame.locator('button', { hasText: 'Decline' }).click();
    assert.deepEqual(await ui!.nextRecord('collect_feedback'), { action: 'decline' });
    await results.next();
    // No "No agent is waiting" tab left behind.
    await tab.waitFor({ state: 'detached', timeout: 20_000 });
    await runTool(workbench, 'fixture', 'collect_feedback', 'the second form');
    frame = await formWith(workbench, 'Please provide your feedback about: the second form');
    await frame.locator('h1.message').click();
    await workbench.page.keyboard.press('Escape');
    assert.deepEqual(await ui!.nextRecord('collect_feedback'), { action: 'cancel' });
    await results.next();
    await tab.waitFor({ state: 'detached', timeout: 20_000 });
  });

  it('forms that follow each other reuse the panel, its buttons and keys stay in view on a long form, and a pinned tab stays open', async () => {
    const { workbench } = ui!;
    const tab = workbench.page.locator('.tab', { hasText: 'Agent Input' });
    await runTool(workbench, 'fixture', 'ask_form_later', '2');
    let frame = await formWith(workbench, 'Ten fields, please');
    const webviews = await workbench.page.locator('iframe.webview').count();
    // The actions are sticky: at the top of a form taller than the panel, Submit is on screen.
    const layout = await frame.locator('button', { hasText: 'Submit' }).evaluate((button) => {
      window.scrollTo(0, 0);
      const box = button.getBoundingClientRect();
      return { formHeight: document.documentElement.scrollHeight, viewport: window.innerHeight, top: box.top, bottom: box.bottom };
    });
    assert.ok(layout.formHeight > layout.viewport, `the form is taller than the panel (${layout.formHeight} > ${layout.viewport} px)`);
    assert.ok(layout.top >= 0 && layout.bottom <= layout.viewport, `Submit is on screen: ${JSON.stringify(layout)}`);
    assert.equal(await frame.locator('.actions .keys').textContent(), 'Ctrl+Enter to submit · Escape to cancel');
    await workbench.screenshot('form-sticky-actions');
    // Pinned by the person: it stays when nothing waits.
    await tab.click();
    await workbench.runCommand('View: Pin Editor');
    await tab.locator('.codicon-pinned, .codicon-pin').first().waitFor();
    await frame.locator('button', { hasText: 'Decline' }).click();
    assert.equal((await ui!.nextRecord('ask_form_later')).action, 'decline');
    // The call's second form, half a second later, in the same page.
    await ui!.nextRecord('ask_form_later:sent');
    await ui!.nextRecord('ask_form_later:sent');
    frame = await formWith(workbench, 'Ten fields, please');
    await frame.locator('button:not([disabled])', { hasText: 'Decline' }).click();
    assert.equal((await ui!.nextRecord('ask_form_later')).action, 'decline');
    assert.equal(await workbench.page.locator('iframe.webview').count(), webviews, 'no new webview for the second form');
    await results.next();
    await waitUntil('the log to say the pinned tab stays', () => extensionLog(ui!.server.userDataDir).includes('the Agent Input tab stays open because it is pinned') || undefined, 20_000);
    assert.equal(await tab.count(), 1, 'the pinned tab is still open');
    await tab.click();
    await workbench.runCommand('View: Unpin Editor');
    await tab.hover();
    await tab.locator('.tab-actions .action-label').first().click();
    await tab.waitFor({ state: 'detached' });
  });

  it('Answer step by step: the form\'s drafts go to the quick-input steps, and what the steps collect comes back to the form', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'book_restaurant', 'Chez Steps');
    let frame = await formWith(workbench, 'Chez Steps');
    await frame.locator(`${field('party_size')} input`).fill('6');
    await frame.locator(`${field('date')} input`).fill('2027-04-01');
    await chooseDietary(frame, 'vegetarian');
    // No pause before leaving: the drafts go with the move.
    await frame.locator('a.step-by-step').click();
    await workbench.waitForQuickInputTitle('fixture · book_restaurant');
    const box = workbench.quickInput.locator('input').first();
    assert.equal(await box.inputValue(), '6', 'step 1 holds the party size typed in the form');
    await frame.locator('p.idle').waitFor();
    await workbench.screenshot('form-step-by-step');
    await workbench.page.keyboard.press('Enter');
    await workbench.quickInput.locator('.quick-input-message', { hasText: 'Reservation Date' }).waitFor();
    assert.equal(await box.inputValue(), '2027-04-01', 'step 2 holds the date typed in the form');
    // Changed in the steps, not yet accepted there: the way back takes it along.
    await workbench.typeInQuickInput('2027-04-02');
    await workbench.quickInput.getByRole('button', { name: 'Answer in the form' }).click();
    await workbench.waitForQuickInputHidden();
    frame = await formWith(workbench, 'Chez Steps');
    assert.equal(await frame.locator(`${field('party_size')} input`).inputValue(), '6');
    assert.equal(await frame.locator(`${field('date')} input`).inputValue(), '2027-04-02', 'the date changed in the steps');
    assert.equal(await frame.locator(`${field('dietary')} select`).evaluate((s) => (s as HTMLElement & { value: string }).value), 'vegetarian');
    await workbench.screenshot('form-back-from-steps');
    await frame.locator('button', { hasText: 'Submit' }).click();
    assert.deepEqual(await ui!.nextRecord('book_restaurant'), { action: 'accept', content: { party_size: 6, date: '2027-04-02', dietary: 'vegetarian' } });
    await results.next();
  });

  it('Run Tool asks for a tool\'s several arguments in the same form panel', async () => {
    const { workbench } = ui!;
    await openToolList(workbench, 'fixture');
    await workbench.pick('plan_trip');
    const frame = await formWith(workbench, 'Arguments for plan_trip');
    assert.equal(await frame.locator('.source').textContent(), 'fixture · plan_trip');
    assert.deepEqual(await frame.locator('[data-question-id] .label').allTextContents(), ['Destination', 'Nights', 'Travellers', 'Refundable']);
    assert.equal(await workbench.page.locator('.tab', { hasText: 'Agent Input' }).count(), 1, 'the one Agent Input panel');
    assert.equal(await frame.locator(`${field('nights')} input`).inputValue(), '3', 'defaults are filled');
    // The person's own question: Run or Cancel; nobody to decline to.
    assert.deepEqual((await frame.locator('.actions button').allTextContents()).map((t) => t.trim()), ['Run', 'Cancel']);
    assert.equal(await frame.locator('.actions .keys').textContent(), 'Ctrl+Enter to run · Escape to cancel');
    await frame.locator(`${field('destination')} input`).fill('Lisbon');
    await frame.locator(`${field('nights')} input`).fill('5');
    await frame.locator(`${field('travellers')} label`, { hasText: 'family' }).click();
    await frame.locator(`${field('refundable')} input[type="checkbox"]`).click();
    await workbench.screenshot('form-run-tool-arguments');
    await frame.locator('button', { hasText: 'Run' }).click();
    assert.deepEqual(await ui!.nextRecord('plan_trip'), { destination: 'Lisbon', nights: 5, travellers: 'family', refundable: false });
    await results.next();
  });

  it('an optional yes/no nobody touched is left out (the form shows it unanswered, Clear unanswers it; the quick pick offers Leave empty first)', async () => {
    const { workbench } = ui!;
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name' },
        agree: { type: 'boolean', title: 'Agree to the terms' },
        newsletter: { type: 'boolean', title: 'Newsletter' },
        updates: { type: 'boolean', title: 'Updates' },
      },
      required: ['name'],
    };
    const askSchema = async (json: object): Promise<void> => {
      await openToolList(workbench, 'fixture');
      await workbench.pick('ask_schema');
      const args = await formWith(workbench, 'Arguments for ask_schema');
      await args.locator(`${field('schema')} input`).fill(JSON.stringify(json));
      await args.locator('button', { hasText: 'Run' }).click();
    };
    await askSchema(schema);
    const frame = await formWith(workbench, 'Please answer');
    const box = (id: string) => frame.locator(`${field(id)} input[type="checkbox"]`);
    const unanswered = (id: string): Promise<boolean> => box(id).evaluate((b) => (b as HTMLElement & { indeterminate: boolean }).indeterminate);
    await frame.locator(`${field('name')} input`).fill('Ada');
    assert.deepEqual([await unanswered('agree'), await unanswered('newsletter'), await unanswered('updates')], [true, true, true], 'untouched optional yes/no questions show as unanswered');
    // Ticked, then cleared: unanswered again. Ticked and unticked: an answer, false.
    await box('newsletter').click();
    assert.equal(await unanswered('newsletter'), false);
    await frame.locator(`${field('newsletter')} a.clear`).click();
    assert.equal(await unanswered('newsletter'), true);
    await box('updates').click();
    await box('updates').click();
    assert.equal(await unanswered('updates'), false);
    await workbench.screenshot('form-optional-booleans');
    await frame.locator('button', { hasText: 'Submit' }).click();
    await results.next();
    await workbench.waitForEditorText(/"content":\{"name":"Ada","updates":false\}/);
    // Results are numbered per tool: other tools ran before, this is ask_schema's first.
    await workbench.page.locator('.tab', { hasText: 'ask_schema-1.md' }).waitFor();
    // One optional yes/no in the quick pick: Enter leaves it unanswered.
    await askSchema({ type: 'object', properties: { agree: { type: 'boolean', title: 'Agree to the terms' } } });
    await workbench.waitForQuickInputTitle('fixture · ask_schema');
    const active = workbench.quickInput.locator('.quick-input-list .monaco-list-row.focused');
    await active.filter({ hasText: 'Leave empty' }).waitFor();
    await workbench.page.keyboard.press('Enter');
    await results.next();
    await workbench.waitForEditorText(/"outcome":\{"action":"accept","content":\{\}\}/);
  });

  it("while the call's form is on screen its progress is in the status bar, not over the form; after, the notification's Cancel stops the call", async () => {
    const { workbench } = ui!;
    const { page } = workbench;
    const callToast = page.locator('.notifications-toasts .notification-list-item', { hasText: 'Cancel stops the tool call' });
    await runTool(workbench, 'fixture', 'ask_then_work', '60000');
    const frame = await formWith(workbench, 'Two fields, then some work');
    await page.locator('.statusbar-item', { hasText: 'waiting for your answer' }).first().waitFor({ timeout: 20_000 });
    // One Cancel on screen, the form's: the call's notification has given way.
    await callToast.waitFor({ state: 'detached', timeout: 20_000 });
    await workbench.screenshot('form-call-progress-in-status-bar');
    await frame.locator('button', { hasText: 'Submit' }).click();
    assert.deepEqual(await ui!.nextRecord('ask_then_work:asked'), { action: 'accept', content: {} });
    // The call goes on: its notification is back, and its Cancel stops the call (no error for that).
    await callToast.waitFor({ timeout: 20_000 });
    await workbench.screenshot('form-call-progress-back');
    await callToast.hover();
    await callToast.locator('.monaco-button', { hasText: 'Cancel' }).click();
    assert.deepEqual(await ui!.nextRecord('ask_then_work'), { stopped: true });
    await workbench.waitForNotification(/ask_then_work on fixture stopped\./);
  });

  it('looks right in a light theme, and no Content-Security-Policy rule is broken', async () => {
    const { workbench } = ui!;
    await workbench.runCommand('Preferences: Toggle between Light/Dark Themes');
    await workbench.page.locator('.monaco-workbench.vs').first().waitFor({ timeout: 20_000 });
    await runTool(workbench, 'fixture', 'book_restaurant', 'Chez Daylight');
    const frame = await formWith(workbench, 'Chez Daylight');
    await frame.locator(`${field('party_size')} input`).fill('30');
    await frame.locator(`${field('party_size')} .error`, { hasText: 'between 1 and 20' }).waitFor();
    await workbench.screenshot('form-book-restaurant-light');
    await frame.locator('button', { hasText: 'Cancel' }).click();
    assert.deepEqual(await ui!.nextRecord('book_restaurant'), { action: 'cancel' });
    await results.next();
    // The page reports policy violations to the host, which logs them (the shipped build has no benchmark log).
    const log = extensionLog(ui!.server.userDataDir);
    assert.match(log, /Elicitation Host .* activated/);
    assert.deepEqual(log.split('\n').filter((line) => line.includes('CSP violation')), []);
  });

  it('in a high-contrast theme every field and button is outlined in the theme\'s contrast colour', async () => {
    const { workbench } = ui!;
    await workbench.runCommand('Preferences: Color Theme');
    await workbench.pick('Dark High Contrast');
    await workbench.page.locator('.monaco-workbench.hc-black').first().waitFor({ timeout: 20_000 });
    await runTool(workbench, 'fixture', 'book_restaurant', 'Chez Contrast');
    const frame = await formWith(workbench, 'Chez Contrast');
    await frame.locator(`${field('party_size')} input`).fill('30');
    await frame.locator(`${field('party_size')} .error`, { hasText: 'between 1 and 20' }).waitFor();
    const colours = await frame.locator('body').evaluate(() => {
      // The theme's contrast border, resolved the way the browser resolves any colour.
      const probe = document.createElement('div');
      probe.style.color = 'var(--vscode-contrastBorder)';
      document.body.append(probe);
      const contrast = getComputedStyle(probe).color;
      probe.remove();
      // No helper functions in here: the test runner's transform would name them with a
      // function the page does not have.
      const borders: Record<string, string> = {};
      for (const selector of ['[data-question-id="date"] input', 'select', 'button']) {
        const control = document.querySelector(selector);
        const style = control ? getComputedStyle(control) : undefined;
        borders[selector] = style && style.borderTopStyle !== 'none' && parseFloat(style.borderTopWidth) > 0 ? style.borderTopColor : 'none';
      }
      return { contrast, borders };
    });
    const { contrast, borders: outlines } = colours;
    assert.match(contrast, /^rgb/, 'the theme defines a contrast border');
    for (const [control, borders] of Object.entries(outlines)) {
      assert.ok(borders.includes(contrast), `${control} is outlined in ${contrast}, not ${borders}`);
    }
    await workbench.screenshot('form-book-restaurant-high-contrast');
    await frame.locator('button', { hasText: 'Cancel' }).click();
    assert.deepEqual(await ui!.nextRecord('book_restaurant'), { action: 'cancel' });
    await results.next();
  });
});
