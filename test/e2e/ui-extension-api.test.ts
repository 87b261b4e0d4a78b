/// <reference lib="dom" />
/**
 * UI scenarios: an agent living in another extension asks through our API (version 1,
 * elicitation-host.d.ts). A test extension (api-probe-extension/) calls confirm, elicit and
 * requestInput; the person answers in our prompts, shown as "Extension: API Probe"; the
 * extension gets the answers, and a live request's drafts as the person types.
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
}

describe(`UI: agents in extensions ask through the API (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let probeDir: string;

  /** Has the probe make one call of the API; returns what it got back once it has. */
  async function ask<T>(call: 'confirm' | 'elicit' | 'requestInput', args: unknown): Promise<() => Promise<Answer<T>>> {
    for (const name of ['answer.json', 'changes.jsonl', 'updated.json']) rmSync(join(probeDir, name), { force: true });
    writeFileSync(join(probeDir, 'ask.json'), JSON.stringify({ call, args }));
    await ui!.workbench.runCommand('API Probe: Ask Through Elicitation Host');
    return () => probeFile<Answer<T>>(join(probeDir, 'answer.json'));
  }

  const formFrame = () => ui!.workbench.page.frameLocator('iframe.webview').first().frameLocator('#active-frame');
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
    await frame.locator(`${field('region')} vscode-radio`, { hasText: 'us-east' }).click();
    await frame.locator(`${field('replicas')} input`).fill('9');
    await frame.locator(`${field('replicas')} .error`, { hasText: 'between 1 and 5' }).waitFor();
    await frame.locator(`${field('replicas')} input`).fill('3');
    await workbench.screenshot('api-elicit-form');
    await frame.locator('vscode-button', { hasText: 'Submit' }).click();
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
    await frame.locator(`${field('nights')} input`).fill('4');
    const changes = join(probeDir, 'changes.jsonl');
    const drafts = await waitUntil('the extension to see the drafts', () => {
      const lines = existsSync(changes) ? readFileSync(changes, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { questionId: string; answer?: { state: string; value?: { value: unknown } } }) : [];
      return lines.some((c) => c.questionId === 'city' && c.answer?.state === 'draft' && c.answer.value?.value === 'Lisbon') && lines.some((c) => c.questionId === 'nights' && c.answer?.value?.value === 4) ? lines : undefined;
    }, 20_000);
    assert.ok(drafts.length >= 2);
    // The extension updates a draft: the open form shows it at once.
    writeFileSync(join(probeDir, 'update.json'), JSON.stringify({ questionId: 'nights', answer: { state: 'draft', value: { kind: 'number', value: 6 } } }));
    await workbench.runCommand('API Probe: Update a Draft');
    assert.deepEqual(await probeFile(join(probeDir, 'updated.json')), { ok: true });
    await waitUntil('the form to show the extension\'s draft', async () => ((await frame.locator(`${field('nights')} input`).inputValue()) === '6' ? true : undefined), 10_000);
    assert.equal(await frame.locator(`${field('city')} input`).inputValue(), 'Lisbon', 'the other field keeps what the person typed');
    await workbench.screenshot('api-request-input');
    await frame.locator('vscode-button', { hasText: 'Submit' }).click();
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
});
