/// <reference lib="dom" />
/**
 * UI scenarios: a remote server that needs a sign-in (test/fixtures/servers/protected.ts,
 * a fixture server behind its own OAuth 2.1 authorization server). It shows "sign in
 * required" and opens nothing by itself; Sign In asks once (the server, the authorization
 * server's site and the exact link), the browser comes back through our URI handler, and
 * the tools are listed; an expired token is refreshed unnoticed; Sign Out forgets it all.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HttpFixture, startHttpFixture } from '../support/servers';
import { versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';
import { collapseServers, fromServerMenu, openToolList, serverRow } from './ui-steps';

describe(`UI: signing in to a remote server (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let server: HttpFixture;
  /** The same, whose authorization server registers loopback redirects only. */
  let loopbackOnly: HttpFixture;
  let dir: string;
  let recordFile: string;
  const endpoints = (): string[] =>
    existsSync(recordFile)
      ? readFileSync(recordFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => {
          const r = JSON.parse(l) as { endpoint: string; grant?: string };
          return r.grant ? `${r.endpoint}:${r.grant}` : r.endpoint;
        })
      : [];
  const securedRow = async (pattern: RegExp): Promise<string> => {
    const rows = await ui!.workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('secured') && pattern.test(row)), 30_000);
    return rows.find((row) => row.startsWith('secured'))!;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eh-ui-sign-in-'));
    recordFile = join(dir, 'record.jsonl');
    // The sign-in page on 127.0.0.2: VS Code for the Web would forward a 127.0.0.1 page through its proxy.
    server = await startHttpFixture(['--record', recordFile, '--browser-host', '127.0.0.2'], {}, 'protected.js');
    loopbackOnly = await startHttpFixture(['--browser-host', '127.0.0.2', '--redirects', 'loopback'], {}, 'protected.js');
    // An empty folder: only this server in the view.
    ui = await startUi(
      'sign-in',
      {
        'elicitationHost.servers': {
          secured: { type: 'http', url: `http://127.0.0.1:${server.port}/mcp` },
          'loopback-only': { type: 'http', url: `http://127.0.0.1:${loopbackOnly.port}/mcp` },
        },
        'elicitationHost.autoStart': ['*'],
      },
      {},
      dir,
    );
  });
  uiHooks(() => ui, async () => {
    await server?.stop();
    await loopbackOnly?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a server that answers 401 shows "sign in required" and opens nothing by itself', async () => {
    const { workbench } = ui!;
    await workbench.openAgentInputs();
    const row = await securedRow(/sign in required/);
    assert.match(row, /sign in required/);
    assert.deepEqual(endpoints().filter((e) => e === 'authorize'), [], 'no browser went to the authorization server');
    assert.equal(workbench.page.context().pages().length, 1, 'no page opened');
    await workbench.screenshot('sign-in-required');
  });

  it('Sign In asks once, naming the server and the site with the exact link; the browser comes back and the tools are listed', async () => {
    const { workbench } = ui!;
    const row = serverRow(workbench, 'secured');
    await row.hover();
    await row.locator('.action-label[aria-label="Sign In"]').click();
    await workbench.dialog.waitFor({ timeout: 20_000 });
    const text = await workbench.dialog.innerText();
    assert.match(text, new RegExp(`Sign in to "secured" at 127\\.0\\.0\\.2:${server.port}\\?`));
    assert.match(text, new RegExp(`http://127\\.0\\.0\\.2:${server.port}/authorize\\?\\S*code_challenge_method=S256`));
    await workbench.screenshot('sign-in-consent');
    const popup = workbench.page.context().waitForEvent('page', { timeout: 20_000 });
    await workbench.clickDialogButton('Open');
    // The sign-in page approves at once and sends the browser back to VS Code's callback page.
    const tab = await popup;
    await tab.waitForLoadState();
    // The person comes back to VS Code.
    await tab.close();
    await workbench.page.bringToFront();
    const rowText = await securedRow(/\d+ tools?/);
    assert.match(rowText, /\d+ tools · 2025-11-25 · streamable-http/);
    assert.deepEqual(endpoints(), ['register', 'authorize', 'token:authorization_code']);
    await workbench.screenshot('signed-in');
    // Forget Saved Inputs offers the sign-in too (it is kept in SecretStorage).
    await workbench.runCommand('Elicitation Host: Forget Saved Inputs…');
    await workbench.waitForQuickInputTitle('Forget Saved Inputs');
    assert.ok((await workbench.quickPickRows()).some((r) => r.includes('Sign-in to secured')), `listed: ${(await workbench.quickPickRows()).join(' | ')}`);
    await workbench.page.keyboard.press('Escape');
    await workbench.waitForQuickInputHidden();
  });

  it('an access token that expired is refreshed without the person noticing: the call just works', async () => {
    const { workbench } = ui!;
    await fetch(`http://127.0.0.1:${server.port}/test/expire-all`, { method: 'POST' });
    await openToolList(workbench, 'secured');
    await workbench.pick('echo');
    await workbench.waitForQuickInputTitle('secured · echo');
    await workbench.typeInQuickInput('after the refresh');
    await workbench.page.keyboard.press('Enter');
    await workbench.page.locator('.tab', { hasText: 'echo-' }).first().waitFor({ timeout: 20_000 });
    assert.match(await workbench.editorText(), /after the refresh/);
    assert.deepEqual(endpoints(), ['register', 'authorize', 'token:authorization_code', 'token:refresh_token'], 'refreshed, not signed in again');
    assert.equal(await workbench.dialog.isVisible(), false, 'nothing was asked');
    await workbench.runCommand('View: Close Editor');
  });

  it('an authorization server that registers no redirect to VS Code: the sign-in comes back to a loopback address instead', async () => {
    const { workbench } = ui!;
    await collapseServers(workbench);
    const waiting = await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('loopback-only') && /sign in required/.test(row)), 30_000);
    assert.ok(waiting.some((row) => row.startsWith('loopback-only') && /sign in required/.test(row)), waiting.join(' | '));
    const row = serverRow(workbench, 'loopback-only');
    await row.hover();
    await row.locator('.action-label[aria-label="Sign In"]').click();
    await workbench.dialog.waitFor({ timeout: 20_000 });
    const text = await workbench.dialog.innerText();
    assert.match(text, /redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/, `the loopback redirect: ${text}`);
    const popup = workbench.page.context().waitForEvent('page', { timeout: 20_000 });
    await workbench.clickDialogButton('Open');
    const tab = await popup;
    await tab.waitForLoadState();
    assert.match(await tab.locator('body').innerText(), /Signed in: you can close this tab/);
    await tab.close();
    const rows = await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('loopback-only') && /\d+ tools/.test(row)), 30_000);
    assert.ok(rows.some((r) => r.startsWith('loopback-only') && /streamable-http/.test(r)), rows.join(' | '));
  });

  it('Sign Out forgets the tokens and the registration: started again, it needs a sign-in', async () => {
    const { workbench } = ui!;
    const row = () => serverRow(workbench, 'secured');
    await collapseServers(workbench);
    await fromServerMenu(workbench, 'secured', 'Sign Out');
    await workbench.waitForNotification(/Signed out of secured: its tokens and registration are forgotten/);
    await securedRow(/stopped/);
    await row().hover();
    await row().locator('.action-label[aria-label^="Start Server"]').click();
    await securedRow(/sign in required/);
    assert.equal(endpoints().filter((e) => e === 'authorize').length, 1, 'no second sign-in started by itself');
    await workbench.screenshot('signed-out');
  });
});
