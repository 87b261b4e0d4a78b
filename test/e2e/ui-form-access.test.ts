/**
 * UI scenarios: the Agent Input form by keyboard and screen reader, in the real workbench
 * with the packaged extension. The form is made by the fixture's ask_schema (its arguments
 * carry the schema), so one long form covers every kind of field.
 */
/// <reference lib="dom" />
import { strict as assert } from 'node:assert';
import type { Frame } from 'playwright-core';
import type { Workbench } from './harness/workbench';
import { axeViolations } from './axe';
import { versionName } from './context';
import { startUi, type Ui, uiHooks } from './ui-setup';
import { openToolList, ResultTabs } from './ui-steps';
import { waitUntil } from '../support/wait';

/** Fourteen fields, every kind: taller than the panel, so the last one starts under the sticky bar. */
const LONG_FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    email: { type: 'string', format: 'email', title: 'Email', description: 'Where the answer goes' },
    day: { type: 'string', format: 'date', title: 'Day' },
    count: { type: 'integer', title: 'Count', default: 2 },
    ratio: { type: 'number', title: 'Ratio' },
    size: { type: 'string', title: 'Size', oneOf: [{ const: 's', title: 'Small' }, { const: 'm', title: 'Medium' }, { const: 'l', title: 'Large' }], default: 'm' },
    diet: { type: 'string', title: 'Diet', enum: ['none', 'vegetarian', 'vegan', 'halal', 'kosher', 'other'], default: 'none' },
    agree: { type: 'boolean', title: 'Agree to the terms' },
    news: { type: 'boolean', title: 'Newsletter', description: 'Send me the newsletter', default: true },
    tags: { type: 'array', title: 'Tags', items: { anyOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }] } },
    notes: { type: 'string', title: 'Notes', maxLength: 500 },
    city: { type: 'string', title: 'City' },
    phone: { type: 'string', title: 'Phone' },
    comment: { type: 'string', title: 'Comment' },
  },
  required: ['name'],
};

const field = (id: string): string => `[data-question-id="${id}"]`;

/** The frame of our form panel once it shows this message. */
async function formFrame(workbench: Workbench, message: string): Promise<Frame> {
  return waitUntil(`our form "${message}"`, async () => {
    for (const frame of workbench.page.frames()) {
      if (await frame.evaluate((m) => document.querySelector('h1.message')?.textContent === m, message).catch(() => false)) return frame;
    }
    return undefined;
  }, 30_000);
}

/** Which question the focus is in ('' outside any), or the focused button's or link's text. */
async function focusedOn(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    const active = document.activeElement;
    const question = active?.closest('[data-question-id]')?.getAttribute('data-question-id');
    return question ?? `${active?.localName ?? ''}:${active?.textContent?.trim() ?? ''}`;
  });
}

/** Presses a key until the focus is on `target` (a question id, or `button:Submit`): fails if it never gets there. */
async function pressUntil(workbench: Workbench, frame: Frame, key: string, target: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if ((await focusedOn(frame)) === target) return;
    await workbench.page.keyboard.press(key);
  }
  assert.equal(await focusedOn(frame), target, `${key} never reached ${target}`);
}

