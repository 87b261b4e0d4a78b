/**
 * The built session page (dist/webview/session.js) in headless Chromium, without VS Code:
 * served as its panel serves it (sessionPageHtml: the same HTML and policy, script and styles
 * inlined under a fresh nonce), with a stubbed acquireVsCodeApi that records what the page
 * posts (test/support/page-harness.ts). The test posts what the host would. In a long
 * session: a reply streamed as appends draws what the same reply drawn whole draws; only the
 * newest entries are drawn (fewer when they are long), the rest folded into a row that says how
 * many and brings them back on demand; a reply past its cap says so and offers the whole; Close Session is posted.
 */
/// <reference lib="dom" />
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { ENTRIES_SHOWN, type SessionHeader, type SessionHostMessage, type SessionPageMessage, type TranscriptEntry } from '../../src/shared/session-protocol';
import { sessionPageHtml } from '../../src/ui/agents/session-page';
import { ELEMENTS_SHOWN } from '../../webview/session/transcript-view';
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

/** A reply with every kind of block, long code fences and a list among paragraphs. */
function reply(sections: number): string {
  const parts: string[] = [];
  for (let i = 0; i < sections; i++) {
    parts.push(
      `## Step ${i}\n\nThe change to **file ${i}** keeps \`snake_case\` names and [links](https://example.com/${i}).\nA second line of the same paragraph.\n\n`,
      `- first point ${i}\n  - nested under it\n- second point with *emphasis*\n\n`,
      `\`\`\`ts\n${Array.from({ length: 12 }, (_, l) => `const value${l} = ${i * l}; // line ${l}`).join('\n')}\n\`\`\`\n\n`,
      `| name | value |\n|---|---|\n| a${i} | ${i} |\n\n> a quote of step ${i}\n\n---\n\n`,
    );
  }
  return parts.join('');
}

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

  /** The element's markup, serialized (text nodes side by side read as one). */
  function markup(selector: string): Promise<string> {
    return page.locator(selector).evaluate((node) => new XMLSerializer().serializeToString(node));
  }

  /** Waits until the page has drawn everything it was sent (two frames with nothing queued). */
  async function drawn(): Promise<void> {
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 300)))));
  }

  it('a reply streamed as appends, in batches and chunks of any size, draws what the reply drawn whole draws', async () => {
    const text = reply(30);
    await send({ type: 'reset', header: HEADER, entries: [] });
    await send({ type: 'entry', entry: { kind: 'agent', id: 'agent:0', markdown: text.slice(0, 7) }, last: true });
    // Chunks of 1 to 97 characters, a few per batch, as the host gathers them.
    let at = 7;
    let size = 1;
    while (at < text.length) {
      const messages: SessionHostMessage[] = [];
      for (let k = 0; k < 3 && at < text.length; k++) {
        messages.push({ type: 'append', id: 'agent:0', text: text.slice(at, at + size) });
        at += size;
        size = (size * 7 + 3) % 97 || 1;
      }
      await send({ type: 'batch', messages });
    }
    await drawn();
    const streamed = await markup('.entry.agent .markdown');
    await send({ type: 'reset', header: HEADER, entries: [{ kind: 'agent', id: 'agent:0', markdown: text }] });
    await drawn();
    const whole = await markup('.entry.agent .markdown');
    assert.ok(whole.length > text.length / 2);
    assert.equal(streamed, whole);
  });

  it('draws only the newest entries: the rest fold into a row that says how many, and Show earlier brings them back', async () => {
    const entries: TranscriptEntry[] = Array.from({ length: ENTRIES_SHOWN }, (_, i) => ({ kind: 'notice', id: `notice:${i + 1900}`, text: `entry ${i + 1900}`, tone: 'info' }));
    await send({ type: 'reset', header: HEADER, entries, kept: 2_000 });
    await drawn();
    assert.equal(await page.locator('.folded').textContent(), '1,900 earlier messages folded. Show earlier');
    // Entries stream in; the page keeps the newest drawn, however many come.
    for (let i = 0; i < 20; i++) {
      const batch: SessionHostMessage[] = [];
      for (let k = 0; k < 50; k++) {
        const n = 2_000 + i * 50 + k;
        batch.push({ type: 'entry', entry: { kind: 'tool', id: `tool:${n}`, title: `Read f${n}`, toolKind: 'read', status: 'completed', locations: [{ path: `/w/f${n}` }], diffs: [], output: 'x'.repeat(200) }, last: true });
      }
      batch.push({ type: 'kept', kept: 2_000 + (i + 1) * 50 });
      await send({ type: 'batch', messages: batch });
    }
    await drawn();
    const count = await page.locator('#transcript > .entry').count();
    assert.ok(count >= ENTRIES_SHOWN && count <= ENTRIES_SHOWN + 20, `${count} entries drawn`);
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    assert.ok(nodes < 40 * (ENTRIES_SHOWN + 20), `${nodes} nodes`);
    const folded = 3_000 - count;
    assert.equal(await page.locator('.folded').textContent(), `${folded.toLocaleString('en-US')} earlier messages folded. Show earlier`);
    // An update of an entry folded away leaves it folded.
    await send({ type: 'entry', entry: { kind: 'tool', id: 'tool:2000', title: 'Read f2000 again', toolKind: 'read', status: 'completed', locations: [], diffs: [] } });
    await drawn();
    assert.equal(await page.locator('.tool-title', { hasText: 'Read f2000 again' }).count(), 0);
    const first = await page.locator('#transcript > .entry').first().getAttribute('data-entry-id');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('.folded button').click();
    assert.deepEqual(await posted('earlier'), [{ type: 'earlier', before: first, count: 50 }]);
    const earlier: TranscriptEntry[] = Array.from({ length: 50 }, (_, i) => ({ kind: 'notice', id: `earlier:${i}`, text: `earlier ${i}`, tone: 'info' }));
    await send({ type: 'earlier', before: first!, entries: earlier });
    await drawn();
    assert.deepEqual(await page.locator('#transcript > .entry').first().textContent(), 'earlier 0');
    assert.equal(await page.locator('#transcript > .entry').nth(50).getAttribute('data-entry-id'), first);
    assert.equal(await page.locator('.folded').textContent(), `${(folded - 50).toLocaleString('en-US')} earlier messages folded. Show earlier`);
  });

  it('long replies fold by the elements they hold, not only by their number: the newest stays, the row says how many are folded', async () => {
    await send({ type: 'reset', header: HEADER, entries: [], kept: 0 });
    const text = reply(100);
    for (let i = 0; i < 12; i++) {
      await send({ type: 'batch', messages: [{ type: 'entry', entry: { kind: 'agent', id: `agent:${i}`, markdown: text }, last: true }, { type: 'kept', kept: i + 1 }] });
      await drawn();
    }
    const count = await page.locator('#transcript > .entry').count();
    const nodes = await page.evaluate(() => document.getElementById('transcript')!.getElementsByTagName('*').length);
    assert.ok(count > 1 && count < 12, `${count} of 12 long replies drawn`);
    assert.ok(nodes <= ELEMENTS_SHOWN, `${nodes} elements drawn`);
    assert.equal(await page.locator('#transcript > .entry').last().getAttribute('data-entry-id'), 'agent:11');
    assert.equal(await page.locator('.folded').textContent(), `${12 - count} earlier messages folded. Show earlier`);
  });

  it('a reply past its cap says how much is not shown, and Open Whole Reply asks for the whole', async () => {
    await send({ type: 'reset', header: HEADER, entries: [{ kind: 'agent', id: 'agent:4', markdown: 'Most of it' }] });
    await send({ type: 'append', id: 'agent:4', text: ', and the end', notShown: 1_234_567 });
    await page.waitForSelector('.left-out');
    assert.equal(await page.locator('.entry.agent .left-out span').textContent(), '… 1,234,567 more characters not shown here. ');
    assert.equal(await page.locator('.entry.agent .markdown').textContent(), 'Most of it, and the end');
    await page.getByRole('button', { name: 'Open Whole Reply' }).click();
    assert.deepEqual(await posted('openWhole'), [{ type: 'openWhole', id: 'agent:4' }]);
  });

  it('a thought streams in as text; Close Session is posted', async () => {
    await send({ type: 'reset', header: HEADER, entries: [{ kind: 'thought', id: 'thought:0', text: 'The build' }] });
    await page.locator('.entry.thought summary').click();
    await send({ type: 'batch', messages: [{ type: 'append', id: 'thought:0', text: ' folder' }, { type: 'append', id: 'thought:0', text: ' is stale.' }] });
    await page.waitForFunction(() => document.querySelector('.thought-text')?.textContent === 'The build folder is stale.');
    assert.notEqual(await page.locator('.entry.thought').getAttribute('open'), null, 'an opened thought stays open as it grows');
    await page.getByRole('button', { name: 'Close Session' }).click();
    assert.deepEqual(await posted('closeSession'), [{ type: 'closeSession' }]);
  });
});
