/// <reference lib="dom" />
/**
 * UI scenarios: an agent living in another extension asks through our API (version 1,
 * elicitation-host.d.ts). A test extension (api-probe-extension/) calls confirm, elicit and
 * requestInput; the person answers in our prompts, shown as "Extension: API Probe"; the
 * extension gets the answers, and a live request's drafts as the person types. It calls
 * tools only once the person allowed it the server (a destructive tool asks each call), and
 * cannot ask under a made-up name. A waiting question shows on the activity bar, and the
 * status bar item stands out when it came while the window was not focused.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../support/wait';
import { versionName } from './context';
import { packTestExtension, probeFile } from './test-extensions';
import { startUi, type Ui, uiHooks } from './ui-setup';

interface Answer<T> {
  readonly value?: T;
  readonly error?: string;
  readonly code?: number;
}

/** A tool result's JSON text. */
const resultJson = (answer: Answer<{ content: Array<{ text: string }> }>): unknown => JSON.parse(answer.value?.content[0]?.text ?? 'null');

describe(`UI: agents in extensions ask through the API (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let probeDir: string;

  /** Has the probe make one call of the API; returns what it got back once it has. */
  async function ask<T>(call: 'confirm' | 'elicit' | 'requestInput' | 'callTool', args: unknown, as?: string): Promise<() => Promise<Answer<T>>> {
    for (const name of ['answer.json', 'changes.jsonl', 'updated.json']) rmSync(join(probeDir, name), { force: true });
    writeFileSync(join(probeDir, 'ask.json'), JSON.stringify({ call, args, ...(as !== undefined && { as }) }));
    await ui!.workbench.runCommand('API Probe: Ask Through Elicitation Host');
    return () => probeFile<Answer<T>>(join(probeDir, 'answer.json'));
  }

  interface Change {
    readonly questionId: string;
    readonly answer?: { readonly state: string; readonly value?: { readonly kind: string; readonly value: unknown; readonly freeformValues?: unknown } };
  }
  /** The answer changes the probe has been told of so far, in order. */
  const changesSoFar = (): Change[] => {
    const changes = join(probeDir, 'changes.jsonl');
    return existsSync(changes) ? readFileSync(changes, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Change) : [];
  };
  /** The visible rows' labels, without their descriptions. */
  const rowLabels = async (): Promise<string[]> => (await ui!.workbench.quickInput.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts()).map((r) => r.trim());

  /** The dialog's default button: the one that has the focus (Enter presses it). */
  const defaultButton = async (): Promise<string> => {
    const focused = ui!.workbench.dialog.locator('.monaco-button:focus');
    await focused.waitFor({ timeout: 10_000 });
    return focused.innerText();
  };
  const formFrame = () => ui!.workbench.webview();
  const field = (id: string): string => `[data-question-id="${id}"]`;

  before(async () => {
    probeDir = mkdtempSync(join(tmpdir(), 'eh-api-probe-'));
    ui = await startUi('extension-api', {}, { PROBE_DIR: probeDir }, undefined, [packTestExtension('api-probe-extension', probeDir)]);
  });
  uiHooks(() => ui, () => rmSync(probeDir, { recursive: true, force: true }));

  it('confirm: a destructive one is our modal, in the extension\'s name; true only on Accept', async () => {
    const { workbench } = ui!;
    let answer = await ask<boolean>('confirm', { question: 'Delete these 5 files?', destructive: true });
    await workbench.dialog.waitFor({ timeout: 30_000 });
    const text = await workbench.dialog.innerText();
    assert.match(text, /The extension "API Probe" asks to go ahead with a destructive action\. Accept\?/);
    assert.match(text, /Delete these 5 files\?/);
    await workbench.screenshot('api-confirm-destructive');
    await workbench.clickDialogButton('Accept');
    assert.deepEqual(await answer(), { value: true });
    // Not destructive: the quick pick, saying who asks; Escape is false.
    answer = await ask<boolean>('confirm', { question: 'Open the changelog?' });
    await workbench.waitForQuickInputTitle('Extension: API Probe');
    await workbench.page.keyboard.press('Escape');
    assert.deepEqual(await answer(), { value: false });
  });

  it('elicit: the MCP form in our panel, validated; a bad schema is a typed -32602 naming the field', async () => {
    const { workbench } = ui!;
    let answer = await ask<{ action: string; content?: Record<string, unknown> }>('elicit', {
      message: 'Where to deploy?',
      requestedSchema: { type: 'object', properties: { region: { type: 'string', title: 'Region', enum: ['eu-west', 'us-east'] }, replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 5 } }, required: ['region', 'replicas'] },
    });
    const frame = formFrame();
    await frame.locator('h1.message', { hasText: 'Where to deploy?' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator('.source').textContent(), 'Extension: API Probe');
    await frame.locator(`${field('region')} label`, { hasText: 'us-east' }).click();
    await frame.locator(`${field('replicas')} input`).fill('9');
    await frame.locator(`${field('replicas')} .error`, { hasText: 'between 1 and 5' }).waitFor();
    await frame.locator(`${field('replicas')} input`).fill('3');
    await workbench.screenshot('api-elicit-form');
    await frame.locator('button', { hasText: 'Submit' }).click();
    assert.deepEqual(await answer(), { value: { action: 'accept', content: { region: 'us-east', replicas: 3 } } });
    answer = await ask('elicit', { message: 'Nested?', requestedSchema: { type: 'object', properties: { address: { type: 'object' } } } });
    const refused = await answer();
    assert.match(refused.error ?? '', /^ElicitationRequestError: .*properties\.address/);
  });

  it('requestInput: the given answers are the form\'s drafts (own answers too), the extension sees the person\'s drafts as they type and its own updates show at once, and the completion', async () => {
    const { workbench } = ui!;
    const answer = await ask<{ response: string; answers: Record<string, unknown> }>('requestInput', {
      message: 'Your stay',
      questions: [
        { id: 'city', kind: 'text', title: 'City', required: true },
        { id: 'nights', kind: 'integer', title: 'Nights', minimum: 1 },
        { id: 'room', kind: 'single-select', title: 'Room', required: true, allowFreeformInput: true, options: [{ id: 'sea', label: 'Sea view' }, { id: 'court', label: 'Courtyard' }] },
        { id: 'extras', kind: 'multi-select', title: 'Extras', allowFreeformInput: true, options: [{ id: 'wifi', label: 'Wi-Fi' }, { id: 'parking', label: 'Parking' }] },
      ],
      answers: {
        city: { state: 'draft', value: { kind: 'text', value: 'Lis' } },
        extras: { state: 'draft', value: { kind: 'selected-many', value: ['wifi'], freeformValues: ['cot'] } },
      },
    });
    const frame = formFrame();
    await frame.locator('h1.message', { hasText: 'Your stay' }).waitFor({ timeout: 30_000 });
    assert.equal(await frame.locator(`${field('city')} input`).inputValue(), 'Lis', 'the answer the extension gave is the draft');
    // A select that takes the person's own answer: the options, then a box for it, the given one in it.
    assert.equal(await frame.locator(`${field('extras (own answer)')} input`).inputValue(), 'cot', 'the given freeformValues are the own answer\'s draft');
    await frame.locator(`${field('room (own answer)')} input`).fill('Attic');
    assert.match(await workbench.pendingStatus(), /^1 Extension: API Probe$/, 'the status bar names the extension as one');
    await frame.locator(`${field('city')} input`).fill('Lisbon');
    const drafts = await waitUntil('the extension to see the drafts', () => {
      const lines = changesSoFar();
      return lines.some((c) => c.questionId === 'city' && c.answer?.state === 'draft' && c.answer.value?.value === 'Lisbon') && lines.some((c) => c.questionId === 'room') ? lines : undefined;
    }, 20_000);
    assert.ok(drafts.length >= 2);
    // The extension updates a draft of a field the person has not changed: the open form shows it at once.
    writeFileSync(join(probeDir, 'update.json'), JSON.stringify({ questionId: 'nights', answer: { state: 'draft', value: { kind: 'number', value: 6 } } }));
    await workbench.runCommand('API Probe: Update a Draft');
    assert.deepEqual(await probeFile(join(probeDir, 'updated.json')), { ok: true });
    await waitUntil('the form to show the extension\'s draft', async () => ((await frame.locator(`${field('nights')} input`).inputValue()) === '6' ? true : undefined), 10_000);
    // One the person changed stays theirs: what they typed wins, and the extension is told why.
    rmSync(join(probeDir, 'updated.json'), { force: true });
    writeFileSync(join(probeDir, 'update.json'), JSON.stringify({ questionId: 'city', answer: { state: 'draft', value: { kind: 'text', value: 'Porto' } } }));
    await workbench.runCommand('API Probe: Update a Draft');
    const refused = await probeFile<{ ok: boolean; reason?: string }>(join(probeDir, 'updated.json'));
    assert.equal(refused.ok, false);
    assert.match(refused.reason ?? '', /the person changed city/);
    assert.equal(await frame.locator(`${field('city')} input`).inputValue(), 'Lisbon', 'the field keeps what the person typed');
    await workbench.screenshot('api-request-input');
    await frame.locator('button', { hasText: 'Submit' }).click();
    assert.deepEqual(await answer(), {
      value: {
        response: 'accept',
        answers: {
          city: { state: 'submitted', value: { kind: 'text', value: 'Lisbon' } },
          nights: { state: 'submitted', value: { kind: 'number', value: 6 } },
          // Typed with no option chosen: a text answer; chosen and typed: freeformValues beside the options.
          room: { state: 'submitted', value: { kind: 'text', value: 'Attic' } },
          extras: { state: 'submitted', value: { kind: 'selected-many', value: ['wifi'], freeformValues: ['cot'] } },
        },
      },
    });
  });

  it('requestInput: a lone select that takes the person\'s own answer is a quick pick with Other…: typed, a text answer; Back, then an option, the option alone; a multi-select\'s Other… adds freeformValues', async () => {
    const { workbench } = ui!;
    const quick = workbench.quickInput;
    const options = [{ id: 'sea', label: 'Sea view' }, { id: 'court', label: 'Courtyard' }];
    // The box, by its whole placeholder (the pick's own may speak of your own answer too).
    const ownAnswerBox = (placeholder: string) => waitUntil(`the box "${placeholder}"`, async () => (await workbench.placeholder()) === placeholder || undefined, 10_000);
    // Required: the options and Other…, no Leave empty.
    let answer = await ask<{ response: string; answers: Record<string, unknown> }>('requestInput', {
      message: 'Which room?',
      questions: [{ id: 'room', kind: 'single-select', title: 'Room', required: true, allowFreeformInput: true, options }],
    });
    await workbench.waitForQuickInputTitle('Extension: API Probe', 30_000);
    await quick.locator('.quick-input-list .monaco-list-row', { hasText: 'Other…' }).waitFor({ timeout: 20_000 });
    const rows = await rowLabels();
    assert.deepEqual(rows.filter((r) => ['Sea view', 'Courtyard', 'Other…', 'Leave empty'].includes(r)), ['Sea view', 'Courtyard', 'Other…'], 'the options, then Other…; a required one cannot be left empty');
    assert.match(await quick.locator('.quick-input-list .monaco-list-row', { hasText: 'Other…' }).innerText(), /type your own answer/);
    await workbench.screenshot('api-request-input-other');
    await workbench.clickRow('Other…');
    // The box for their own answer: blank is refused, typed is a draft the extension sees.
    await ownAnswerBox('Room: your own answer');
    await workbench.page.keyboard.press('Enter');
    await quick.locator('.quick-input-message', { hasText: 'Not sent: Room: your own answer is required' }).waitFor({ timeout: 10_000 });
    await workbench.typeInQuickInput('Attic');
    await waitUntil('the extension to see the typed draft', () => changesSoFar().some((c) => c.questionId === 'room' && c.answer?.state === 'draft' && c.answer.value?.kind === 'text' && c.answer.value.value === 'Attic') || undefined, 10_000);
    await workbench.screenshot('api-request-input-other-typed');
    await workbench.page.keyboard.press('Enter');
    assert.deepEqual(await answer(), { value: { response: 'accept', answers: { room: { state: 'submitted', value: { kind: 'text', value: 'Attic' } } } } });

    // Optional: Leave empty too. Typed, then Back to the options and one chosen: the option alone is sent.
    answer = await ask('requestInput', { message: 'Which room?', questions: [{ id: 'room', kind: 'single-select', title: 'Room', allowFreeformInput: true, options }] });
    await quick.locator('.quick-input-list .monaco-list-row', { hasText: 'Other…' }).waitFor({ timeout: 30_000 });
    assert.ok((await rowLabels()).includes('Leave empty'), 'an optional one can be left empty');
    await workbench.clickRow('Other…');
    await ownAnswerBox('Room: your own answer');
    await workbench.typeInQuickInput('Loft');
    // Back: the one button on the title bar's left (1.103 and 1.139).
    await quick.locator('.quick-input-left-action-bar .action-label').first().click();
    await quick.locator('.quick-input-list .monaco-list-row', { hasText: 'Courtyard' }).waitFor({ timeout: 10_000 });
    await workbench.clickRow('Courtyard');
    assert.deepEqual(await answer(), { value: { response: 'accept', answers: { room: { state: 'submitted', value: { kind: 'selected', value: 'court' } } } } });

    // A multi-select: options ticked, Other… ticked, then the box takes comma-separated values.
    answer = await ask('requestInput', {
      message: 'Extras?',
      questions: [{ id: 'extras', kind: 'multi-select', title: 'Extras', required: true, allowFreeformInput: true, options: [{ id: 'wifi', label: 'Wi-Fi' }, { id: 'parking', label: 'Parking' }] }],
    });
    await quick.locator('.quick-input-list .monaco-list-row', { hasText: 'Other…' }).waitFor({ timeout: 30_000 });
    // Required: nothing ticked is refused in place.
    await workbench.page.keyboard.press('Enter');
    await waitUntil('the refusal', async () => /choose at least one, or Other…/.test(await workbench.placeholder()) || undefined, 10_000);
    await workbench.clickRow('Wi-Fi');
    await waitUntil('the extension to see the ticked option', () => changesSoFar().some((c) => c.questionId === 'extras' && c.answer?.state === 'draft' && JSON.stringify(c.answer.value?.value) === '["wifi"]') || undefined, 10_000);
    await workbench.clickRow('Other…');
    await workbench.page.keyboard.press('Enter');
    await ownAnswerBox('Extras: your own answer: separate several with commas');
    await workbench.typeInQuickInput('cot, late checkout');
    await workbench.page.keyboard.press('Enter');
    assert.deepEqual(await answer(), {
      value: { response: 'accept', answers: { extras: { state: 'submitted', value: { kind: 'selected-many', value: ['wifi'], freeformValues: ['cot', 'late checkout'] } } } },
    });
  });

  it('forExtension refuses an id that is no installed extension: a made-up name never heads a prompt', async () => {
    const { workbench } = ui!;
    const answer = await ask<boolean>('confirm', { question: 'Book a table at Chez Test?' }, 'restaurant · book_restaurant, for Claude Code');
    const refused = await answer();
    assert.match(refused.error ?? '', /^ElicitationRequestError: forExtension needs the id of an installed extension/);
    assert.equal(refused.code, -32602);
    // Asked, the probe would have had no answer before the person gave one.
    assert.equal(await workbench.quickInput.locator('.quick-input-title', { hasText: 'restaurant' }).isVisible(), false, 'nothing was asked');
    assert.equal(await workbench.pendingStatus(), '', 'nothing waits');
  });

  it('callTool: the person allows the extension a server once (Deny is the default and is kept, Forget Saved Inputs takes it back); allowed, the next call is not asked', async () => {
    const { workbench } = ui!;
    const echo = { server: 'fixture', tool: 'echo', args: { text: 'hi' } };
    let answer = await ask<{ content: Array<{ text: string }> }>('callTool', echo);
    await workbench.dialog.waitFor({ timeout: 30_000 });
    const text = await workbench.dialog.innerText();
    assert.match(text, /The extension "API Probe" wants to call the tools of the MCP server "fixture"\./);
    assert.match(text, /Extension id: elicitation-host-tests\.api-probe/);
    assert.equal((await defaultButton()).trim(), 'Deny', 'Deny is the default button');
    assert.deepEqual((await workbench.dialog.locator('.monaco-button').allInnerTexts()).map((b) => b.trim()).sort(), ['Allow', 'Cancel', 'Deny']);
    await workbench.screenshot('api-tool-consent');
    await workbench.clickDialogButton('Deny');
    let result = await answer();
    assert.match(result.error ?? '', /^ElicitationRequestError: The person did not allow the extension "API Probe" to call the tools of the MCP server "fixture"/);
    assert.equal(result.code, -32001);
    // Kept: refused at once, unasked.
    answer = await ask('callTool', echo);
    result = await answer();
    assert.match(result.error ?? '', /denied the extension "API Probe" the tools of the MCP server "fixture" in this workspace/);
    assert.equal(await workbench.dialog.isVisible(), false, 'not asked again');
    // Forget Saved Inputs lists it beside the inputs and sign-ins.
    await workbench.runCommand('Elicitation Host: Forget Saved Inputs…');
    await workbench.waitForQuickInputTitle('Forget Saved Inputs');
    await workbench.clickRow('Extension: API Probe may not call the tools of fixture');
    await workbench.page.keyboard.press('Enter');
    await workbench.waitForNotification(/Forgot 1 saved input, sign-in or extension permission/);
    // Asked again; Allow runs the call, and the next one is not asked.
    answer = await ask('callTool', echo);
    await workbench.dialog.waitFor({ timeout: 30_000 });
    await workbench.clickDialogButton('Allow');
    assert.deepEqual(resultJson(await answer()), { echo: 'hi' });
    answer = await ask('callTool', { ...echo, args: { text: 'again' } });
    assert.deepEqual(resultJson(await answer()), { echo: 'again' });
    assert.equal(await workbench.dialog.isVisible(), false, 'allowed once, not asked again');
  });

  it('callTool: a destructive tool is confirmed on every call with its arguments shown; Decline rejects it unrun, Run runs it and its own question names the extension', async () => {
    const { workbench } = ui!;
    let answer = await ask<{ content: Array<{ text: string }> }>('callTool', { server: 'fixture', tool: 'clear_completed', args: { count: 2 } });
    await workbench.dialog.waitFor({ timeout: 30_000 });
    let text = await workbench.dialog.innerText();
    assert.match(text, /The extension "API Probe" wants to run "Clear completed todos", a destructive tool of the MCP server "fixture"\. Run it\?/);
    assert.match(text, /"count": 2/);
    assert.equal((await defaultButton()).trim(), 'Decline', 'Decline is the default button');
    await workbench.screenshot('api-tool-destructive');
    await workbench.clickDialogButton('Decline');
    const declined = await answer();
    assert.match(declined.error ?? '', /^ElicitationRequestError: The person declined the extension "API Probe"'s call of "Clear completed todos"/);
    assert.equal(declined.code, -32001);
    answer = await ask('callTool', { server: 'fixture', tool: 'clear_completed', args: { count: 3 } });
    await workbench.dialog.waitFor({ timeout: 30_000 });
    text = await workbench.dialog.innerText();
    assert.match(text, /"count": 3/, 'asked again, for this call');
    await workbench.clickDialogButton('Run');
    // The tool's own question, in our quick pick, says whose call it belongs to.
    await workbench.waitForQuickInputTitle('fixture · Clear completed todos, for Extension: API Probe', 30_000);
    await workbench.clickRow('Accept');
    assert.deepEqual(resultJson(await answer()), { action: 'accept', content: {}, removed: 3 });
  });

  it('a waiting question shows as a badge on the activity bar\'s Agent Inputs entry, gone once answered', async () => {
    const { workbench, page } = { workbench: ui!.workbench, page: ui!.workbench.page };
    const badge = page.locator('.activitybar .action-item', { has: page.locator('.action-label[aria-label^="Agent Inputs"]') }).first().locator('.badge');
    const answer = await ask<boolean>('confirm', { question: 'Open the changelog?' });
    await workbench.waitForQuickInputTitle('Extension: API Probe');
    await badge.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal((await badge.innerText()).trim(), '1');
    await workbench.screenshot('api-activity-badge');
    await workbench.clickRow('Accept');
    assert.deepEqual(await answer(), { value: true });
    await badge.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('a question that arrives while the window is not focused makes the status bar item stand out until the window is focused again', async () => {
    const { workbench } = ui!;
    const { page } = workbench;
    const item = workbench.pendingStatusItem;
    const standsOut = async (): Promise<boolean> => /\bhas-background-color\b/.test((await item.getAttribute('class')) ?? '');
    // Headless Chromium keeps every page focused: the page is told it lost the focus as a
    // browser tells it (document.hasFocus() false, then the events the workbench listens to:
    // blur, and visibilitychange, which it reads at once), and got it back the same way.
    // (A string, not a function: the test's transpiler would add helpers the page does not have.)
    const setFocus = (focused: boolean) =>
      page.evaluate(
        `${focused ? 'delete document.hasFocus' : `Object.defineProperty(document, 'hasFocus', { value: function () { return false; }, configurable: true })`};
        window.dispatchEvent(new FocusEvent('${focused ? 'focus' : 'blur'}'));
        document.dispatchEvent(new Event('visibilitychange'));`,
      );
    // Arrived while focused: counted, not standing out.
    let answer = await ask<boolean>('confirm', { question: 'Seen at once?' });
    await workbench.waitForQuickInputTitle('Extension: API Probe');
    await waitUntil('the count', async () => /^1 Extension: API Probe$/.test(await workbench.pendingStatus()) || undefined, 10_000);
    assert.equal(await standsOut(), false, 'a question that arrives in a focused window does not stand out');
    await workbench.clickRow('Accept');
    await answer();
    try {
      await setFocus(false);
      answer = await ask<boolean>('confirm', { question: 'Anyone there?' });
      await workbench.waitForQuickInputTitle('Extension: API Probe');
      await waitUntil('the status bar item to stand out', async () => (await standsOut()) || undefined, 10_000);
      assert.match(await workbench.pendingStatus(), /^1 Extension: API Probe$/);
      await workbench.screenshot('api-status-stands-out');
    } finally {
      await setFocus(true);
    }
    await waitUntil('the status bar item to stop standing out once the window is focused', async () => !(await standsOut()) || undefined, 10_000);
    assert.match(await workbench.pendingStatus(), /^1 Extension: API Probe$/, 'still counted');
    await workbench.clickRow('Accept');
    assert.deepEqual(await answer(), { value: true });
  });
});
