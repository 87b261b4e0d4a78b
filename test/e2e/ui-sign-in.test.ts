/// <reference lib="dom" />
/**
 * UI scenarios: a remote server that needs a sign-in (test/fixtures/servers/protected.ts,
 * a fixture server behind its own OAuth 2.1 authorization server). It shows "sign in
 * required" and opens nothing by itself; Sign In asks once (the server, the authorization
 * server's site and the exact link), the browser comes back through our URI handler, and
 * the tools are listed and its questions reach the person; an expired token is refreshed
 * unnoticed; a call that needs more scope
 * asks and signs in again (registered again for the web window's new address); Sign Out
 * forgets it all.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HttpFixture, startHttpFixture } from '../support/servers';
import { versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';
import { collapseServers, fromServerMenu, openToolList, runTool, serverRow, waitForPrompt } from './ui-steps';

describe(`UI: signing in to a remote server (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let server: HttpFixture;
  /** The same, whose authorization server registers loopback redirects only. */
  let loopbackOnly: HttpFixture;
  /** The same, whose tools/call needs the scope tools:call beyond a first sign-in's. */
  let stepped: HttpFixture;
  /** The same, whose authorization server knows clients by their metadata documents and registers none. */
  let byDocument: HttpFixture;
  let documentRecord: string;
  let dir: string;
  let recordFile: string;
  let steppedRecord: string;
  /** Every token the first server issued. */
  let tokensFile: string;
  const endpoints = (file = recordFile): string[] =>
    existsSync(file)
      ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => {
          const r = JSON.parse(l) as { endpoint: string; grant?: string };
          return r.grant ? `${r.endpoint}:${r.grant}` : r.endpoint;
        })
      : [];
  const securedRow = async (pattern: RegExp): Promise<string> => {
    const rows = await ui!.workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('secured') && pattern.test(row)), 30_000);
    return rows.find((row) => row.startsWith('secured'))!;
  };

  /** Clicks a server row's inline Sign In. */
  const clickSignIn = async (name: string): Promise<void> => {
    const row = serverRow(ui!.workbench, name);
    await row.hover();
    await row.locator('.action-label[aria-label="Sign In"]').click();
  };
  /**
   * The sign-in dialog: `check` reads its text, then Open; the sign-in page approves at once
   * and sends the browser back, and the person comes back to VS Code. The page's text.
   */
  const approveSignIn = async (check: (dialogText: string) => void | Promise<void>): Promise<string> => {
    const { workbench } = ui!;
    await workbench.dialog.waitFor({ timeout: 20_000 });
    await check(await workbench.dialog.innerText());
    const popup = workbench.page.context().waitForEvent('page', { timeout: 20_000 });
    await workbench.clickDialogButton('Open');
    const tab = await popup;
    await tab.waitForLoadState();
    const page = await tab.locator('body').innerText();
    await tab.close();
    await workbench.page.bringToFront();
    return page;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eh-ui-sign-in-'));
    recordFile = join(dir, 'record.jsonl');
    steppedRecord = join(dir, 'stepped.jsonl');
    tokensFile = join(dir, 'tokens.txt');
    documentRecord = join(dir, 'by-document.jsonl');
    // The sign-in page on 127.0.0.2: VS Code for the Web would forward a 127.0.0.1 page through its proxy.
    server = await startHttpFixture(['--record', recordFile, '--record-tokens', tokensFile, '--browser-host', '127.0.0.2'], {}, 'protected.js');
    loopbackOnly = await startHttpFixture(['--browser-host', '127.0.0.2', '--redirects', 'loopback'], {}, 'protected.js');
    stepped = await startHttpFixture(['--record', steppedRecord, '--browser-host', '127.0.0.2', '--step-up', 'tools:call'], {}, 'protected.js');
    byDocument = await startHttpFixture(['--record', documentRecord, '--browser-host', '127.0.0.2', '--cimd', '--no-registration'], {}, 'protected.js');
    // An empty folder: only this server in the view.
    ui = await startUi(
      'sign-in',
      {
        'elicitationHost.servers': {
          secured: { type: 'http', url: `http://127.0.0.1:${server.port}/mcp` },
          'loopback-only': { type: 'http', url: `http://127.0.0.1:${loopbackOnly.port}/mcp` },
          stepped: { type: 'http', url: `http://127.0.0.1:${stepped.port}/mcp` },
          'by-document': { type: 'http', url: `http://127.0.0.1:${byDocument.port}/mcp` },
        },
        'elicitationHost.oauth.clientMetadataUrl': 'https://client.example/elicitation-host.json',
        'elicitationHost.autoStart': ['*'],
      },
      {},
      dir,
    );
  });
  uiHooks(() => ui, async () => {
    await server?.stop();
    await loopbackOnly?.stop();
    await stepped?.stop();
    await byDocument?.stop();
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
    await clickSignIn('secured');
    await approveSignIn(async (text) => {
      assert.match(text, new RegExp(`Sign in to "secured" at 127\\.0\\.0\\.2:${server.port}\\?`));
      assert.match(text, new RegExp(`http://127\\.0\\.0\\.2:${server.port}/authorize\\?\\S*code_challenge_method=S256`));
      await workbench.screenshot('sign-in-consent');
    });
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
    await workbench.waitForEditorText(/after the refresh/);
    assert.deepEqual(endpoints(), ['register', 'authorize', 'token:authorization_code', 'token:refresh_token'], 'refreshed, not signed in again');
    assert.equal(await workbench.dialog.isVisible(), false, 'nothing was asked');
    await workbench.runCommand('View: Close Editor');
  });

  it("once signed in, the server's questions reach the person as any server's", async () => {
    const { workbench } = ui!;
    await runTool(workbench, 'secured', 'check_stock', 'blue paint');
    await waitForPrompt(workbench, 'Which warehouse should I check for blue paint?');
    await workbench.clickRow(/Lyon/);
    await workbench.page.locator('.tab', { hasText: 'check_stock-' }).first().waitFor({ timeout: 20_000 });
    await workbench.waitForEditorText(/"action":\s*"accept"[\s\S]*"warehouse":\s*"wh-lyon"/);
    await workbench.runCommand('View: Close Editor');
  });

  it('an authorization server that registers no redirect to VS Code: the sign-in comes back to a loopback address instead', async () => {
    const { workbench } = ui!;
    await collapseServers(workbench);
    const waiting = await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('loopback-only') && /sign in required/.test(row)), 30_000);
    assert.ok(waiting.some((row) => row.startsWith('loopback-only') && /sign in required/.test(row)), waiting.join(' | '));
    await clickSignIn('loopback-only');
    const page = await approveSignIn((text) => assert.match(text, /redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/, `the loopback redirect: ${text}`));
    assert.match(page, /Signed in: you can close this tab/);
    const rows = await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('loopback-only') && /\d+ tools/.test(row)), 30_000);
    assert.ok(rows.some((r) => r.startsWith('loopback-only') && /streamable-http/.test(r)), rows.join(' | '));
  });

  it('a call the person starts that needs more scope asks before the browser goes again, and goes through', async () => {
    const { workbench } = ui!;
    await collapseServers(workbench);
    await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('stepped') && /sign in required/.test(row)), 30_000);
    const askedFor = (scope: RegExp) => (text: string): void => {
      assert.match(text, new RegExp(`Sign in to "stepped" at 127\\.0\\.0\\.2:${stepped.port}\\?`));
      assert.match(text, scope, `the scope asked for: ${text}`);
    };
    await clickSignIn('stepped');
    await approveSignIn(askedFor(/[?&]scope=mcp(&|\s|$)/));
    await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('stepped') && /\d+ tools/.test(row)), 30_000);
    await openToolList(workbench, 'stepped');
    await workbench.pick('echo');
    await workbench.waitForQuickInputTitle('stepped · echo');
    await workbench.typeInQuickInput('with more scope');
    await workbench.page.keyboard.press('Enter');
    // 403 insufficient_scope: the person is asked again, for the larger scope.
    await approveSignIn(askedFor(/[?&]scope=mcp(\+|%20)tools%3Acall/));
    await workbench.page.locator('.tab', { hasText: 'echo-' }).first().waitFor({ timeout: 30_000 });
    await workbench.waitForEditorText(/with more scope/);
    // VS Code for the Web comes back to a new address each time: the second sign-in registered for it.
    assert.deepEqual(endpoints(steppedRecord), ['register', 'authorize', 'token:authorization_code', 'register', 'authorize', 'token:authorization_code']);
    // Nothing is left waiting: the sign-in's and the call's progress close.
    for (const note of [/Waiting for you to sign in to stepped/, /echo on stepped/]) {
      await workbench.page.locator('.notification-toast', { hasText: note }).waitFor({ state: 'detached', timeout: 10_000 });
    }
    await workbench.screenshot('stepped-up');
    await workbench.runCommand('View: Close Editor');
  });

  it('with a client ID metadata document in the settings, an authorization server that supports them knows VS Code by it: nothing registered', async () => {
    const { workbench } = ui!;
    await collapseServers(workbench);
    await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('by-document') && /sign in required/.test(row)), 30_000);
    await clickSignIn('by-document');
    await approveSignIn((text) => assert.match(text, /client_id=https%3A%2F%2Fclient\.example%2Felicitation-host\.json/));
    await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('by-document') && /\d+ tools/.test(row)), 30_000);
    assert.deepEqual(endpoints(documentRecord), ['authorize', 'token:authorization_code']);
    const kinds = readFileSync(documentRecord, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { client?: string }).client).filter(Boolean);
    assert.deepEqual(kinds, ['metadata-document']);
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

  it('no token reached a log, or any file VS Code keeps on the server', async () => {
    const tokens = readFileSync(tokensFile, 'utf8').split('\n').filter(Boolean);
    assert.ok(tokens.length >= 4, `tokens were issued: ${tokens.length}`);
    const files = (root: string): string[] => readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    const kept = [...files(ui!.server.userDataDir), ...files(ui!.server.serverDataDir)];
    // The extension's own log is among them, and says what happened (the check is not of nothing).
    const ours = kept.filter((f) => /Elicitation Host\.log$/.test(f)).map((f) => readFileSync(f, 'utf8')).join('\n');
    assert.match(ours, /Signing in to secured at 127\.0\.0\.2:\d+: waiting for the browser to come back/);
    for (const file of kept) {
      const content = readFileSync(file);
      for (const token of tokens) assert.ok(!content.includes(token), `a token is in ${file}`);
    }
  });
});
