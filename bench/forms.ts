/**
 * Form timings in the real workbench: from the server's `elicitation/create` to the first
 * field having focus, for a form in a new panel and for a form in the panel kept alive,
 * against a new webview with a plain ten-field form created by a command (the floor).
 */
/// <reference lib="dom" />
import { existsSync, readFileSync } from 'node:fs';
import type { Workbench } from '../test/e2e/harness/workbench';
import type { Ui } from '../test/e2e/ui-setup';
import { type ResultTabs, runTool } from '../test/e2e/ui-steps';
import { waitUntil } from '../test/support/wait';
import type { Figures } from './row';
import { inTurn, median, medianInterval, round } from './stats';

const SAMPLES = 20;

export function events(file: string): Array<Record<string, unknown>> {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

async function scheduleForms(workbench: Workbench, count: number): Promise<void> {
  await runTool(workbench, 'fixture', 'ask_form_later', String(count));
}

/** The panel closes by itself once nothing waits (src/ui/form/form-panel.ts): the next form starts a new one. */
export async function agentInputClosed(workbench: Workbench): Promise<void> {
  await workbench.page.locator('.tab', { hasText: 'Agent Input' }).first().waitFor({ state: 'detached', timeout: 30_000 });
}

/** The next of our forms: from the server's send to its first field focused; then declined. */
async function nextForm(ui: Ui, benchLog: string, index: number, breakdown: Array<Record<string, number>>): Promise<number> {
  const shown = await waitUntil('the form', () => events(benchLog).filter((e) => e.event === 'formShown')[index], 20_000);
  const sent = await waitUntil('the send time', () => ui.records().filter((r) => r.tool === 'ask_form_later:sent')[index], 20_000);
  const elapsed = Number(shown.at) - Number(sent.outcome.at);
  const sentAt = Number(sent.outcome.at);
  const asked = Number(shown.askedAt);
  const script = Number(shown.scriptStartedAt);
  breakdown.push({
    serverToHost: asked - sentAt,
    hostToRender: Number(shown.renderStartedAt) - asked,
    // Only meaningful when this form started the page.
    ...(script >= asked && { hostToPageScript: script - asked }),
    renderToFocus: Number(shown.at) - Number(shown.renderStartedAt),
  });
  await declineForm(ui, 'ask_form_later');
  return elapsed;
}

/** Declines the form on screen, and waits for the fixture's tool to record it. */
export async function declineForm(ui: Ui, tool: string): Promise<void> {
  // The visible one: a full run met a hidden webview first in the page after the activation bench's reloads.
  const frame = ui.workbench.webview();
  await frame.locator('button', { hasText: 'Decline' }).click();
  await ui.nextRecord(tool);
}

/** Median of each step: server → host, host → render (→ page script, for a new page), render → focused. */
export function medians(rows: Array<Record<string, number>>): Record<string, number> {
  const keys = Object.keys(rows[0] ?? {});
  return Object.fromEntries(keys.map((k) => [k, round(median(rows.map((r) => r[k]).filter((v) => Number.isFinite(v))), 1)]));
}

/**
 * Answers Yes should VS Code ask to run the tool first (it does not for a read-only one), and
 * returns when the Yes was given (the person's time ends there), or undefined when VS Code did
 * not ask. VS Code asks before it calls: once the call (the `gatewayCall`th) has reached our
 * gateway it will not, and from then on the workbench is left alone. Looking for the dialog
 * (a query of the workbench's DOM every 20 ms) while the form was drawn slowed ours, and the
 * plain webview it is compared with was drawn without it.
 */
export async function pastRunConfirmation(workbench: Workbench, benchLog: string, gatewayCall: number): Promise<number | undefined> {
  const confirmation = workbench.dialog.filter({ hasText: 'Run ' }).locator('.monaco-button', { hasText: /^(Yes|Allow|Continue)$/ }).first();
  const seen = await waitUntil('the call at our gateway, or VS Code asking to run the tool', async () => {
    if (events(benchLog).filter((e) => e.event === 'gatewayToolCall').length > gatewayCall) return 'called';
    return (await confirmation.isVisible().catch(() => false)) ? 'asked' : undefined;
  }, 30_000);
  if (seen === 'called') return undefined;
  const yesAt = Date.now();
  await confirmation.click();
  return yesAt;
}

/** The `index`th `event` the benchmark build records for a tool API call; throws if a call failed instead. */
export async function toolApiEvent(benchLog: string, event: string, index: number, what: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const found = await waitUntil(what, () => {
    const all = events(benchLog);
    return all.find((e) => e.event === 'invokeToolFailed') ?? all.filter((e) => e.event === event)[index];
  }, timeoutMs);
  if (found.event === 'invokeToolFailed') throw new Error(`vscode.lm.invokeTool failed: ${String(found.message)}`);
  return found;
}

/**
 * Where a plain webview is made from: a command from the palette; `pick`, as a quick pick of
 * ours is accepted with Enter (the state a Run Tool call's form starts from); `toolCall`, as a
 * call of VS Code's tool API reaches our gateway (the state its form starts from).
 */
export type PlainFrom = 'palette' | 'pick' | 'toolCall';

/** The floor: new plain webviews with a ten-field form, each from the call to its first field focused. */
export async function plainWebviews(workbench: Workbench, benchLog: string, samples = SAMPLES, from: PlainFrom = 'palette'): Promise<number[]> {
  const plain: number[] = [];
  for (let i = 0; i < samples; i++) {
    const before = events(benchLog).filter((e) => e.event === 'plainWebviewShown').length;
    const callsDone = events(benchLog).filter((e) => e.event === 'plainToolCallDone').length;
    if (from === 'pick') {
      await workbench.runCommand('Elicitation Host: Benchmark: Plain Webview Form from a Pick');
      await workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'plain_form_now' }).first().waitFor();
      await workbench.page.keyboard.press('Enter');
    } else if (from === 'toolCall') {
      await workbench.runCommand('Elicitation Host: Benchmark: Plain Webview Form during a Tool API Call');
    } else {
      await workbench.runCommand('Elicitation Host: Benchmark: Plain Webview Form');
    }
    const shown = await waitUntil('the plain webview', () => events(benchLog).filter((e) => e.event === 'plainWebviewShown')[before], 20_000);
    const called = events(benchLog).filter((e) => e.event === 'plainWebviewCalled')[before];
    plain.push(Number(shown.at) - Number(called.at));
    // It closes itself once shown: what comes next starts with it gone, as ours do.
    await workbench.page.locator('.tab', { hasText: 'Plain form (benchmark)' }).first().waitFor({ state: 'detached', timeout: 30_000 });
    if (from === 'toolCall') await toolApiEvent(benchLog, 'plainToolCallDone', callsDone, 'the tool API call to end', 30_000);
  }
  return plain;
}

