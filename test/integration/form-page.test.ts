/**
 * The built form page (dist/webview) in headless Chromium, without VS Code: a stubbed
 * acquireVsCodeApi records what the page posts, the test posts what the host would, and
 * the page runs under the same Content-Security-Policy the panel sets.
 */
/// <reference lib="dom" />
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import type { FormView, PageMessage } from '../../src/shared/protocol';
import { launchChromium } from '../e2e/harness/browser';
import { BOOK_RESTAURANT } from '../fixtures/schemas';
import { REPO } from '../support/servers';

const WEBVIEW = join(REPO, 'dist/webview');
const NONCE = 'test-nonce-123';

declare global {
  interface Window {
    __posted: PageMessage[];
    __pwned?: unknown;
  }
}

function pageHtml(origin: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${NONCE}'; style-src ${origin}; font-src ${origin}; img-src ${origin}">
<link rel="stylesheet" href="${origin}/styles.css"><title>Agent Input</title></head>
<body><main id="app"></main>
<script nonce="${NONCE}">window.__posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))) });</script>
<script nonce="${NONCE}" src="${origin}/main.js"></script>
</body></html>`;
}

function form(message: string, schema: object, extra: Partial<FormView> = {}): FormView {
  return { requestId: 'r1', server: 'fixture', tool: 'book_restaurant', message, questions: parseRequestedSchemaOrThrow(schema).questions, drafts: {}, ...extra };
}

describe('form page in headless Chromium', function () {
  this.timeout(60_000);
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const path = req.url === '/' ? '/' : (req.url ?? '/');
      if (path === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml(origin));
        return;
      }
      try {
        const body = readFileSync(join(WEBVIEW, path.replace(/^\//, '')));
        res.writeHead(200, { 'content-type': path.endsWith('.css') ? 'text/css' : 'text/javascript' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    server?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(origin);
    await page.waitForFunction(() => window.__posted?.some((m) => m.type === 'ready'));
  });

  afterEach(async () => {
    const violations = await page.evaluate(() => window.__posted.filter((m) => m.type === 'cspViolation'));
    await page.close();
    assert.deepEqual(violations, [], 'the page breaks no Content-Security-Policy rule');
    assert.deepEqual(consoleErrors.splice(0), [], 'no errors in the console');
  });

  async function render(view: FormView): Promise<void> {
    await page.evaluate((v) => window.postMessage({ type: 'render', form: v }, '*'), view as unknown as Record<string, unknown>);
    await page.waitForFunction(() => window.__posted.some((m) => m.type === 'shown'));
  }

  async function posted(type: PageMessage['type']): Promise<PageMessage[]> {
    return page.evaluate((t) => window.__posted.filter((m) => m.type === t), type);
  }

  const field = (id: string): string => `[data-question-id="${id}"]`;

  it('book_restaurant: renders, focuses the first field, and posts the typed answers', async () => {
    await render(form('Please provide your reservation details for Chez Page:', BOOK_RESTAURANT));
    assert.equal(await page.locator('.source').textContent(), 'fixture · book_restaurant');
    assert.equal(await page.locator('h1.message').textContent(), 'Please provide your reservation details for Chez Page:');
    const focused = await page.evaluate(() => document.activeElement?.closest('[data-question-id]')?.getAttribute('data-question-id'));
    assert.equal(focused, 'party_size');
    assert.equal(await page.locator(`${field('party_size')} input`).inputValue(), '2', 'the default is filled');
    assert.equal(await page.locator(`${field('dietary')} vscode-radio`).count(), 0, 'six options: a dropdown, not radios');
    await page.locator(`${field('party_size')} input`).fill('4');
    await page.locator(`${field('date')} input`).fill('2026-12-24');
    await page.evaluate(() => {
      const select = document.querySelector('[data-question-id="dietary"] vscode-single-select') as HTMLElement & { value: string };
      select.value = 'vegan';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.locator('vscode-button', { hasText: 'Submit' }).click();
    const [submitted] = await posted('submit');
    assert.deepEqual(submitted, { type: 'submit', requestId: 'r1', values: { party_size: 4, date: '2026-12-24', dietary: 'vegan' } });
  });

  it('shows the core\'s message beside a wrong field and refuses Submit, focusing the first error', async () => {
    await render(form('Booking', BOOK_RESTAURANT));
    await page.locator(`${field('party_size')} input`).fill('40');
    await page.waitForFunction(() => document.querySelector('[data-question-id="party_size"] .error')?.textContent === 'Party Size must be between 1 and 20');
    await page.keyboard.press('Control+Enter');
    assert.deepEqual(await posted('submit'), []);
    assert.equal(await page.locator(`${field('date')} .error`).textContent(), 'Reservation Date is required');
    const focused = await page.evaluate(() => document.activeElement?.closest('[data-question-id]')?.getAttribute('data-question-id'));
    assert.equal(focused, 'party_size');
    assert.equal(await page.locator(`${field('party_size')} .error`).getAttribute('role'), 'alert', 'errors are announced');
  });

  it('every field kind is rendered and answered with the right type', async () => {
    const schema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', title: 'Email' },
        homepage: { type: 'string', format: 'uri' },
        when: { type: 'string', format: 'date-time' },
        ratio: { type: 'number', minimum: 0, maximum: 1 },
        count: { type: 'integer' },
        agree: { type: 'boolean', description: 'I agree' },
        size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
        tags: { type: 'array', items: { anyOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }, { const: 'c', title: 'Gamma' }] }, minItems: 1 },
        notes: { type: 'string' },
        story: { type: 'string', maxLength: 2000 },
      },
      required: ['email'],
    };
    await render(form('All kinds', schema));
    await page.locator(`${field('email')} input`).fill('a@example.com');
    await page.locator(`${field('homepage')} input`).fill('https://example.com/x');
    await page.locator(`${field('when')} input`).fill('2026-11-22T14:30');
    await page.locator(`${field('ratio')} input`).fill('0.5');
    await page.locator(`${field('count')} input`).fill('7');
    await page.locator(`${field('agree')} vscode-checkbox`).click();
    await page.locator(`${field('size')} vscode-radio`, { hasText: 'Large' }).click();
    await page.locator(`${field('tags')} vscode-checkbox`, { hasText: 'Beta' }).click();
    await page.locator(`${field('notes')} input`).fill('  kept as typed  ');
    await page.locator(`${field('story')} textarea`).fill('line one\nline two');
    assert.equal(await page.locator(`${field('email')} vscode-textfield`).getAttribute('type'), 'email');
    assert.equal(await page.locator(`${field('email')} vscode-label`).getAttribute('required'), '', 'required is marked');
    await page.locator('vscode-button', { hasText: 'Submit' }).click();
    const [submitted] = (await posted('submit')) as Array<Extract<PageMessage, { type: 'submit' }>>;
    const when = submitted.values.when as string;
    assert.match(when, /^2026-11-2\dT\d\d:30:00Z$/, 'a local date-time is sent as RFC 3339 UTC');
    assert.deepEqual({ ...submitted.values, when: 'checked' }, {
      email: 'a@example.com', homepage: 'https://example.com/x', when: 'checked', ratio: 0.5, count: 7, agree: true, size: 'l', tags: ['b'], notes: '  kept as typed  ', story: 'line one\nline two',
    });
  });

  it('hostile server text stays inert text, and 10,000 options render', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"></script><script>window.__pwned=2</script>\u202Eevil';
    const options = Array.from({ length: 10_000 }, (_, i) => ({ const: `o${i}`, title: i === 3 ? hostile : `Option ${i}` }));
    await render({
      ...form(hostile, { type: 'object', properties: { pick: { type: 'string', title: hostile, description: hostile, oneOf: options } } }),
      server: hostile,
      tool: hostile,
    });
    assert.equal(await page.locator('h1.message').textContent(), hostile);
    assert.equal(await page.locator(`${field('pick')} vscode-label`).textContent(), hostile);
    // 10,000 options, and "(no answer)" for a field that is not required.
    assert.equal(await page.locator(`${field('pick')} vscode-option`).count(), 10_001);
    assert.equal(await page.locator('img').count(), 0, 'no element was created from server text');
    assert.equal(await page.evaluate(() => window.__pwned), undefined, 'no server script ran');
  });

  it('Decline, Cancel (Escape) and Answer step by step are posted as such', async () => {
    await render(form('Booking', BOOK_RESTAURANT));
    await page.locator('vscode-button', { hasText: 'Decline' }).click();
    await render(form('Booking', BOOK_RESTAURANT, { requestId: 'r2' }));
    await page.keyboard.press('Escape');
    await render(form('Booking', BOOK_RESTAURANT, { requestId: 'r3' }));
    await page.locator('a.step-by-step').click();
    assert.deepEqual(await posted('decline'), [{ type: 'decline', requestId: 'r1' }]);
    assert.deepEqual(await posted('cancel'), [{ type: 'cancel', requestId: 'r2' }]);
    assert.deepEqual(await posted('stepByStep'), [{ type: 'stepByStep', requestId: 'r3' }]);
  });

  it('restores drafts (also values that do not pass yet) and shows the host\'s refusals', async () => {
    await render(form('Booking', BOOK_RESTAURANT, { drafts: { party_size: '2.5', date: '2027-01-02' }, errors: { party_size: 'Party Size must be a whole number' } }));
    assert.equal(await page.locator(`${field('party_size')} input`).inputValue(), '2.5');
    assert.equal(await page.locator(`${field('date')} input`).inputValue(), '2027-01-02');
    assert.equal(await page.locator(`${field('party_size')} .error`).textContent(), 'Party Size must be a whole number');
    await page.locator(`${field('date')} input`).fill('2027-01-03');
    await page.waitForFunction(() => window.__posted.some((m) => m.type === 'draft'));
    const drafts = await posted('draft');
    assert.deepEqual(drafts.at(-1), { type: 'draft', requestId: 'r1', questionId: 'date', value: '2027-01-03' });
  });
});
