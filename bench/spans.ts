/**
 * Where the time goes, end to end, from the moment a tool is called to the first field of
 * the form it asks for having focus: called by the person (Run Tool, the Enter on a tool
 * that takes no arguments) and by VS Code's agent (`vscode.lm.invokeTool` on a tool we serve,
 * through VS Code's MCP client and our gateway). Each span is between two stamps taken with
 * Date.now() on this machine: the bench at the Enter, the extension at the tool API call, the
 * fixture server when the call reaches it and when it sends its question, the broker when the
 * question reaches it (`createdAt`), the form panel when the broker hands it over, the page
 * when it starts rendering and when the first field has focus. The first form of each call
 * opens a new panel (the panel closes between samples).
 */
/// <reference lib="dom" />
import type { Ui } from '../test/e2e/ui-setup';
import { openToolList, type ResultTabs } from '../test/e2e/ui-steps';
import { waitUntil } from '../test/support/wait';
import { questionSpans, questionStamps } from './form-stamps';
import { agentInputClosed, declineForm, events, medians, pastRunConfirmation, type PlainFrom, plainWebviews, toolApiEvent } from './forms';
import type { Figures, Row } from './row';
import { inTurn, median, medianInterval, round } from './stats';

const SAMPLES = 20;

/** The spans, in order; `ours` says whose time it is. */
const SPANS = [
  { key: 'toPicked', label: 'Enter to our runner having the tool (VS Code\'s quick pick)', ours: "VS Code's" },
  { key: 'toCall', label: 'tool to its call starting', ours: 'ours' },
  { key: 'toGateway', label: "VS Code's MCP client to our gateway having the call", ours: "VS Code's" },
  { key: 'toServer', label: 'call to the server having it', ours: 'ours (and the pipe)' },
  { key: 'server', label: 'the server, call to question sent', ours: "the server's" },
  { key: 'toBroker', label: 'question sent to our broker (transport, our checks)', ours: 'ours (and the pipe)' },
  { key: 'toPanel', label: 'broker to the form panel', ours: 'ours' },
  { key: 'toRender', label: 'panel to the page rendering (new panel)', ours: 'ours (and VS Code\'s webview)' },
  { key: 'toFocus', label: 'render to the form on screen, field focused', ours: 'ours (the page)' },
] as const;

type Spans = Record<(typeof SPANS)[number]['key'] | 'total' | 'arrivalToFocus' | 'oursOutsideThePage' | 'plainWebview' | 'ratio', number>;

/**
 * One call's spans, from `startedAt` (the Enter, or the tool API call), for the `index`th form
 * and record; `run` is the Run Tool call's index (its runner's stamps), none through the gateway.
 */
async function spansOf(ui: Ui, benchLog: string, at: { form: number; record: number; run?: number; gateway?: number }, startedAt: number): Promise<Omit<Spans, 'plainWebview' | 'ratio'>> {
  const { form: index, record, run, gateway } = at;
  const shown = await waitUntil('the form on the page', () => events(benchLog).filter((e) => e.event === 'formShown')[index], 30_000);
  const picked = run === undefined ? startedAt : Number(events(benchLog).filter((e) => e.event === 'toolPicked')[run]?.at);
  const starting = run === undefined ? startedAt : Number(events(benchLog).filter((e) => e.event === 'toolCallStarting')[run]?.at);
  // Through the gateway, our part starts where VS Code's MCP client hands us the call.
  const atGateway = gateway === undefined ? starting : Number(events(benchLog).filter((e) => e.event === 'gatewayToolCall')[gateway]?.at);
  const stamps = questionStamps(ui, shown, record);
  const { received, sent, created, asked, focused } = stamps;
  return {
    toPicked: picked - startedAt,
    toCall: starting - picked,
    toGateway: atGateway - starting,
    ...questionSpans(stamps, atGateway),
    total: focused - startedAt,
    arrivalToFocus: focused - created,
    // Everything of ours but the page's own rendering (the server's span left out).
    oursOutsideThePage: received - atGateway + (starting - picked) + (created - sent) + (asked - created),
  };
}

export async function benchSpans(ui: Ui, benchLog: string, resultTabs: ResultTabs): Promise<Figures> {
  try {
    return await measureSpans(ui, benchLog, resultTabs);
  } catch (error) {
    const shot = await ui.workbench.screenshot('FAILED-bench-spans').catch(() => 'none');
    throw new Error(`${error instanceof Error ? error.message : String(error)} (screenshot: ${shot})`, { cause: error });
  }
}

