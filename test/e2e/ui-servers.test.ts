/**
 * UI scenarios: the Servers view and Run Tool, in the real workbench, with the extension
 * installed from its .vsix; two servers of one name (the workspace's and the person's), each
 * row saying its gateway address when it is not the plain one.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { FIXTURES, userServerSettings, versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';
import { collapseServers, openToolList } from './ui-steps';

describe(`UI: servers and Run Tool (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;

  before(async () => {
    // The person's own "second" beside the workspace's (.vscode/mcp.json): another launch, so two servers of one name.
    const settings = userServerSettings();
    const servers = { ...(settings['elicitationHost.servers'] as Record<string, unknown>), second: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, 'stdio.js'), '--name', 'second', '--only', 'echo'] } };
    ui = await startUi('servers', { ...settings, 'elicitationHost.servers': servers });
  });
  uiHooks(() => ui);
  afterEach(async () => {
    await ui?.workbench.page.keyboard.press('Escape');
  });

  it('the Servers view lists the fixture servers and their tools', async () => {
    const { workbench } = ui!;
    await workbench.openAgentInputs();
    // Servers start in parallel: wait until the first one is running and lists its tools.
    let rows = await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => /^fixture\s*\d+ tools/.test(row)), 30_000);
    await workbench.screenshot('servers-view');
    assert.ok(rows.some((r) => /^fixture\s*\d+ tools · 2025-11-25 · stdio/.test(r)), `fixture runs with its tools: ${rows.join(' | ')}`);
    for (const tool of ['book_restaurant', 'Clear completed todos', 'echo']) {
      assert.ok(rows.some((r) => r.includes(tool)), `${tool} is listed under its server`);
    }
    assert.ok(rows.some((r) => r.includes('Clear completed todos') && r.includes('destructive')), 'the destructive tool is marked');
    // The list is virtual: collapse the servers to bring them all into view. A server that
    // comes up meanwhile opens expanded, so collapse again until every one is in view.
    for (let attempt = 0; attempt < 20; attempt++) {
      await workbench.page.locator('.pane-header', { hasText: /Servers/i }).hover();
      await workbench.page.locator('.pane-header .action-label[aria-label^="Collapse All"]').first().click();
      rows = await workbench.waitForViewRows(/Servers/i, (r) => r.some((row) => row.startsWith('user-fixture')), 1000);
      if (rows.some((row) => row.startsWith('user-fixture'))) break;
    }
    assert.ok(rows.some((r) => r.startsWith('second')), `second is listed: ${rows.join(' | ')}`);
    assert.ok(rows.some((r) => r.startsWith('user-fixture')), 'the user-settings server is listed');
  });

  it("two servers named \"second\": the person's own keeps /mcp/second, and the workspace's says it is at /mcp/second-2", async () => {
    const { workbench } = ui!;
    await workbench.openAgentInputs();
    const seconds = (rows: string[]): string[] => rows.filter((r) => r.startsWith('second'));
    let rows: string[] = [];
    for (let attempt = 0; attempt < 20 && seconds(rows).length < 2; attempt++) {
      await collapseServers(workbench);
      rows = await workbench.waitForViewRows(/Servers/i, (r) => seconds(r).length === 2, 1000);
    }
    await workbench.screenshot('servers-namesakes');
    const [workspace, own] = [seconds(rows).find((r) => r.includes('.vscode/mcp.json')), seconds(rows).find((r) => r.includes('user settings'))];
    assert.ok(workspace && own, `both listed, each with its file: ${rows.join(' | ')}`);
    assert.match(workspace, /\.vscode\/mcp\.json · at \/mcp\/second-2/);
    assert.doesNotMatch(own, /at \/mcp\//, "the person's own is at its plain address, nothing to say");
  });

  it('Run Tool on a tool without elicitation shows its result', async () => {
    const { workbench } = ui!;
    await openToolList(workbench, 'fixture');
    await workbench.pick('echo');
    // The tool's one argument, asked like any question, prefilled with its default.
    await workbench.waitForQuickInputTitle('fixture · echo');
    await workbench.quickInput.locator('.quick-input-message', { hasText: 'Arguments for echo' }).waitFor();
    // The person's own question: nobody to decline to, so no Decline button (set before the box shows).
    assert.deepEqual(await workbench.quickInput.locator('.quick-input-titlebar .action-label[aria-label^="Decline"]').count(), 0);
    await workbench.typeInQuickInput('hello from the UI test');
    await workbench.screenshot('run-tool-argument');
    await workbench.page.keyboard.press('Enter');
    await workbench.page.locator('.tab', { hasText: 'echo-' }).first().waitFor({ timeout: 20_000 });
    const text = await workbench.waitForEditorText(/echo on fixture/);
    await workbench.screenshot('run-tool-result');
    assert.match(text, /"echo":"hello from the UI test"/);
  });
});
