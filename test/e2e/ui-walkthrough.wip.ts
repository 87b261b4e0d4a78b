/**
 * NOT YET IN THE SUITE (named .wip.ts so the e2e glob does not run it): on 1.139 the .vsix
 * installs from the palette ("Completed installing extension", activated), but the walkthrough
 * did not open by itself and the Agent Inputs entry did not appear without a reload; "Welcome:
 * Open Walkthrough…" listed and opened it. To finish: find what the web workbench needs to
 * treat this install as a session install, then rename to .test.ts.
 *
 * UI scenario: the Get Started walkthrough, as a new user meets it. The workbench starts
 * without the extension; it is installed the way a person installs a .vsix (Extensions:
 * Install from VSIX…), and VS Code opens the walkthrough on that install (its setting
 * workbench.welcomePage.walkthroughs.openOnInstall, on by default, which the other scenarios
 * turn off). Its "Try it with no server" step completes by doing it: the sample's confirm,
 * form and link, answered in our prompts. It is also listed where VS Code lists walkthroughs.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { closeBrowser, provisioned, requireBuilt, RESULTS, sharedBrowser, versionName, VSIX } from './context';
import { type RunningVsCode, startVsCodeServer } from './harness/server';
import { Workbench } from './harness/workbench';
import { waitUntil } from '../support/wait';

const WALKTHROUGH_TITLE = 'Get Started with Elicitation Host';
const step = (id: string): string => `button.getting-started-step[data-step-id$="#getStarted#${id}"]`;

/** The document of the webview that shows this text (the walkthrough's own markdown is a webview too). */
async function webviewWith(workbench: Workbench, selector: string, text: string): Promise<FrameLocator> {
  const frames = workbench.page.frameLocator('iframe.webview');
  return waitUntil(`a webview showing "${text}"`, async () => {
    const count = await workbench.page.locator('iframe.webview').count();
    for (let i = 0; i < count; i++) {
      const frame = frames.nth(i).frameLocator('#active-frame');
      if (await frame.locator(selector, { hasText: text }).count().catch(() => 0)) return frame;
    }
    return undefined;
  }, 30_000);
}

describe(`UI: the Get Started walkthrough (VS Code ${versionName()})`, function () {
  this.timeout(6 * 60_000);
  let server: RunningVsCode | undefined;
  let workbench: Workbench | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'eh-ui-walkthrough-'));

  before(async () => {
    requireBuilt(VSIX);
    const vscode = await provisioned();
    server = await startVsCodeServer({
      vscode,
      workspaceTrust: false,
      smokeTestDriver: false,
      // Nothing installed: the scenario installs the extension itself.
      extensionsDir: join(dir, 'extensions'),
      userSettings: { 'workbench.colorTheme': 'Default Dark Modern', 'workbench.welcomePage.walkthroughs.openOnInstall': true },
    });
    const folder = mkdtempSync(join(dir, 'workspace-'));
    workbench = await Workbench.openUrl(await sharedBrowser(), server.workbenchUrl({ folder }), join(RESULTS, versionName()), { waitForExtension: false });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && workbench) {
      const path = await workbench.screenshot(`FAILED-walkthrough-${this.currentTest.title.replace(/[^\w-]+/g, '_').slice(0, 80)}`).catch(() => undefined);
      if (path) process.stdout.write(`      screenshot: ${path}\n`);
      await workbench.dismissLeftovers();
    }
  });
  after(async () => {
    await workbench?.close().catch(() => undefined);
    await server?.stop();
    await closeBrowser();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens on install from a .vsix', async () => {
    const wb = workbench!;
    await wb.runCommand('Extensions: Install from VSIX...');
    // VS Code's own file dialog in a remote window: the path typed, then accepted.
    const input = wb.quickInput.locator('input').first();
    await input.waitFor();
    await input.fill(VSIX);
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.gettingStartedContainer', { hasText: WALKTHROUGH_TITLE }).first().waitFor({ timeout: 60_000 });
    await wb.page.locator(step('trySample')).first().waitFor();
    await wb.screenshot('walkthrough-opened-on-install');
    const steps = await wb.page.locator('button.getting-started-step').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-step-id')?.split('#').pop()));
    assert.deepEqual(steps, ['addServer', 'trySample', 'runTool', 'connectAgent', 'whereAnswers']);
    assert.equal(await wb.page.locator(step('trySample')).getAttribute('aria-checked'), 'false', 'not done before it is done');
  });

  it('"Try it with no server" completes by answering the sample: a confirm, a form and a link, headed Sample, nothing sent', async () => {
    const wb = workbench!;
    await wb.page.locator(step('trySample')).click();
    await wb.page.locator('.getting-started-step.expanded .monaco-button, .getting-started-step.expanded a', { hasText: 'Try a Sample Question' }).first().click();
    // The confirm, in the quick pick, headed with who asks.
    await wb.waitForQuickInputTitle('Sample');
    await wb.pick('Accept');
    // The form, in our panel, filled with its defaults.
    const form = await webviewWith(wb, 'h1.message', 'A server asking for several values');
    assert.equal(await form.locator('.source').textContent(), 'Sample');
    await wb.screenshot('walkthrough-sample-form');
    await form.locator('vscode-button', { hasText: 'Submit' }).click();
    // The link: the person started it, so a dialog; it opens only on Open, and here it is declined.
    await wb.dialog.waitFor({ timeout: 20_000 });
    assert.match(await wb.dialog.innerText(), /example\.com/);
    await wb.clickDialogButton('Decline');
    const summary = await wb.waitForNotification(/Nothing was sent anywhere/);
    assert.match(summary, /confirm: accept; form: accept with \{"name":"Ada","guests":2,"date":"2026-12-24","seating":"inside","reminder":true\}; link: decline/);
    // Back on the walkthrough, the step is done.
    await wb.runCommand('Elicitation Host: Get Started');
    await wb.page.locator(`${step('trySample')}[aria-checked="true"]`).waitFor({ timeout: 20_000 });
    await wb.screenshot('walkthrough-step-done');
  });

  it('is listed with the walkthroughs VS Code offers, and opens from there', async () => {
    const wb = workbench!;
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('View: Close All Editors');
    await wb.runCommand('Welcome: Open Walkthrough...');
    await wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: WALKTHROUGH_TITLE }).first().waitFor({ timeout: 20_000 });
    await wb.pick(WALKTHROUGH_TITLE);
    await wb.page.locator('.gettingStartedContainer', { hasText: WALKTHROUGH_TITLE }).first().waitFor({ timeout: 20_000 });
    assert.equal(await wb.page.locator(step('trySample')).getAttribute('aria-checked'), 'true', 'the step stays done');
  });
});
