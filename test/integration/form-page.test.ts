/**
 * The built form page (dist/webview) in headless Chromium, without VS Code: served as the
 * panel serves it (formPageHtml: the same HTML, the same Content-Security-Policy, script and
 * styles inlined under a fresh nonce), with a stubbed acquireVsCodeApi that records what the
 * page posts (test/support/page-harness.ts). The test posts what the host would.
 */
/// <reference lib="dom" />
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { LIMITS } from '../../src/elicitation/limits';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';
import type { FormView, PageMessage } from '../../src/shared/protocol';
import { formPageHtml } from '../../src/ui/form/form-page';
import { BOOK_RESTAURANT } from '../fixtures/schemas';
import { PageHarness, WEBVIEW } from '../support/page-harness';

declare global {
  interface Window {
    __pwned?: unknown;
    __checksAtHostLoad?: boolean;
  }
}

function form(message: string, schema: object, extra: Partial<FormView> = {}): FormView {
  return { requestId: 'r1', asker: { server: 'fixture', tool: 'book_restaurant' }, message, questions: parseRequestedSchemaOrThrow(schema).questions, drafts: {}, ...extra };
}

describe('form page in headless Chromium', function () {
  this.timeout(60_000);
  let pages: PageHarness;
  let page: Page;
  /** The form the next page load carries inside it, as the panel does for the first form. */
  let initialForm: FormView | undefined;
  /** The checks bundle (patterns, formats) is served once this settles (a test holds it back to be late). */
  let checksGate: Promise<void> = Promise.resolve();

  before(async () => {
    pages = await PageHarness.start({
      script: 'main.js',
      styles: 'styles.css',
      html: (parts) => formPageHtml({ ...parts, checksScript: `${parts.cspSource}/checks.js`, ...(initialForm && { initialForm }) }),
      resource: (path, res) => {
        if (path !== '/checks.js') return false;
        // The one resource the page fetches, as the panel serves it: the deferred pattern and format checks.
        void checksGate.then(() => res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(WEBVIEW, 'checks.js'))));
        return true;
      },
    });
  });

  after(() => pages?.close());

  async function open(withForm?: FormView): Promise<void> {
    initialForm = withForm;
    // A load listener added after the page's own, as VS Code's host adds the one that shows the frame.
    page = await pages.open(`document.addEventListener('DOMContentLoaded', () => addEventListener('load', () => { window.__checksAtHostLoad = document.querySelector('script[src$="/checks.js"]') !== null; }));`);
  }

  beforeEach(() => open());

  afterEach(() => pages.closeClean(page));

  async function render(view: FormView): Promise<void> {
    await pages.deliver(page, { type: 'render', form: view });
    await page.waitForFunction((id) => window.__posted.some((m) => m.type === 'shown' && m.requestId === id), view.requestId);
  }

  function posted(type: PageMessage['type']): Promise<PageMessage[]> {
    return pages.posted<PageMessage>(page, type);
  }

  const field = (id: string): string => `[data-question-id="${id}"]`;

  it('book_restaurant: renders, focuses the first field, and posts the typed answers', async () => {
    await render(form('Please provide your reservation details for Chez Page:', BOOK_RESTAURANT));
    assert.equal(await page.locator('.source').textContent(), 'fixture · book_restaurant');
    assert.equal(await page.locator('h1.message').textContent(), 'Please provide your reservation details for Chez Page:');
    const focused = await page.evaluate(() => document.activeElement?.closest('[data-question-id]')?.getAttribute('data-question-id'));
    assert.equal(focused, 'party_size');
    assert.equal(await page.locator(`${field('party_size')} input`).inputValue(), '2', 'the default is filled');
    assert.equal(await page.locator(`${field('dietary')} input[type="radio"]`).count(), 0, 'six options: a dropdown, not radios');
    await page.locator(`${field('party_size')} input`).fill('4');
    await page.locator(`${field('date')} input`).fill('2026-12-24');
    await page.evaluate(() => {
      const select = document.querySelector<HTMLSelectElement>('[data-question-id="dietary"] select')!;
      select.value = 'vegan';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.locator('button', { hasText: 'Submit' }).click();
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

  it("checks patterns as the person types with the host's matcher, loaded after the page, in linear time", async () => {
    // The matcher comes in its own script (dist/webview/checks.js), after the first render.
    await page.waitForFunction(() => 'elicitationHostChecks' in window);
    await render(
      form('Voucher', {
        type: 'object',
        properties: {
          code: { type: 'string', title: 'Voucher code', pattern: '^[A-Z]{3}-\\d{4}$' },
          trap: { type: 'string', title: 'Trap', pattern: '^(a+)+$' },
        },
      }),
    );
    await page.locator(`${field('code')} input`).fill('abc-1234');
    await page.waitForFunction(() => document.querySelector('[data-question-id="code"] .error')?.textContent === 'Voucher code must match the pattern ^[A-Z]{3}-\\d{4}$');
    await page.locator(`${field('code')} input`).fill('ABC-1234');
    await page.waitForFunction(() => !document.querySelector('[data-question-id="code"] .error')?.textContent);
    // A backtracking engine would hold the page for ever on this answer; RE2 decides at once.
    await page.locator(`${field('trap')} input`).fill(`${'a'.repeat(30)}!`);
    await page.waitForFunction(() => document.querySelector('[data-question-id="trap"] .error')?.textContent === 'Trap must match the pattern ^(a+)+$');
  });

  it('the page loads and shows its form without waiting for the checks; fields typed in before they arrived are checked when they do', async () => {
    await page.close();
    let release = (): void => undefined;
    checksGate = new Promise((resolve) => (release = resolve));
    try {
      await open(form('Voucher', { type: 'object', properties: { code: { type: 'string', title: 'Voucher code', pattern: '^[A-Z]{3}$' }, email: { type: 'string', format: 'email', title: 'Email' }, note: { type: 'string' } } }));
      // VS Code shows a new page's frame at its load event: a script still loading would hold it back.
      await page.waitForFunction(() => document.readyState === 'complete' && window.__posted.some((m) => m.type === 'shown' && m.requestId === 'r1'));
      // Not in the load event itself: VS Code's host shows the frame in a load listener that runs after the page's.
      await page.waitForFunction(() => window.__checksAtHostLoad !== undefined);
      assert.equal(await page.evaluate(() => window.__checksAtHostLoad), false, 'the checks are not asked for before VS Code has shown the frame');
      await page.waitForFunction(() => document.querySelector('script[src$="/checks.js"]') !== null);
      await page.locator(`${field('code')} input`).fill('abc');
      await page.locator(`${field('email')} input`).fill('not an email');
      await page.locator(`${field('note')} input`).fill('moved on');
      assert.equal(await page.evaluate(() => 'elicitationHostChecks' in window), false, 'the checks were held back');
      // Without them the page gives neither verdict (the host's check on submit would).
      assert.equal(await page.locator(`${field('code')} .error`).textContent(), '');
      assert.equal(await page.locator(`${field('email')} .error`).textContent(), '');
      release();
      await page.waitForFunction(() => document.querySelector('[data-question-id="code"] .error')?.textContent === 'Voucher code must match the pattern ^[A-Z]{3}$');
      await page.waitForFunction(() => document.querySelector('[data-question-id="email"] .error')?.textContent?.startsWith('Email must be an email address'));
    } finally {
      release();
      checksGate = Promise.resolve();
    }
  });

  it('a field that takes the focus under the sticky bar scrolls clear of it', async () => {
    await page.setViewportSize({ width: 800, height: 360 });
    await render(form('Ten fields', { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, { type: 'string', title: `Field ${i}` }])) }));
    // The page's scroll padding follows the bar's height once the bar is laid out.
    await page.waitForFunction(() => document.documentElement.style.scrollPaddingBottom !== '');
    const seen = await page.evaluate(() => {
      window.scrollTo(0, 0);
      const bar = document.querySelector('.actions')!;
      const under = [...document.querySelectorAll('input')].find((input) => input.getBoundingClientRect().bottom > bar.getBoundingClientRect().top);
      if (!under) return undefined;
      under.focus();
      return { field: under.getBoundingClientRect().bottom, bar: bar.getBoundingClientRect().top, padding: getComputedStyle(document.documentElement).scrollPaddingBottom, barHeight: bar.getBoundingClientRect().height };
    });
    assert.ok(seen, 'a field starts under the sticky bar');
    assert.ok(seen.field <= seen.bar, `the focused field is above the bar: ${JSON.stringify(seen)}`);
    assert.equal(seen.padding, `${Math.ceil(seen.barHeight) + 8}px`, 'the padding is the bar\'s height and a margin');
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
    await page.locator(`${field('agree')} input[type="checkbox"]`).click();
    await page.locator(field('size')).getByRole('radio', { name: 'Large' }).click();
    await page.locator(field('tags')).getByRole('checkbox', { name: 'Beta' }).click();
    await page.locator(`${field('notes')} input`).fill('  kept as typed  ');
    await page.locator(`${field('story')} textarea`).fill('line one\nline two');
    assert.equal(await page.locator(`${field('email')} input`).getAttribute('type'), 'email');
    assert.equal(await page.locator(`${field('email')} input`).getAttribute('aria-required'), 'true', 'required is told');
    assert.equal(await page.locator(`${field('email')} label.required`).count(), 1, 'required is marked');
    await page.locator('button', { hasText: 'Submit' }).click();
    const [submitted] = (await posted('submit')) as Array<Extract<PageMessage, { type: 'submit' }>>;
    const when = submitted.values.when as string;
    assert.match(when, /^2026-11-2\dT\d\d:30:00Z$/, 'a local date-time is sent as RFC 3339 UTC');
    assert.deepEqual({ ...submitted.values, when: 'checked' }, {
      email: 'a@example.com', homepage: 'https://example.com/x', when: 'checked', ratio: 0.5, count: 7, agree: true, size: 'l', tags: ['b'], notes: '  kept as typed  ', story: 'line one\nline two',
    });
  });

  it('hostile server text stays inert text without its bidi override, and the most options a field may have (1,000) render', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"></script><script>window.__pwned=2</script>\u202Eevil';
    // Shown as written, less the right-to-left override that would turn "evil" around.
    const shown = hostile.replace('\u202E', '');
    const options = Array.from({ length: LIMITS.options }, (_, i) => ({ const: `o${i}`, title: i === 3 ? hostile : `Option ${i}` }));
    await render({
      ...form(hostile, { type: 'object', properties: { pick: { type: 'string', title: hostile, description: hostile, oneOf: options } } }),
      asker: { server: hostile, tool: hostile, agent: hostile },
    });
    assert.equal(await page.locator('h1.message').textContent(), shown);
    assert.equal(await page.locator(`${field('pick')} .label`).textContent(), shown);
    assert.equal(await page.locator('.source').textContent(), `${shown} · ${shown}, for ${shown}`, 'who asks, and for which agent (a gateway call)');
    // Every option, and "(no answer)" for a field that is not required.
    assert.equal(await page.locator(`${field('pick')} option`).count(), LIMITS.options + 1);
    assert.equal(await page.locator('img').count(), 0, 'no element was created from server text');
    assert.equal(await page.evaluate(() => window.__pwned), undefined, 'no server script ran');
  });

  it('Decline, Cancel (Escape) and Answer step by step are posted as such', async () => {
    await render(form('Booking', BOOK_RESTAURANT));
    await page.locator('button', { hasText: 'Decline' }).click();
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

  const ALL_KINDS = {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email', title: 'Email', description: 'Where the booking goes' },
      when: { type: 'string', format: 'date-time', title: 'When' },
      ratio: { type: 'number', title: 'Ratio' },
      count: { type: 'integer', title: 'Count' },
      agree: { type: 'boolean', title: 'Agree', description: 'I agree to the terms' },
      size: { type: 'string', title: 'Size', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
      diet: { type: 'string', title: 'Diet', enum: ['none', 'vegetarian', 'vegan', 'halal', 'kosher', 'other'] },
      tags: { type: 'array', title: 'Tags', items: { anyOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }] }, minItems: 1 },
      story: { type: 'string', title: 'Story', maxLength: 2000 },
      token: { type: 'string', title: 'API token' },
    },
    required: ['email'],
  };

  it('Escape in an open dropdown closes the list; the next Escape cancels the form', async () => {
    await render(form('Booking', BOOK_RESTAURANT));
    const select = page.locator(`${field('dietary')} select`);
    await select.focus();
    // Opened from the keyboard: the list is the browser's own popup, which takes the Escape.
    await page.keyboard.press('Alt+ArrowDown');
    await page.keyboard.press('Escape');
    assert.deepEqual(await posted('cancel'), [], 'the form is still open');
    const focused = await page.evaluate(() => document.activeElement?.closest('[data-question-id]')?.getAttribute('data-question-id'));
    assert.equal(focused, 'dietary', 'the closed select keeps the focus');
    await page.keyboard.press('Escape');
    assert.deepEqual(await posted('cancel'), [{ type: 'cancel', requestId: 'r1' }]);
  });

  it('Escape on a focused, closed dropdown cancels at once, and only once', async () => {
    await render(form('Booking', BOOK_RESTAURANT));
    await page.locator(`${field('dietary')} select`).focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    assert.deepEqual(await posted('cancel'), [{ type: 'cancel', requestId: 'r1' }]);
  });

  it('number and integer fields step by 1; a number field still takes 2.5, an integer field refuses it', async () => {
    await render(form('Numbers', ALL_KINDS));
    const inner = (id: string): Promise<{ step: string | null; background: string; markedInvalid: boolean; error: string }> =>
      page.locator(field(id)).evaluate((root) => {
        const input = root.querySelector('input')!;
        return { step: input.getAttribute('step'), background: getComputedStyle(input).backgroundColor, markedInvalid: input.getAttribute('aria-invalid') === 'true', error: root.querySelector('.error')!.textContent! };
      });
    const untouched = await inner('ratio');
    assert.equal(untouched.step, '1');
    assert.equal((await inner('count')).step, '1');
    await page.locator(`${field('ratio')} input`).fill('2.5');
    await page.locator(`${field('count')} input`).fill('2.5');
    const ratio = await inner('ratio');
    assert.deepEqual({ ...ratio, step: 'checked' }, { ...untouched, step: 'checked' }, 'no error, and not painted as one (the browser\'s step mismatch shows nothing)');
    const count = await inner('count');
    assert.equal(count.error, 'Count must be a whole number');
    assert.equal(count.markedInvalid, true);
    assert.notEqual(count.background, untouched.background, 'a real error is painted');
    await page.locator(`${field('count')} input`).fill('3');
    await page.locator(`${field('email')} input`).fill('a@example.com');
    await page.locator('button', { hasText: 'Submit' }).click();
    const [submitted] = (await posted('submit')) as Array<Extract<PageMessage, { type: 'submit' }>>;
    assert.equal(submitted.values.ratio, 2.5);
    assert.equal(submitted.values.count, 3);
  });

  it('every control has an accessible name; help text and errors describe the control that has focus', async () => {
    await render(form('All kinds', ALL_KINDS, { errors: { count: 'Count must be a whole number' } }));
    const snapshot = await page.locator('form').ariaSnapshot();
    // The controls a screen reader stops at, with the names it reads (the accessibility snapshot).
    const controls = snapshot
      .split('\n')
      .map((line) => line.trim().replace(/^- /, '').replace(/:$/, ''))
      .filter((line) => /^(textbox|spinbutton|checkbox|combobox|radiogroup|radio|group)\b/.test(line));
    assert.deepEqual(controls, [
      'textbox "Email"',
      'textbox "When"',
      'spinbutton "Ratio"',
      'spinbutton "Count" [invalid]',
      'group "Agree"',
      // An optional yes/no nobody touched: neither yes nor no.
      'checkbox "I agree to the terms" [checked=mixed]',
      'radiogroup "Size"',
      'radio "Small"',
      'radio "Large"',
      'combobox "Diet"',
      'group "Tags"',
      'checkbox "Alpha"',
      'checkbox "Beta"',
      'textbox "Story"',
      'textbox "API token"',
    ]);
    // Descriptions as Chromium's own accessibility tree has them (the snapshot leaves them out).
    const cdp = await page.context().newCDPSession(page);
    interface AxNode { ignored: boolean; role?: { value: string }; name?: { value: string }; description?: { value: string }; properties?: Array<{ name: string; value: { value: unknown } }> }
    const described = async (role: string, name: string): Promise<{ description?: string; invalid?: unknown; required?: unknown }> => {
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
      const node = nodes.find((n) => !n.ignored && n.role?.value === role && n.name?.value === name);
      assert.ok(node, `a ${role} named ${name}`);
      const property = (key: string): unknown => node.properties?.find((p) => p.name === key)?.value.value;
      return { description: node.description?.value, invalid: property('invalid'), required: property('required') };
    };
    assert.deepEqual(await described('textbox', 'Email'), { description: 'Where the booking goes', invalid: 'false', required: true });
    assert.deepEqual(await described('spinbutton', 'Count'), { description: 'Count must be a whole number', invalid: 'true', required: false });
    assert.equal((await described('textbox', 'API token')).description, 'This looks like a request for a secret. MCP servers must not ask for passwords or keys in a form.');
    assert.equal((await described('group', 'Tags')).description, 'Choose at least 1.');
    // "Not answered" is said, not only drawn; answered, it is gone from the description.
    assert.equal((await described('checkbox', 'I agree to the terms')).description, 'Not answered');
    await page.getByRole('checkbox', { name: 'I agree to the terms' }).click();
    assert.equal((await described('checkbox', 'I agree to the terms')).description, undefined);
    // A choice made is the one radio checked.
    await page.getByRole('radio', { name: 'Large' }).click();
    const radios = (await page.getByRole('radiogroup', { name: 'Size' }).ariaSnapshot()).split('\n').map((line) => line.trim());
    assert.deepEqual(radios.filter((line) => line.startsWith('- radio ')), ['- radio "Small"', '- radio "Large" [checked]']);
    // A new error is announced (role=alert) and joins the description of the control.
    await page.locator(`${field('email')} input`).fill('not an email');
    await page.locator(`${field('email')} .error[role="alert"]`, { hasText: 'Email must be' }).waitFor();
    assert.deepEqual(await described('textbox', 'Email'), {
      // aria-describedby joins the helper text and the error with a space.
      description: 'Where the booking goes Email must be an email address, like name@example.com',
      invalid: 'true',
      required: true,
    });
  });

  it('a draft goes to the host at once when the page is hidden or closed, not after the pause', async () => {
    await render(form('Booking', BOOK_RESTAURANT));
    const draftsNow = async (): Promise<PageMessage[]> => posted('draft');
    await page.locator(`${field('party_size')} input`).fill('6');
    assert.deepEqual(await draftsNow(), [], 'typing waits for a pause');
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    assert.deepEqual(await draftsNow(), [{ type: 'draft', requestId: 'r1', questionId: 'party_size', value: '6' }], 'hidden: posted at once');
    await page.locator(`${field('date')} input`).fill('2027-05-01');
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide')));
    assert.deepEqual((await draftsNow()).at(-1), { type: 'draft', requestId: 'r1', questionId: 'date', value: '2027-05-01' }, 'closed: posted at once');
    await page.locator(`${field('party_size')} input`).fill('5');
    await page.evaluate(() => window.dispatchEvent(new Event('blur')));
    assert.deepEqual((await draftsNow()).at(-1), { type: 'draft', requestId: 'r1', questionId: 'party_size', value: '5' }, 'left for the workbench: posted at once');
  });

  it('a finished change (leaving a field, choosing from the dropdown) is posted at once', async () => {
    await render(form('Booking', BOOK_RESTAURANT));
    await page.locator(`${field('party_size')} input`).fill('3');
    await page.keyboard.press('Tab');
    assert.deepEqual(await posted('draft'), [{ type: 'draft', requestId: 'r1', questionId: 'party_size', value: '3' }]);
    // Chosen from the dropdown: the select's change goes at once.
    await page.locator(`${field('dietary')} select`).selectOption({ label: 'Halal' });
    assert.deepEqual((await posted('draft')).at(-1), { type: 'draft', requestId: 'r1', questionId: 'dietary', value: 'halal' });
  });

  it("a draft from elsewhere shows in its field without taking the focus, and never overwrites what the person changed in the field they are in", async () => {
    await render(form('Booking', BOOK_RESTAURANT));
    const draft = (questionId: string, value: string | number | null): Promise<void> =>
      page.evaluate(([q, v]) => window.postMessage({ type: 'draft', requestId: 'r1', questionId: q, value: v }, '*'), [questionId, value] as const);
    const value = (id: string): Promise<string> => page.locator(`${field(id)} input`).inputValue();
    const shows = (id: string, expected: string): Promise<unknown> => page.waitForFunction(([sel, v]) => (document.querySelector(sel) as HTMLInputElement).value === v, [`${field(id)} input`, expected] as const);
    const focusedField = (): Promise<string | undefined> => page.evaluate(() => document.activeElement?.closest('[data-question-id]')?.getAttribute('data-question-id') ?? undefined);
    const sentFor = async (id: string): Promise<PageMessage[]> => (await posted('draft')).filter((m) => m.type === 'draft' && m.questionId === id);
    assert.equal(await focusedField(), 'party_size', 'the form opens in its first field');

    // In the field, nothing changed there: the draft waits until they leave it; another field's shows at once, the focus stays.
    await draft('party_size', 7);
    await draft('date', '2027-06-01');
    await shows('date', '2027-06-01');
    assert.equal(await value('party_size'), '2', 'not while they are in the field');
    assert.equal(await focusedField(), 'party_size', "another field's draft leaves the focus where it was");
    await page.keyboard.press('Tab');
    assert.equal(await value('party_size'), '7', 'shown once they left the field, which they had not changed');
    assert.equal(await focusedField(), 'date');

    // Typing in a field: a draft for it, whether their change is sent yet or not, leaves theirs.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5');
    await draft('party_size', 9);
    await page.waitForFunction(() => window.__posted.some((m) => m.type === 'draft' && m.questionId === 'party_size'));
    assert.deepEqual(await sentFor('party_size'), [{ type: 'draft', requestId: 'r1', questionId: 'party_size', value: '5' }], 'their change is sent, not the draft');
    await draft('party_size', 11);
    await draft('date', '2027-06-02');
    await shows('date', '2027-06-02');
    assert.equal(await value('party_size'), '5', 'a change of the person, sent or not, is never overwritten while they are in the field');
    await page.keyboard.press('Tab');
    assert.equal(await value('party_size'), '5', 'nor when they leave it');

    // A field they are not in: the draft shows at once, the focus untouched.
    await draft('party_size', 3);
    // A posted message arrives in a task of its own: waited for, not read at once.
    await shows('party_size', '3');
    assert.equal(await value('party_size'), '3');
    assert.equal(await focusedField(), 'date', 'the focus stayed in the field the person tabbed to');
  });

  it('Enter and Ctrl+Enter in a text field send one submission', async () => {
    await render(form('Booking', BOOK_RESTAURANT));
    await page.locator(`${field('date')} input`).fill('2027-05-01');
    await page.locator(`${field('party_size')} input`).focus();
    await page.keyboard.press('Control+Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    assert.equal((await posted('submit')).length, 1);
    assert.deepEqual(await posted('cancel'), [], 'nothing after the submission');
  });

  it('the first form comes inside the page, under the policy, and server text cannot end its script element', async () => {
    await page.close();
    const hostile = '</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
    await open(form(hostile, BOOK_RESTAURANT, { requestId: 'inline' }));
    assert.equal(await page.locator('h1.message').textContent(), hostile);
    assert.deepEqual((await posted('ready')).at(-1), { type: 'ready', showing: 'inline' });
    await page.waitForFunction(() => window.__posted.some((m) => m.type === 'shown'));
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    // A long story fills the text area past its height: its scrollbar is drawn, and needs nothing the policy refuses.
    await render(form('Story', ALL_KINDS, { requestId: 'r2', drafts: { story: 'line\n'.repeat(50) } }));
    assert.equal(await page.locator(`${field('story')} textarea`).evaluate((t) => t.scrollHeight > t.clientHeight), true);
    await page.screenshot();
  });
});
