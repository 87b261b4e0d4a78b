/**
 * The built session page (dist/webview/session.js) in headless Chromium, without VS Code:
 * served as its panel serves it (sessionPageHtml: the same HTML and policy, script and styles
 * inlined under a fresh nonce), with a stubbed acquireVsCodeApi that records what the page
 * posts (test/support/page-harness.ts). The test posts what the host would.
 */
/// <reference lib="dom" />
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import type { SessionHeader, SessionHostMessage, SessionPageMessage, TranscriptEntry } from '../../src/shared/session-protocol';
import { sessionPageHtml } from '../../src/ui/agents/session-page';
import { PageHarness } from '../support/page-harness';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

const HEADER: SessionHeader = {
  agent: 'fixture',
  title: 'fix the tests',
  cwd: '/work/demo',
  servers: [],
  mode: { id: 'mode', name: 'Mode', current: 'ask', options: [{ value: 'ask', name: 'Ask' }, { value: 'auto', name: 'Auto', description: 'runs tools without asking' }] },
  options: [{ id: 'model', name: 'Model', current: 'small', options: [{ value: 'small', name: 'Small' }, { value: 'large', name: 'Large' }] }],
  state: 'idle',
};

describe('session page in headless Chromium', function () {
  this.timeout(60_000);
  let pages: PageHarness;
  let page: Page;

  before(async () => {
    pages = await PageHarness.start({ script: 'session.js', styles: 'session-styles.css', html: sessionPageHtml });
  });

  after(() => pages?.close());

  beforeEach(async () => {
    page = await pages.open();
  });

  afterEach(() => pages.closeClean(page));

  function send(message: SessionHostMessage): Promise<void> {
    return pages.deliver(page, message);
  }

  function posted<T extends SessionPageMessage['type']>(type: T): Promise<Array<Extract<SessionPageMessage, { type: T }>>> {
    return pages.posted<Extract<SessionPageMessage, { type: T }>>(page, type);
  }

  it('shows the transcript: the reply as Markdown, thoughts collapsed, a tool call with its files, a plan', async () => {
    const entries: TranscriptEntry[] = [
      { kind: 'user', id: 'u1', text: 'Fix the **tests**' },
      { kind: 'thought', id: 't1', text: 'The build folder is stale.' },
      { kind: 'tool', id: 'c1', title: 'Run rm -rf build', toolKind: 'execute', status: 'completed', detail: 'rm -rf build', locations: [{ path: '/work/demo/build' }], diffs: [], output: 'removed' },
      { kind: 'tool', id: 'c2', title: 'Edit a.ts', toolKind: 'edit', status: 'in_progress', locations: [{ path: '/work/demo/a.ts', line: 3 }], diffs: [{ path: '/work/demo/a.ts', added: 2, removed: 1 }] },
      { kind: 'plan', id: 'p1', steps: [{ content: 'Clean', status: 'completed' }, { content: 'Test', status: 'in_progress' }] },
      { kind: 'agent', id: 'a1', markdown: 'Done: **2** files.\n\n```sh\nnpm test\n```' },
    ];
    await send({ type: 'reset', header: HEADER, entries });
    await page.waitForSelector('.entry.agent strong');
    assert.equal(await page.locator('#title').textContent(), 'fixture · fix the tests');
    assert.equal(await page.locator('.entry.user .user-text').textContent(), 'Fix the **tests**', "the person's own text is shown as typed");
    assert.equal(await page.locator('.entry.thought').getAttribute('open'), null, 'thinking is collapsed');
    assert.equal(await page.locator('.entry.agent pre code').textContent(), 'npm test');
    assert.deepEqual(await page.locator('.tool-title').allTextContents(), ['Run rm -rf build', 'Edit a.ts']);
    assert.equal(await page.locator('.status-in_progress .tool-status').textContent(), 'running');
    await page.locator('button.file', { hasText: 'a.ts +2 −1' }).click();
    assert.deepEqual(await posted('openFile'), [{ type: 'openFile', path: '/work/demo/a.ts' }]);
    assert.deepEqual(await page.locator('.plan li').allTextContents(), ['✓ Clean', '▸ Test']);
    // Each entry says who speaks: the agent by its name, a tool call by its title.
    const log = page.getByRole('log', { name: 'Conversation' });
    assert.deepEqual(await log.getByRole('article').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label'))), ['You', 'Tool call: Run rm -rf build', 'Tool call: Edit a.ts', 'Plan', 'fixture']);
  });

  it('an entry grows in place by id, and an opened section stays open', async () => {
    await send({ type: 'reset', header: HEADER, entries: [{ kind: 'thought', id: 't1', text: 'first' }] });
    await page.locator('.entry.thought summary').click();
    await send({ type: 'entry', entry: { kind: 'thought', id: 't1', text: 'first and more' } });
    await page.waitForFunction(() => document.querySelector('.thought-text')?.textContent === 'first and more');
    assert.equal(await page.locator('.entry').count(), 1);
    assert.notEqual(await page.locator('.entry.thought').getAttribute('open'), null);
  });

  it("agent text is text: tags, icons and command links are not drawn", async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"> $(zap) [run](command:workbench.action.terminal.new) <script>window.__pwned=2</script>';
    await send({ type: 'reset', header: { ...HEADER, title: '<b>title</b>' }, entries: [{ kind: 'agent', id: 'a1', markdown: hostile }, { kind: 'tool', id: 'c1', title: '<i>t</i>', toolKind: 'execute', status: 'pending', detail: '<img src=y>', locations: [], diffs: [] }] });
    await page.waitForSelector('.entry.tool');
    assert.equal(await page.locator('img, script:not([nonce]), b, i').count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    const text = await page.locator('.entry.agent').textContent();
    assert.ok(text?.includes('<img src=x onerror="window.__pwned=1">'), text ?? '');
    assert.ok(text?.includes('$(zap)'));
    assert.ok(text?.includes('(command:workbench.action.terminal.new)'), 'a link shows where it points; nothing follows it');
    assert.equal(await page.locator('a').count(), 0, 'no anchor to follow');
    assert.equal(await page.locator('#title').textContent(), 'fixture · <b>title</b>');
  });

  it('Enter sends the prompt (Shift+Enter is a new line); Stop and Escape cancel a running turn', async () => {
    await send({ type: 'reset', header: HEADER, entries: [] });
    await page.locator('#prompt').fill('first line');
    await page.locator('#prompt').press('Shift+Enter');
    await page.locator('#prompt').type('second line');
    await page.locator('#prompt').press('Enter');
    assert.deepEqual(await posted('prompt'), [{ type: 'prompt', text: 'first line\nsecond line' }]);
    assert.equal(await page.locator('#prompt').inputValue(), '');
    assert.equal(await page.locator('#stop').isVisible(), false);
    await send({ type: 'header', header: { ...HEADER, state: 'running' } });
    await page.waitForSelector('#stop:not([hidden])');
    assert.equal(await page.locator('#send').isDisabled(), true, 'one turn at a time');
    assert.equal(await page.locator('#state').textContent(), 'Working…');
    assert.equal(await page.locator('#transcript').getAttribute('aria-busy'), 'true', 'while a reply streams in, a screen reader waits for the whole turn');
    await page.locator('#stop').click();
    await page.locator('#prompt').press('Escape');
    assert.equal((await posted('cancel')).length, 2);
    await send({ type: 'header', header: { ...HEADER, state: 'waiting' } });
    await page.waitForFunction(() => document.getElementById('state')?.textContent?.startsWith('Waiting for your answer'));
    assert.equal(await page.locator('#transcript').getAttribute('aria-busy'), 'false', 'waiting on the person: what the turn said so far is read');
  });

  it('the mode and options: current values shown, a change posted; a mode where the agent does not ask is said plainly', async () => {
    await send({ type: 'reset', header: { ...HEADER, modeWarning: 'Auto: the agent runs tools without asking you.' }, entries: [] });
    await page.waitForSelector('#mode-warning:not([hidden])');
    assert.equal(await page.locator('#mode-warning').textContent(), 'Auto: the agent runs tools without asking you.');
    assert.equal(await page.getByRole('status').filter({ hasText: 'runs tools without asking' }).count(), 1, 'a screen reader is told too');
    assert.equal(await page.locator('select[data-option-id="mode"]').inputValue(), 'ask');
    await page.locator('select[data-option-id="model"]').selectOption('large');
    assert.deepEqual(await posted('setOption'), [{ type: 'setOption', optionId: 'model', value: 'large' }]);
  });

  it('says which MCP servers the agent was given, as text, or why none were', async () => {
    await send({ type: 'reset', header: { ...HEADER, servers: [{ name: 'restaurant', transport: 'http' }, { name: '<b>docs</b>', transport: 'stdio' }] }, entries: [] });
    await page.waitForFunction(() => document.getElementById('servers')?.textContent?.startsWith('MCP servers given'));
    assert.equal(await page.locator('#servers').textContent(), 'MCP servers given: restaurant (HTTP), <b>docs</b> (stdio)');
    assert.equal(await page.locator('#servers b').count(), 0, 'a name is text');
    await send({ type: 'header', header: { ...HEADER, serversNote: 'Your MCP servers are not shared with agents (elicitationHost.agents.shareServers is off).' } });
    await page.waitForFunction(() => document.getElementById('servers')?.textContent?.includes('shareServers is off'));
    await send({ type: 'header', header: HEADER });
    await page.waitForFunction(() => document.getElementById('servers')?.textContent === 'No MCP servers given.');
  });

  it('a closed session takes no prompt', async () => {
    await send({ type: 'reset', header: { ...HEADER, state: 'closed' }, entries: [] });
    await page.waitForFunction(() => (document.getElementById('prompt') as HTMLTextAreaElement).disabled);
    assert.equal(await page.locator('#state').textContent(), 'The agent has ended.');
  });
});