async function measureSpans(ui: Ui, benchLog: string, resultTabs: ResultTabs): Promise<Figures> {
  const { workbench } = ui;
  process.stdout.write(`spans: ${SAMPLES} calls from Run Tool's Enter, ${SAMPLES} from vscode.lm.invokeTool through the gateway, each to a new form's field focused, each paired with a new plain webview form, the two in turn…\n`);
  let form = events(benchLog).filter((e) => e.event === 'formShown').length;
  let record = ui.records().filter((r) => r.tool === 'ask_form_now:received').length;
  let runs = events(benchLog).filter((e) => e.event === 'toolPicked').length;
  /**
   * Each sample's floor is taken beside it (before it in even samples, after it in odd ones),
   * from the same state (the workbench changes as result tabs pile up): for Run Tool, a plain webview made as a quick pick of ours is accepted
   * with Enter; for the tool API, one made as a call of the tool API (to wait_now, which asks
   * nothing) reaches our gateway.
   */
  const paired = async (pair: number, measure: () => Promise<Omit<Spans, 'plainWebview' | 'ratio'>>, from: PlainFrom): Promise<Spans> => {
    const [[plain], spans] = await inTurn(
      pair,
      async () => {
        await agentInputClosed(workbench);
        return plainWebviews(workbench, benchLog, 1, from);
      },
      async () => {
        await agentInputClosed(workbench);
        return measure();
      },
    );
    return { ...spans, plainWebview: plain, ratio: spans.arrivalToFocus / plain };
  };
  const runTool: Spans[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    runTool.push(
      await paired(i, async () => {
        await openToolList(workbench, 'fixture');
        await workbench.typeInQuickInput('ask_form_now');
        await workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'ask_form_now' }).first().waitFor();
        const enter = Date.now();
        await workbench.page.keyboard.press('Enter');
        const spans = await spansOf(ui, benchLog, { form: form++, record: record++, run: runs++ }, enter);
        await declineForm(ui, 'ask_form_now');
        await resultTabs.next();
        return spans;
      }, 'pick'),
    );
  }
  const lm: Spans[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    lm.push(
      await paired(i, async () => {
        const calls = events(benchLog).filter((e) => e.event === 'invokeTool').length;
        // The floor's own tool call went through the gateway too: this call's is the next one.
        const gateway = events(benchLog).filter((e) => e.event === 'gatewayToolCall').length;
        await workbench.runCommand("Elicitation Host: Benchmark: Call a Served Tool through VS Code's Tool API");
        const called = await toolApiEvent(benchLog, 'invokeTool', calls, "the tool API's call", 90_000);
        // Should VS Code ask to run the tool first (it does not for a read-only one), the spans start at that Yes.
        const startedAt = (await pastRunConfirmation(workbench, benchLog, gateway)) ?? Number(called.at);
        const spans = await spansOf(ui, benchLog, { form: form++, record: record++, gateway }, startedAt);
        const done = events(benchLog).filter((e) => e.event === 'invokeToolDone').length;
        await declineForm(ui, 'ask_form_now');
        await toolApiEvent(benchLog, 'invokeToolDone', done, 'the tool API call to return', 30_000);
        return spans;
      }, 'toolCall'),
    );
  }
  // Each key's median; the ratio's to two places.
  const summary = (rows: Spans[]): Record<string, number> => ({ ...medians(rows as unknown as Array<Record<string, number>>), ratio: round(median(rows.map((r) => r.ratio)), 2) });
  const person = summary(runTool);
  const agent = summary(lm);
  const intervals = { runTool: medianInterval(runTool.map((r) => r.ratio)), invokeTool: medianInterval(lm.map((r) => r.ratio)) };
  const rows: Row[] = [];
  for (const [label, m, interval] of [["Run Tool's Enter", person, intervals.runTool], ['vscode.lm.invokeTool, through the gateway', agent, intervals.invokeTool]] as const) {
    rows.push({
      measure: `from ${label} to a new form's field focused (median of ${SAMPLES}): ${SPANS.map((s) => `${s.label} ${m[s.key]} ms [${s.ours}]`).join('; ')}`,
      ours: `${m.total} ms`,
      baseline: '-',
      ratio: '-',
      target: '(the spans)',
    });
    rows.push({
      measure: `from ${label}: ours outside the page (from having the tool to the server having the call, to the broker, to the panel)`,
      ours: `${m.oursOutsideThePage} ms`,
      baseline: '-',
      ratio: m.oursOutsideThePage < 20 ? 'ok' : 'over',
      target: '< 20 ms',
    });
    rows.push({
      measure: `from ${label}: the question's arrival to the field focused (new panel; each against a new plain webview form made beside it, the two in turn, ${label === "Run Tool's Enter" ? 'made as a quick pick is accepted with Enter' : 'made as a tool API call reaches our gateway'}, median of the ratios)`,
      ours: `${m.arrivalToFocus} ms`,
      baseline: `${m.plainWebview} ms (new plain webview form)`,
      ratio: round(m.ratio, 2),
      interval,
      target: '<= 1.0',
    });
  }
  return {
    results: { spans: { samples: SAMPLES, runToolMedianMs: person, invokeToolMedianMs: agent, ratioIntervals: intervals, runToolSamples: runTool, invokeToolSamples: lm } },
    rows,
  };
}
