/**
 * UI scenario: Add Agent… lists the agents of the ACP Registry in the real workbench. The
 * registry is a file of our own (test/fixtures/acp/registry.json) served on 127.0.0.1 by the
 * test (`elicitationHost.agentRegistryUrl`; no network). Each row shows the command that
 * would run and what it needs, a runtime the machine lacks said (uvx: nothing on the
 * window's PATH has it), registry text shown as text; choosing one shows the exact command
 * in a dialog whose default is "Don't Add", and only Add writes it to the user settings; an
 * entry that hides where npx installs from among thirty variables has it named first, and
 * its whole shown before Add. With the server gone, the kept copy answers; with no copy
 * either, the built-in list.
 */
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../support/wait';
import { versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';

const REGISTRY = readFileSync(join(__dirname, '../fixtures/acp/registry.json'), 'utf8');
/** The PATH the window gets: a folder of ours with the binary agent's program, and the system's own. */
const SYSTEM_PATH = ['/usr/bin', '/bin'];

/** Every file named `name` below `dir`. */
function findFiles(dir: string, name: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return findFiles(path, name);
    return entry === name ? [path] : [];
  });
}

describe(`UI: Add Agent… from the ACP Registry (VS Code ${versionName()})`, function () {
  this.timeout(4 * 60_000);
  let ui: Ui | undefined;
  let server: Server;
  let requests = 0;
  let bin: string;

  before(async function () {
    const lacking = SYSTEM_PATH.filter((dir) => existsSync(join(dir, 'uvx')));
    assert.deepEqual(lacking, [], 'this scenario needs a machine without uv in /usr/bin or /bin (it checks that a missing uvx is said)');
    server = createServer((_request, response) => {
      requests++;
      response.writeHead(200, { 'content-type': 'application/json' }).end(REGISTRY);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    bin = mkdtempSync(join(tmpdir(), 'eh-registry-bin-'));
    // Found on PATH, never run: the registry's download-only agent, as if installed.
    writeFileSync(join(bin, 'gamma-acp'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(bin, 'gamma-acp'), 0o755);
    ui = await startUi(
      'agent-registry',
      { 'elicitationHost.agentRegistryUrl': `http://127.0.0.1:${(server.address() as AddressInfo).port}/registry.json` },
      // As when VS Code is started from a terminal (VSCODE_CLI): the window keeps this PATH rather than the login shell's.
      { PATH: [bin, ...SYSTEM_PATH].join(':'), VSCODE_CLI: '1' },
    );
  });
  uiHooks(
    () => ui,
    () => {
      server?.close();
      rmSync(bin, { recursive: true, force: true });
    },
  );

  /** Add Agent…'s rows (separators included), once the list has come. */
  async function openAddAgent(first: string): Promise<string[]> {
    const { workbench } = ui!;
    await workbench.runCommand('Elicitation Host: Add Agent…');
    await workbench.waitForQuickInputTitle('Add Agent');
    const list = workbench.quickInput.locator('.quick-input-list');
    await list.locator('.monaco-list-row', { hasText: first }).first().waitFor({ timeout: 30_000 });
    return (await list.locator('.monaco-list-row').allInnerTexts()).map((r) => r.replace(/\u00a0/g, ' ').replace(/\s*\n\s*/g, ' | '));
  }

  const userSettings = (): string => readFileSync(join(ui!.server.userDataDir, 'User', 'settings.json'), 'utf8');

  it("lists the registry's agents with their commands and needs; the exact command in a dialog whose default is Don't Add; Add writes it", async () => {
    const { workbench } = ui!;
    const rows = await openAddAgent('Alpha Agent');
    await workbench.screenshot('agents-add-registry');
    const row = (label: string): string => rows.find((r) => r.includes(label)) ?? `(no row for ${label} in: ${rows.join(' || ')})`;
    assert.match(rows[0], /From the ACP Registry/);
    assert.match(row('Alpha Agent'), /npx -y @example\/alpha-acp@1\.2\.3 --acp --name 'two words'/);
    assert.match(row('Alpha Agent'), /An agent run with npx · Needs: Node\.js \(npx\)/);
    // Quoted as a shell would need it (a "[" globs): the line reads back as the same words.
    assert.match(row('Beta (Python)'), /uvx --from 'beta-agent\[acp\]==4\.5\.6' beta-acp/);
    assert.match(row('Beta (Python)'), /Needs uv \(uvx\): uvx is not on PATH: install uv/);
    assert.match(row('Gamma'), /gamma-acp acp/);
    assert.match(row('Gamma'), /Needs: gamma-acp on PATH/);
    // Registry text is text: the icon syntax shows as typed, the bidi control is gone.
    assert.match(row('Delta'), /Delta \$\(zap\) evil/);
    assert.equal(await workbench.quickInput.locator('.monaco-list-row', { hasText: 'Delta' }).locator('.codicon-zap').count(), 0, 'no icon drawn from registry text');
    assert.ok(rows.some((r) => /5 registry entries left out: "url-package": distribution\.npx\.package must be an npm package name/.test(r)), `what was left out is said: ${rows.join(' || ')}`);
    assert.ok(rows.some((r) => r.includes('Another agent…')));
    assert.equal(requests, 1, 'read once');

    await workbench.pick('Alpha Agent');
    const dialog = workbench.dialog.filter({ hasText: 'Add the agent "alpha-agent"?' });
    await dialog.waitFor({ timeout: 20_000 });
    const text = (await dialog.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /this runs \(without a shell\):\nnpx -y @example\/alpha-acp@1\.2\.3 --acp --name 'two words'/);
    assert.match(text, /With these environment variables:\nALPHA_MODE=strict/);
    assert.match(text, /From the ACP Registry \(Alpha Agent 1\.2\.3\)/);
    assert.equal(await workbench.page.evaluate(() => document.activeElement?.textContent?.trim()), "Don't Add", 'not adding is the default');
    await workbench.screenshot('agents-add-confirm');
    await workbench.clickDialogButton("Don't Add");
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.doesNotMatch(userSettings(), /alpha-agent/, "Don't Add writes nothing");

    await openAddAgent('Alpha Agent');
    await workbench.pick('Alpha Agent');
    await dialog.waitFor({ timeout: 20_000 });
    await workbench.clickDialogButton('Add');
    await waitUntil('the agent in the user settings', () => /"alpha-agent"/.test(userSettings()), 20_000);
    const settings = JSON.parse(userSettings()) as Record<string, unknown>;
    assert.deepEqual((settings['elicitationHost.agents'] as Record<string, unknown>)['alpha-agent'], {
      command: 'npx',
      args: ['-y', '@example/alpha-acp@1.2.3', '--acp', '--name', 'two words'],
      env: { ALPHA_MODE: 'strict' },
    });
    await workbench.openAgentInputs();
    const header = workbench.page.locator('.pane-header', { hasText: /^Agents/ }).first();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await workbench.waitForViewRows(/Agents/, (r) => r.some((t) => t.includes('alpha-agent')));
    assert.equal(requests, 1, 'the kept copy answered the second time');
  });

  it("an entry whose thirty variables hide npm_config_registry: named first, in words; Show Whole Command shows every one before Add", async () => {
    const { workbench } = ui!;
    await openAddAgent('Many Settings');
    await workbench.pick('Many Settings');
    const dialog = workbench.dialog.filter({ hasText: 'Add the agent "many-settings"?' });
    await dialog.waitFor({ timeout: 20_000 });
    const read = async (): Promise<string> => (await dialog.innerText()).replace(/\u00a0/g, ' ');
    const text = await read();
    assert.match(text, /One of its environment variables changes where npx, uvx, pip or Node find and load code:\nnpm_config_registry=https:\/\/evil\.example\/npm\/: npx installs packages from this registry, not from npmjs\.org\.\n/, text);
    assert.ok(text.indexOf('npm_config_registry') < text.indexOf('this runs (without a shell)'), 'before the command');
    assert.match(text, /hidden/, 'the dialog says it does not show everything');
    const buttons = (await dialog.locator('.monaco-button').allInnerTexts()).map((b) => b.trim()).filter((b) => b !== '');
    assert.deepEqual([...buttons].sort(), ['Add', 'Cancel', "Don't Add", 'Show Whole Command'], `the dialog's buttons: ${buttons.join(' | ')}`);
    assert.equal(await workbench.page.evaluate(() => document.activeElement?.textContent?.trim()), "Don't Add", 'not adding is the default');
    await workbench.screenshot('agents-add-loader-variables');

    await workbench.clickDialogButton('Show Whole Command');
    await workbench.page.locator('.tabs-container .tab', { hasText: 'command from the ACP Registry (Many Settings 1.0.0)' }).waitFor({ timeout: 20_000 });
    await workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Back to the Decision' }).waitFor({ timeout: 20_000 });
    assert.equal(await workbench.dialog.count(), 0, 'no dialog over the editor');
    assert.match(await workbench.waitForEditorText(/^One of its environment variables changes/), /npm_config_registry=https:\/\/evil\.example\/npm\//);
    // Every variable is there: the editor scrolled to its end shows the last ones.
    await workbench.page.locator('.editor-instance .view-lines').first().click();
    await workbench.page.keyboard.press('Control+End');
    await waitUntil('the last variables in the editor', async () => /MANY_OPTION_29=value number 29/.test(await workbench.editorText()), 10_000);
    assert.ok(await workbench.quickInputVisible(), 'the question still waits');
    await workbench.screenshot('agents-add-whole-command');

    await workbench.clickRow(/Back to the Decision/);
    await dialog.waitFor({ timeout: 20_000 });
    assert.equal(await read(), text, 'the same dialog again');
    await workbench.clickDialogButton("Don't Add");
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.doesNotMatch(userSettings(), /many-settings/, "Don't Add writes nothing");
    await workbench.runCommand('View: Close All Editors');
  });

  it('with the registry gone: the kept copy; with no copy either: the built-in list, saying why', async () => {
    const { workbench } = ui!;
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
    const kept = await openAddAgent('Alpha Agent');
    assert.match(kept[0], /From the ACP Registry/);
    await workbench.page.keyboard.press('Escape');
    await workbench.waitForQuickInputHidden();

    const copies = [...findFiles(ui!.server.userDataDir, 'acp-registry.json'), ...findFiles(ui!.server.serverDataDir, 'acp-registry.json')];
    assert.equal(copies.length, 1, `one kept copy in the extension's global storage: ${copies.join(', ')}`);
    rmSync(copies[0]);
    const rows = await openAddAgent('Claude Code');
    await workbench.screenshot('agents-add-built-in');
    assert.match(rows[0], /The built-in list: the ACP Registry could not be read \(fetch failed\)/);
    assert.ok(rows.some((r) => /Claude Code.*npx -y @agentclientprotocol\/claude-agent-acp/.test(r)), rows.join(' || '));
    await workbench.page.keyboard.press('Escape');
  });
});
