/// <reference lib="dom" />
/**
 * UI scenarios: server text that VS Code widgets could take for markup (icon syntax, a
 * command link, HTML) is shown as text on every surface: the quick input's prompts, options
 * and messages, the Run Tool list, the destructive modal (which also shows a bidi override as
 * <U+202E>), notices, the Pending Inputs view,
 * the pending list, and an error notification carrying a crashed server's last words.
 */
import { strict as assert } from 'node:assert';
import type { Locator } from 'playwright-core';
import { versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';
import { openToolList, ResultTabs, runTool, waitForPrompt } from './ui-steps';

/** What the markup-like fixture text must look like on screen: exactly as the server wrote it. */
const MARKUP_PARTS = ['$(alert)', '[Open settings]', '(command:workbench.action.openSettings)', '<img src=x onerror=alert(1)>'];

/**
 * Checks that a surface shows server text that looks like markup as text: no icon drawn
 * from `$(alert)`, no link made from `[...](command:...)`, no escape characters showing.
 */
async function assertShownAsText(surface: Locator, what: string, parts: readonly string[] = MARKUP_PARTS): Promise<void> {
  const seen = await surface.evaluate((element) => ({
    icons: element.querySelectorAll('.codicon-alert').length,
    commandLinks: element.querySelectorAll('a[href^="command:"]').length,
    text: (element as HTMLElement).innerText.replace(/\u200b/g, '').replace(/\s+/g, ' '),
  }));
  assert.equal(seen.icons, 0, `${what}: "$(alert)" was drawn as an icon`);
  assert.equal(seen.commandLinks, 0, `${what}: a command link was made from server text`);
  for (const part of parts) assert.ok(seen.text.includes(part), `${what} shows ${part} literally: ${seen.text.slice(0, 400)}`);
  assert.ok(!seen.text.includes('\\$('), `${what} shows an escape character: ${seen.text.slice(0, 400)}`);
}

describe(`UI: server text is text on every surface (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let results: ResultTabs;

  before(async () => {
    ui = await startUi('markup');
    results = new ResultTabs(ui.workbench);
  });
  uiHooks(() => ui);

  it('server text that looks like markup (icons, command links, HTML) is shown as text on every surface', async () => {
    const { workbench } = ui!;
    const page = workbench.page;
    await workbench.openAgentInputs();
    for (const shape of ['confirm', 'pick', 'input', 'many']) {
      await runTool(workbench, 'fixture', 'markup_text', { pick: shape });
      await waitForPrompt(workbench, /Question/);
      // Away from the input, whose tooltip would cover the rows in screenshots.
      await page.mouse.move(700, 600);
      await page.locator('.monaco-hover').first().waitFor({ state: 'hidden' });
      await assertShownAsText(workbench.quickInput, `the ${shape} prompt`);
      if (shape === 'many') {
        // A message longer than the filter box shows is read first, on a step of its own.
        await workbench.clickRow(/Continue/);
        await waitForPrompt(workbench, /Plain/);
        await page.mouse.move(700, 600);
        const placeholder = await workbench.placeholder();
        assert.ok(placeholder.includes('Picks $(alert) [Open settings]'), `the placeholder shows the field as it is: ${placeholder}`);
        await assertShownAsText(workbench.quickInput, `the ${shape} prompt's options`, ['Item $(alert) [Open settings]', 'Picks $(alert)']);
        // The group's label sits at the right of the first row: it must not cover that option.
        const firstOption = workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Item' }).locator('.label-name').first();
        const covered = await firstOption.evaluate((label) => {
          const box = label.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + 4, box.top + box.height / 2);
          return !hit || !label.contains(hit);
        });
        assert.equal(covered, false, 'the first option is readable, not covered by the group label');
      }
      await workbench.screenshot(`prompt-markup-${shape}`);
      if (shape === 'input') {
        // A server's question has its Decline button (Run Tool's own arguments have none: ui-servers).
        await workbench.quickInput.locator('.quick-input-titlebar .action-label[aria-label^="Decline"]').first().waitFor();
        // The validation message names the field: the same rules hold there.
        await page.keyboard.press('Enter');
        await workbench.quickInput.locator('.quick-input-message', { hasText: 'is required' }).waitFor();
        await assertShownAsText(workbench.quickInput.locator('.quick-input-message'), 'the validation message', ['Answer $(alert) [Open settings]']);
      }
      await page.keyboard.press('Escape');
      assert.deepEqual(await ui!.nextRecord('markup_text'), { shape, action: 'cancel' });
      await results.next();
    }

    // A tool whose title looks like markup: the Run Tool list, its arguments prompt, the
    // destructive modal, and the notice when the question is withdrawn under the modal.
    await openToolList(workbench, 'fixture');
    await workbench.typeInQuickInput('markup_destructive');
    const toolRow = workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'markup_destructive' }).first();
    await toolRow.waitFor();
    await assertShownAsText(toolRow, 'the Run Tool row', ['Destructive $(alert) [Open settings]']);
    await page.keyboard.press('Enter');
    await workbench.quickInput.locator('.quick-input-message', { hasText: 'Arguments for' }).waitFor({ timeout: 20_000 });
    await assertShownAsText(workbench.quickInput, 'the arguments prompt');
    await workbench.typeInQuickInput('3000');
    await page.keyboard.press('Enter');
    await workbench.dialog.waitFor({ timeout: 20_000 });
    // What hides or reorders text is shown in a dialog, where the person approves what they read.
    await assertShownAsText(workbench.dialog, 'the destructive modal', [...MARKUP_PARTS, 'Pay <U+202E>txt.exe']);
    await workbench.screenshot('prompt-markup-modal');
    const notice = page.locator('.notifications-toasts .notification-list-item', { hasText: 'no longer answers anything' });
    await notice.waitFor({ timeout: 20_000 });
    await assertShownAsText(notice, 'the notice that the question was withdrawn', ['Destructive $(alert) [Open settings]', 'withdrawn $(alert) [Open settings]']);
    await workbench.screenshot('prompt-markup-withdrawn-under-modal');
    await workbench.clickDialogButton('Accept');
    // The server withdrew the question: the late click answers nothing.
    assert.equal((await ui!.nextRecord('markup_destructive')).action, undefined);
    await results.next();

    // The pending list, the Pending Inputs view and the status bar.
    await openToolList(workbench, 'fixture');
    await workbench.pick('markup_title');
    await workbench.quickInput.locator('.quick-input-message', { hasText: 'Arguments for' }).waitFor({ timeout: 20_000 });
    await page.keyboard.press('Enter');
    await waitForPrompt(workbench, /Really/);
    // The call's progress, in the status bar while its question is open (the status bar draws icons).
    const progress = page.locator('.statusbar-item', { hasText: 'waiting for your answer' }).first();
    await progress.waitFor({ timeout: 20_000 });
    await assertShownAsText(progress, "the call's progress in the status bar", ['Markup $(alert) [Open settings]']);
    const rows = await workbench.waitForViewRows(/Pending Inputs/, (r) => r.some((row) => row.includes('Really')));
    assert.ok(rows.some((row) => row.includes('Markup $(alert) [Open settings]') && row.includes('Really $(alert)')), `the Pending Inputs view: ${rows.join(' | ')}`);
    const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Pending Inputs/ }) }).first();
    await assertShownAsText(pane, 'the Pending Inputs view', ['Markup $(alert) [Open settings]']);
    await workbench.pendingStatusItem.click();
    await workbench.waitForQuickInputTitle('Pending Agent Inputs');
    await assertShownAsText(workbench.quickInput, 'the pending list', ['Markup $(alert) [Open settings]', 'Really $(alert) [Open settings]']);
    await workbench.screenshot('prompt-markup-pending-list');
    await page.keyboard.press('Escape');
    // The list closes and the question comes back.
    await waitForPrompt(workbench, /Accept/);
    // Escape reaches the question once its quick input has the focus back.
    await workbench.quickInput.locator('input:focus').waitFor();
    await page.keyboard.press('Escape');
    assert.deepEqual(await ui!.nextRecord('markup_title'), { action: 'cancel' });
    await results.next();
  });

  it("an error notification shows server text as text: a tool's markup title and a crashed server's last words", async () => {
    const { workbench } = ui!;
    await openToolList(workbench, 'second');
    await workbench.pick('markup_crash');
    const error = workbench.page.locator('.notifications-toasts .notification-list-item', { hasText: /on second failed/ });
    await error.waitFor({ timeout: 20_000 });
    const text = await error.innerText();
    assert.match(text, /second disconnected before answering \(the server exited with code 3; last output: /, `the error says how the server ended: ${text}`);
    await assertShownAsText(error, 'the error notification', ['Crashing $(alert) [Open settings](command:workbench.action.openSettings) <img src=x onerror=alert(1)>', 'last words $(alert) [Open settings](command:workbench.action.openSettings) <img src=x onerror=alert(1)>']);
    // The call's progress notification leaves; the error is then the only toast of the tool.
    await workbench.page.locator('.notifications-toasts .notification-list-item', { hasText: /Crashing/ }).and(workbench.page.locator(':not(:has-text("failed"))')).waitFor({ state: 'detached', timeout: 20_000 });
    // Expanded, so the screenshot shows it whole.
    await error.hover();
    await error.locator('.action-label[aria-label^="Expand"]').click();
    await error.locator('.action-label[aria-label^="Collapse"]').waitFor();
    await assertShownAsText(error, 'the expanded error notification', ['last words $(alert) [Open settings](command:workbench.action.openSettings) <img src=x onerror=alert(1)>']);
    await workbench.screenshot('prompt-markup-error-notification');
  });
});