export async function benchForms(ui: Ui, benchLog: string, resultTabs: ResultTabs): Promise<Figures> {
  const { workbench } = ui;
  process.stdout.write(`forms: ${SAMPLES} first forms (new panel), each paired with a new plain webview, the two in turn; ${SAMPLES} later forms (panel kept)…\n`);
  // First forms: the panel is closed before each, so each form creates it; each is paired with
  // a plain webview made beside it (before it in even pairs, after it in odd ones), from the same state (the workbench changes as result
  // tabs pile up, and an unpaired floor measured elsewhere in the run made the ratio lie).
  const plain: number[] = [];
  const firstRatios: number[] = [];
  const first: number[] = [];
  const firstBreakdown: Array<Record<string, number>> = [];
  const laterBreakdown: Array<Record<string, number>> = [];
  let index = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const [[floor], ours] = await inTurn(
      i,
      async () => {
        await agentInputClosed(workbench);
        return plainWebviews(workbench, benchLog, 1);
      },
      async () => {
        await agentInputClosed(workbench);
        await scheduleForms(workbench, 1);
        const ms = await nextForm(ui, benchLog, index++, firstBreakdown);
        await resultTabs.next();
        return ms;
      },
    );
    plain.push(floor);
    first.push(ours);
    firstRatios.push(ours / floor);
  }
  // Later forms: one run asks for them one after another; the panel stays, the page re-renders.
  const later: number[] = [];
  await scheduleForms(workbench, SAMPLES);
  for (let i = 0; i < SAMPLES; i++) later.push(await nextForm(ui, benchLog, index++, laterBreakdown));
  await resultTabs.next();
  const floor = median(plain);
  const firstInterval = medianInterval(firstRatios);
  const results = {
    forms: {
      samples: SAMPLES,
      plainWebviewMedianMs: round(floor, 1),
      firstFormMedianMs: round(median(first), 1),
      laterFormMedianMs: round(median(later), 1),
      firstRatio: round(median(firstRatios), 2),
      firstRatioInterval: firstInterval,
      laterRatio: round(median(later) / floor, 2),
      firstBreakdownMedianMs: medians(firstBreakdown),
      laterBreakdownMedianMs: medians(laterBreakdown),
      plainSamplesMs: plain.map((v) => round(v, 1)),
      firstSamplesMs: first.map((v) => round(v, 1)),
      laterSamplesMs: later.map((v) => round(v, 1)),
    },
  };
  return {
    results,
    rows: [
      { measure: `first form focused, from the server's send (new panel; each against a new plain webview made beside it, the two in turn, median of ${SAMPLES} ratios)`, ours: `${round(median(first), 1)} ms`, baseline: `${round(floor, 1)} ms (new plain webview form)`, ratio: round(median(firstRatios), 2), interval: firstInterval, target: '<= 1.0' },
      { measure: `later form focused, from the server's send (panel kept, median of ${SAMPLES}; against the first forms' plain webviews)`, ours: `${round(median(later), 1)} ms`, baseline: `${round(floor, 1)} ms (new plain webview form)`, ratio: round(median(later) / floor, 2), target: '<= 0.10' },
    ],
  };
}
