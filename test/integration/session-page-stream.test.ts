/**
 * The built session page (dist/webview/session.js) in headless Chromium, as its panel serves
 * it (test/support/page-harness.ts), in a long session: a reply streamed as appends draws what
 * the same reply drawn whole draws; only the newest entries are drawn, the rest folded into a
 * row that says how many and brings them back on demand; a reply past its cap says so and
 * offers the whole; Close Session is posted.
 */
/// <reference lib="dom" />
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { ENTRIES_SHOWN, type SessionHeader, type SessionHostMessage, type SessionPageMessage, type TranscriptEntry } from '../../src/shared/session-protocol';
import { sessionPageHtml } from '../../src/ui/agents/session-page';
import { PageHarness } from '../support/page-harness';

const HEADER: SessionHeader = { agent: 'fixture', title: 'long', cwd: '/work/demo', options: [], state: 'running' };

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

describe('session page in headless Chromium: a long session', function () {
  this.timeout(120_000);
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
