/**
 * UI scenarios: URL-mode review links and multi round-trip calls in the real workbench.
 * The link opens in the person's browser (here: a new Chromium tab, caught as a popup),
 * at a review page the fixture server serves on loopback.
 */
/// <reference lib="dom" />
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { FIXTURES, userServerSettings, versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';
import { ResultTabs, runTool } from './ui-steps';

describe(`UI: review links and multi round-trip calls (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let results: ResultTabs;

  before(async () => {
    const servers = userServerSettings()['elicitationHost.servers'] as Record<string, unknown>;
    ui = await startUi('links', {
      // A server written the 2026-07-28 way, from the user settings.
      'elicitationHost.servers': { ...servers, modern: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, 'modern.js')] } },
    });
    results = new ResultTabs(ui.workbench);
  });
  uiHooks(() => ui);

  it('the link prompt shows who asks, the site on its own line, the whole link and its warnings', async () => {
    const { workbench } = ui!;
    // The argument: which trick the link plays.
    await runTool(workbench, 'fixture', 'hostile_link', { pick: 'userinfo' });
    await workbench.dialog.waitFor({ timeout: 20_000 });
    const text = await workbench.dialog.innerText();
    assert.match(text, /"fixture" \(hostile_link\) asks you to open a link to evil\.example/);
    assert.match(text, /Site:\s+evil\.example/);
    assert.match(text, /https:\/\/bank\.example\.com@evil\.example\/login/);
    assert.match(text, /puts "bank\.example\.com" before an @ sign: that is a user name, not the site\. The site is evil\.example\./);
    await workbench.screenshot('link-prompt-warnings');
    await workbench.clickDialogButton('Decline');
    assert.deepEqual(await ui!.nextRecord('hostile_link'), { kind: 'userinfo', action: 'decline' });
    await results.next();
  });

  it('a look-alike host: the dialog\'s heading names the site in ASCII, and the server\'s message comes after the facts', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'hostile_link', { pick: 'idn' });
    await workbench.dialog.waitFor({ timeout: 20_000 });
    const text = await workbench.dialog.innerText();
    assert.match(text, /"fixture" \(hostile_link\) asks you to open a link to xn--pple-43d\.com/);
    const flat = text.replace(/\s+/g, ' ');
    const facts = ['Site: xn--pple-43d.com', 'Link: https://xn--pple-43d.com/account', 'can imitate other letters', "The server's message:", 'Open this (idn)'].map((part) => flat.indexOf(part));
    assert.ok(facts.every((at, i) => at >= 0 && (i === 0 || at > facts[i - 1])), `site, link, warning, then the message: ${text}`);
    await workbench.clickDialogButton('Decline');
    assert.deepEqual(await ui!.nextRecord('hostile_link'), { kind: 'idn', action: 'decline' });
    await results.next();
  });

  it('a link that is not a web page is refused with a notice, and the server hears decline', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'hostile_link', { pick: 'javascript' });
    assert.deepEqual(await ui!.nextRecord('hostile_link'), { kind: 'javascript', action: 'decline' });
    await results.next();
    await workbench.waitForNotification(/A link from fixture · hostile_link was refused: links with the scheme "javascript:" are not opened/);
  });

  it('Open opens exactly that page in the browser, asked once: VS Code does not ask again, and trusts the site no longer after', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'fixture', 'review_change', '0');
    await workbench.dialog.waitFor({ timeout: 20_000 });
    const text = await workbench.dialog.innerText();
    const url = /(http:\/\/127\.0\.0\.2:\d+\/review\/[\w-]+\?\S+)/.exec(text)?.[1];
    assert.ok(url, `the prompt shows the link: ${text}`);
    assert.match(text, /Site:\s+127\.0\.0\.2/);
    await workbench.screenshot('link-prompt-review');
    const popup = workbench.page.context().waitForEvent('page', { timeout: 20_000 });
    await workbench.clickDialogButton('Open');
    // The page opens on our one consent: VS Code's "open the external website?" would hold it back.
    const tab = await popup.catch(async (error: unknown) => {
      const asked = (await workbench.dialog.isVisible()) ? await workbench.dialog.innerText() : 'no dialog';
      throw new Error(`the browser opened no page after our Open (${String(error)}); on screen: ${asked}`);
    });
    await tab.waitForLoadState();
    assert.equal(tab.url(), url, 'the browser opened exactly the link that was shown, escapes and all');
    const accepted = await ui!.nextRecord('review_change');
    assert.equal(accepted.action, 'accept');
    await results.next();
    await tab.locator('#approve').click();
    await tab.locator('#done').waitFor();
    await tab.close();
    await workbench.waitForNotification(/Review in fixture completed: Review and approve change #42/);
    await workbench.screenshot('link-review-completed');
    // The site was lent to VS Code's trusted sites for that one open: its list is as before.
    await workbench.runCommand('Manage Trusted Domains');
    await workbench.page.locator('.tabs-container .tab', { hasText: 'Trusted Domains' }).waitFor({ timeout: 10_000 });
    const trusted = await workbench.waitForEditorText(/Links matching one or more entries/);
    assert.doesNotMatch(trusted, /127\.0\.0\.2/, 'the review site is not left trusted');
    await workbench.runCommand('View: Close Editor');
  });

  it('a two-round tool call through Run Tool: a form, then a confirm, then the result', async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'modern', 'plan_trip', 'Grace');
    // Round 1: two fields, in the form panel.
    const frame = workbench.webview();
    await frame.locator('h1.message', { hasText: 'Where should Grace go?' }).waitFor({ timeout: 30_000 });
    await frame.locator('[data-question-id="destination"] input').fill('Porto');
    await frame.locator('[data-question-id="nights"] input').fill('5');
    await workbench.screenshot('rounds-form');
    await frame.locator('button', { hasText: 'Submit' }).click();
    // Round 2: a yes/no question, in the quick input.
    await workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Book 5 nights in Porto?' }).waitFor({ timeout: 20_000 });
    await workbench.clickRow(/Accept/);
    await workbench.page.locator('.tab', { hasText: 'plan_trip-' }).first().waitFor({ timeout: 20_000 });
    await workbench.waitForEditorText(/\{"destination":"Porto","nights":5,"booked":true\}/);
    await workbench.screenshot('rounds-result');
  });
});
