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
    assert.deepEqual(await page.locator('.plan li').allTextContents(), ['✓ Clean', '▸ Test']);
    // Each entry says who speaks: the agent by its name, a tool call by its title.
    const log = page.getByRole('log', { name: 'Conversation' });
    assert.deepEqual(await log.getByRole('article').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label'))), ['You', 'Tool call: Run rm -rf build', 'Tool call: Edit a.ts', 'Plan', 'fixture']);
  });

  it('a tool call is one line (status, title, files, the permission answered) that opens on demand to its input and output', async () => {
    const bash: TranscriptEntry = { kind: 'tool', id: 'c1', title: 'rm -rf build', toolKind: 'execute', status: 'failed', detail: 'rm -rf build', locations: [], diffs: [], output: 'User refused permission to run tool', permission: { answer: 'No', allowed: false } };
    const edit: TranscriptEntry = { kind: 'tool', id: 'c2', title: 'Edit a.ts', toolKind: 'edit', status: 'completed', detail: '{\n  "file_path": "/work/demo/a.ts"\n}', locations: [], diffs: [{ path: '/work/demo/a.ts', added: 2, removed: 1 }] };
    await send({ type: 'reset', header: HEADER, entries: [bash, edit] });
    await page.waitForSelector('.entry.tool');
    const first = page.locator('.entry.tool').first();
    assert.deepEqual(await first.locator('.tool-line').locator('.tool-status, .tool-title, .tool-permission').allInnerTexts(), ['FAILED', 'rm -rf build', 'you answered “No”']);
    assert.equal(await first.locator('.tool-body').isVisible(), false, 'the input and output wait to be opened');
    assert.equal(await page.getByText('rm -rf build').count(), 1, 'the command that is the title is said once');
    const toggle = first.getByRole('button', { name: /rm -rf build/ });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal(await first.locator('.tool-output').innerText(), 'User refused permission to run tool');
    assert.equal(await first.locator('.tool-detail').count(), 0);
    // The line names what the call touched; its file opens without opening the call.
    const second = page.locator('.entry.tool').nth(1);
    await second.locator('button.file', { hasText: 'a.ts +2 −1' }).click();
    assert.deepEqual(await posted('openFile'), [{ type: 'openFile', path: '/work/demo/a.ts' }]);
    assert.equal(await second.locator('.tool-body').isVisible(), false);
    // Opened stays opened as the call's entry is replaced.
    await send({ type: 'entry', entry: { ...bash, output: 'User refused permission to run tool (again)' } });
    await page.waitForFunction(() => document.querySelector('.tool-output')?.textContent?.endsWith('(again)'));
    assert.equal(await page.locator('.entry.tool').first().locator('.tool-body').isVisible(), true);
  });

  it('a question the agent asked reads as the question and the answer', async () => {
    await send({
      type: 'reset',
      header: { ...HEADER, agent: 'claude' },
      entries: [
        { kind: 'question', id: 'q1', message: 'Which colour?', answers: [{ question: 'Colour', answer: 'Blue' }], action: 'accept' },
        { kind: 'question', id: 'q2', message: 'Your initials?', answers: [{ question: 'Colour', answer: 'Red' }, { question: 'Other', answer: 'actually teal' }], action: 'accept' },
        { kind: 'question', id: 'q3', message: 'Anything else?', answers: [], action: 'decline' },
      ],
    });
    await page.waitForSelector('.entry.question');
    assert.deepEqual(await page.locator('.entry.question').evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).innerText.split('\n'))), [
      ['Which colour?', 'Blue'],
      ['Your initials?', 'Colour: Red', 'Other: actually teal'],
      ['Anything else?', 'You declined.'],
    ]);
    assert.equal(await page.getByRole('article', { name: 'Question from claude' }).count(), 3);
  });

  it('a code block has Copy: the host is asked to copy its text, and the button says it did', async () => {
    await send({ type: 'reset', header: HEADER, entries: [{ kind: 'agent', id: 'a1', markdown: 'Run:\n\n```sh\nnpm test -- --grep "x"\n```' }] });
    await page.getByRole('button', { name: 'Copy code' }).click();
    assert.deepEqual(await posted('copy'), [{ type: 'copy', text: 'npm test -- --grep "x"' }]);
    assert.equal(await page.locator('button.copy').innerText(), 'Copied');
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