/** A theme's colour variable, resolved the way the browser resolves any colour. */
function resolved(frame: Frame, variable: string): Promise<string> {
  return frame.evaluate((v) => {
    const probe = document.createElement('div');
    probe.style.color = `var(${v})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, variable);
}

describe(`UI: the form by keyboard and screen reader (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let results: ResultTabs;

  before(async () => {
    ui = await startUi('form-access');
    results = new ResultTabs(ui.workbench);
  });
  uiHooks(() => ui);

  /** Run Tool's arguments form for ask_schema (checked by axe when asked), then the form it asks. */
  async function askLongForm(message: string, checkArguments = false): Promise<Frame> {
    const { workbench } = ui!;
    await openToolList(workbench, 'fixture');
    await workbench.pick('ask_schema');
    const args = await formFrame(workbench, 'Arguments for ask_schema');
    if (checkArguments) assert.deepEqual(await axeViolations(args), [], "Run Tool's arguments form");
    await args.locator(`${field('message')} input`).fill(message);
    await args.locator(`${field('schema')} input`).fill(JSON.stringify(LONG_FORM));
    await args.locator('button', { hasText: 'Run' }).click();
    return formFrame(workbench, message);
  }

  it('a long form is filled and submitted by keys alone; Tab and Shift+Tab go round it; a focused field is never under the Submit bar', async () => {
    const { workbench } = ui!;
    const { keyboard } = workbench.page;
    const frame = await askLongForm('By keys alone');
    assert.equal(await focusedOn(frame), 'name', 'the first field has the focus');
    // Round the form both ways: from the first field back to the last stop, and on to the first again.
    await keyboard.press('Shift+Tab');
    assert.equal(await focusedOn(frame), 'a:Answer step by step', 'Shift+Tab from the first control goes to the last');
    await keyboard.press('Tab');
    assert.equal(await focusedOn(frame), 'name', 'Tab off the end comes back to the first control');
    await keyboard.press('Shift+Tab');
    // Back past the buttons to the last field, from the top of the page: it scrolls clear of the bar.
    await pressUntil(workbench, frame, 'Shift+Tab', 'comment');
    const layout = await frame.evaluate(() => {
      const box = document.querySelector('[data-question-id="comment"] input')!.getBoundingClientRect();
      const bar = document.querySelector('.actions')!.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom, barTop: bar.top, scrolled: window.scrollY, viewport: window.innerHeight, page: document.documentElement.scrollHeight };
    });
    assert.ok(layout.page > layout.viewport, `the form is taller than the panel: ${JSON.stringify(layout)}`);
    assert.ok(layout.scrolled > 0 && layout.top >= 0 && layout.bottom <= layout.barTop, `the last field is whole, above the bar: ${JSON.stringify(layout)}`);
    await workbench.screenshot('form-access-last-field');
    // Now fill it in: a name, Large, the terms ticked, the rest as it came; then Submit, all by keys.
    await pressUntil(workbench, frame, 'Tab', 'name');
    await keyboard.type('Ada');
    await pressUntil(workbench, frame, 'Tab', 'size');
    await keyboard.press('ArrowDown');
    await pressUntil(workbench, frame, 'Tab', 'agree');
    await keyboard.press('Space');
    await pressUntil(workbench, frame, 'Tab', 'button:Submit');
    await keyboard.press('Enter');
    await results.next();
    const text = await workbench.waitForEditorText(/"action":"accept"/);
    const content = JSON.parse(/"content":(\{[^}]*\})/.exec(text.replace(/\n/g, ''))![1]) as Record<string, unknown>;
    // No tag chosen: the optional list is left out.
    assert.deepEqual(content, { name: 'Ada', count: 2, size: 'l', diet: 'none', agree: true, news: true });
  });

  it('screen readers hear radios in a radio group, and an untouched optional yes/no as not answered (mixed)', async () => {
    const frame = await askLongForm('Read aloud');
    const tree = (await frame.locator('form').ariaSnapshot()).split('\n').map((line) => line.trim());
    /** The radios a radio group named Size holds, as the accessibility tree has them. */
    const radios = async (): Promise<string[]> => (await frame.getByRole('radiogroup', { name: 'Size' }).ariaSnapshot()).split('\n').map((line) => line.trim()).filter((line) => line.startsWith('- radio '));
    assert.deepEqual(await radios(), ['- radio "Small"', '- radio "Medium" [checked]', '- radio "Large"'], 'its radios, the default checked');
    assert.ok(tree.includes('- checkbox "Agree to the terms" [checked=mixed]'), 'the untouched optional yes/no is neither yes nor no');
    assert.ok(tree.includes('- checkbox "Send me the newsletter" [checked]'), 'a yes/no with a default is answered');
    // The words on screen, and the same words for a screen reader.
    const agree = frame.locator(`${field('agree')} input`);
    const describedBy = (await agree.getAttribute('aria-describedby'))!.split(' ');
    const said = await frame.evaluate((ids) => ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim(), describedBy);
    assert.equal(said, 'Not answered');
    assert.equal(await frame.locator(`${field('agree')} .unanswered`).isVisible(), true, 'shown on screen too');
    await frame.getByRole('radio', { name: 'Large' }).check();
    assert.deepEqual(await radios(), ['- radio "Small"', '- radio "Medium"', '- radio "Large" [checked]']);
    await frame.locator('button', { hasText: 'Cancel' }).click();
    await results.next();
  });

  const THEMES = [
    { name: 'the default dark theme', pick: undefined, workbenchClass: '.monaco-workbench.vs-dark', scheme: 'dark', focus: '--vscode-focusBorder' },
    { name: 'Dark High Contrast', pick: 'Dark High Contrast', workbenchClass: '.monaco-workbench.hc-black', scheme: 'dark', focus: '--vscode-contrastActiveBorder' },
    { name: 'Light High Contrast', pick: 'Light High Contrast', workbenchClass: '.monaco-workbench.hc-light', scheme: 'light', focus: '--vscode-contrastActiveBorder' },
  ] as const;

  for (const theme of THEMES) {
    it(`in ${theme.name}: axe finds nothing on the form, its errors or Run Tool's arguments; the focus border and the date picker follow the theme`, async () => {
      const { workbench } = ui!;
      if (theme.pick) {
        await workbench.runCommand('Preferences: Color Theme');
        await workbench.pick(theme.pick);
      }
      await workbench.page.locator(theme.workbenchClass).first().waitFor({ timeout: 20_000 });
      const frame = await askLongForm(`Checked in ${theme.name}`, true);
      assert.deepEqual(await axeViolations(frame), [], 'the form');
      // The date picker's icon is drawn for the theme's background.
      assert.equal(await frame.locator(`${field('day')} input`).evaluate((input) => getComputedStyle(input).colorScheme), theme.scheme);
      // The focused field draws the border VS Code's own inputs draw in this theme.
      const name = frame.locator(`${field('name')} input`);
      await name.focus();
      const outline = await name.evaluate((input) => {
        const style = getComputedStyle(input);
        return { style: style.outlineStyle, width: parseFloat(style.outlineWidth), colour: style.outlineColor };
      });
      const expected = await resolved(frame, theme.focus);
      assert.match(expected, /^rgb/, `the theme defines ${theme.focus}`);
      assert.deepEqual(outline, { style: 'solid', width: 1, colour: expected }, `the focus border (${theme.focus})`);
      await workbench.screenshot(`form-access-${theme.scheme}-${theme.pick ? 'hc' : 'default'}`);
      // The error state: Submit refused, every message on screen.
      await frame.locator(`${field('email')} input`).fill('not an email');
      await workbench.page.keyboard.press('Control+Enter');
      await frame.locator(`${field('name')} .error`, { hasText: 'Name is required' }).waitFor();
      await frame.locator(`${field('email')} .error`, { hasText: 'Email must be' }).waitFor();
      assert.deepEqual(await axeViolations(frame), [], 'the form showing its errors');
      await workbench.screenshot(`form-access-errors-${theme.scheme}-${theme.pick ? 'hc' : 'default'}`);
      await workbench.page.keyboard.press('Escape');
      await results.next();
    });
  }
});
