/**
 * VS Code's agent's first call in a new window (issue 33): the person opens the window, and the
 * first tool the agent calls is one of ours. Nothing of VS Code's MCP client runs yet: it starts
 * the server definition our provider gives (from the tools it remembers), resolves it, connects
 * to our gateway over HTTP, initializes, lists the tools, then calls; the form is the window's
 * first webview. Spans from the tool API's call (or the Yes of VS Code's own confirmation, should
 * it ask) to the form's first field focused, each in a window just reloaded.
 *
 * The floor starts from the same state, in its own new window: the same first call of the tool
 * API, to wait_now (asks nothing), with a new plain webview form made as that call reaches our
 * gateway, from its call to its first field focused. The two alternate window by window, the
 * floor first in even pairs and ours first in odd ones.
 */
/// <reference lib="dom" />
import type { Ui } from '../test/e2e/ui-setup';
import { waitUntil } from '../test/support/wait';
import { questionSpans, questionStamps } from './form-stamps';
import { declineForm, events, medians, pastRunConfirmation, toolApiEvent } from './forms';
import { QUIET_BEFORE_MS } from './quiet';
import type { Figures, Row } from './row';
import { inTurn, median, medianInterval, round } from './stats';

const SAMPLES = 8;

/** The spans of a first call, in order. */
export const FIRST_CALL_SPANS = [
  { key: 'toResolve', label: 'call to VS Code resolving our server definition', ours: "VS Code's (our provider at its end)" },
  { key: 'toConnect', label: 'resolved to its first request reaching our gateway', ours: "VS Code's" },
  { key: 'toList', label: 'first request to its tools/list reaching our gateway', ours: "VS Code's client and ours (initialize)" },
  { key: 'toGateway', label: 'tools/list to the call reaching our gateway', ours: "ours (the list: the served server started first) and VS Code's client" },
  { key: 'toServer', label: 'call to the server having it', ours: 'ours (and the pipe)' },
  { key: 'server', label: 'the server, call to question sent', ours: "the server's" },
  { key: 'toBroker', label: 'question sent to our broker', ours: 'ours (and the pipe)' },
  { key: 'toPanel', label: 'broker to the form panel', ours: 'ours' },
  { key: 'toRender', label: "panel to the page rendering (the window's first webview)", ours: "ours (and VS Code's webview)" },
  { key: 'toFocus', label: 'render to the form on screen, field focused', ours: 'ours (the page)' },
] as const;

type Key = (typeof FIRST_CALL_SPANS)[number]['key'] | 'total' | 'callToGateway' | 'gatewayToFocus' | 'arrivalToFocus' | 'person' | 'listed' | 'preparedSdkMs';
type FirstCallSpans = Record<Key, number>;

/** A new window: the page reloaded, the extension up and its gateway listening, then as quiet as a person's pause. */
async function newWindow(ui: Ui, benchLog: string): Promise<void> {
  const listening = events(benchLog).filter((e) => e.event === 'gatewayListening').length;
  await ui.workbench.page.reload();
  await ui.workbench.page.locator('.activitybar [aria-label^="Agent Inputs"]').first().waitFor({ timeout: 60_000 });
  await waitUntil('the new window\'s gateway', () => events(benchLog).filter((e) => e.event === 'gatewayListening').length > listening, 60_000);
  await new Promise((resolve) => setTimeout(resolve, QUIET_BEFORE_MS));
}

/** The first event of this kind stamped at or after `since`. */
function firstAfter(benchLog: string, since: number, match: (e: Record<string, unknown>) => boolean): number {
  const found = events(benchLog).find((e) => match(e) && Number(e.at) >= since);
  return Number(found?.at);
}

/** One first call of ours in a new window: its spans. */
async function oursOnce(ui: Ui, benchLog: string, form: number, record: number): Promise<FirstCallSpans> {
  const { workbench } = ui;
  const calls = events(benchLog).filter((e) => e.event === 'firstCall').length;
  const done = events(benchLog).filter((e) => e.event === 'firstCallDone').length;
  const gatewayCalls = events(benchLog).filter((e) => e.event === 'gatewayToolCall').length;
  await workbench.runCommand('Elicitation Host: Benchmark: First Call of a Served Tool in This Window');
  const called = await toolApiEvent(benchLog, 'firstCall', calls, "the first call's start", 90_000);
  const startedAt = Number(called.at);
  // Should VS Code ask to run the tool, the person's time (the dialog shown to the Yes) is left out.
  const yesAt = await pastRunConfirmation(workbench, benchLog, gatewayCalls);
  const person = yesAt === undefined ? 0 : yesAt - Number(events(benchLog).filter((e) => e.event === 'firstCallListed')[calls]?.at);
  const shown = await waitUntil('the form on the page', () => events(benchLog).filter((e) => e.event === 'formShown')[form], 30_000);
  const resolved = firstAfter(benchLog, startedAt, (e) => e.event === 'providerResolve');
  const first = firstAfter(benchLog, startedAt, (e) => e.event === 'gatewayRequest');
  const list = firstAfter(benchLog, startedAt, (e) => e.event === 'gatewayRequest' && e.rpc === 'tools/list');
  const listed = Number(events(benchLog).filter((e) => e.event === 'firstCallListed')[calls]?.at);
  const atGateway = firstAfter(benchLog, startedAt, (e) => e.event === 'gatewayToolCall');
  // How long readying the gateway's SDK took as VS Code connected (Gateway.prepare), beside the spans.
  const prepared = events(benchLog).find((e) => e.event === 'gatewayPrepared' && Number(e.at) >= startedAt);
  const stamps = questionStamps(ui, shown, record);
  const { created, focused } = stamps;
  // A stamp VS Code's client did not reach (no new connection, say) takes no time.
  const or = (value: number, fallback: number): number => (Number.isFinite(value) ? value : fallback);
  const resolvedAt = or(resolved, startedAt);
  const firstAt = or(first, resolvedAt);
  const listAt = or(list, firstAt);
  await declineForm(ui, 'ask_form_now');
  await toolApiEvent(benchLog, 'firstCallDone', done, 'the first call to return', 30_000);
  return {
    toResolve: resolvedAt - startedAt,
    toConnect: firstAt - resolvedAt,
    toList: listAt - firstAt,
    // VS Code may list the tool (from what it remembers of the server) and call before its
    // tools/list reaches us: the call then waits for that list. Beside the spans, not one of them.
    listed: listed - startedAt,
    toGateway: atGateway - listAt - person,
    ...questionSpans(stamps, atGateway),
    person,
    preparedSdkMs: Number(prepared?.sdkMs ?? Number.NaN),
    total: focused - startedAt - person,
    callToGateway: atGateway - startedAt - person,
    gatewayToFocus: focused - atGateway,
    arrivalToFocus: focused - created,
  };
}

/** The floor in a new window: the first call of wait_now, a new plain webview made as it reaches our gateway. */
async function plainOnce(ui: Ui, benchLog: string): Promise<{ plain: number; callToGateway: number }> {
  const before = events(benchLog).filter((e) => e.event === 'plainWebviewShown').length;
  const calls = events(benchLog).filter((e) => e.event === 'plainFirstCall').length;
  const done = events(benchLog).filter((e) => e.event === 'plainFirstCallDone').length;
  await ui.workbench.runCommand('Elicitation Host: Benchmark: Plain Webview Form during the First Tool API Call');
  const called = await toolApiEvent(benchLog, 'plainFirstCall', calls, "the floor's first call", 90_000);
  const shown = await waitUntil('the plain webview', () => events(benchLog).filter((e) => e.event === 'plainWebviewShown')[before], 30_000);
  const made = events(benchLog).filter((e) => e.event === 'plainWebviewCalled')[before];
  await toolApiEvent(benchLog, 'plainFirstCallDone', done, "the floor's call to end", 30_000);
  // Its way in has no question to confirm: compared with ours without the person's time.
  return { plain: Number(shown.at) - Number(made.at), callToGateway: Number(made.at) - Number(called.at) };
}

export async function benchFirstCall(ui: Ui, benchLog: string): Promise<Figures> {
  process.stdout.write(`spans, first call: ${SAMPLES} new windows whose first tool API call is ours, each beside a new window whose first call makes a plain webview…\n`);
  // VS Code lists a served tool before starting its server only once it has seen it: one call first.
  const warm = events(benchLog).filter((e) => e.event === 'plainToolCallDone').length;
  await ui.workbench.runCommand('Elicitation Host: Benchmark: Plain Webview Form during a Tool API Call');
  await toolApiEvent(benchLog, 'plainToolCallDone', warm, 'the warming call', 90_000);
  let form = events(benchLog).filter((e) => e.event === 'formShown').length;
  let record = ui.records().filter((r) => r.tool === 'ask_form_now:received').length;
  const ours: FirstCallSpans[] = [];
  const floors: Array<{ plain: number; callToGateway: number }> = [];
  const ratios: number[] = [];
  const arrivalRatios: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const [floor, spans] = await inTurn(
      i,
      async () => {
        await newWindow(ui, benchLog);
        return plainOnce(ui, benchLog);
      },
      async () => {
        await newWindow(ui, benchLog);
        return oursOnce(ui, benchLog, form++, record++);
      },
    );
    floors.push(floor);
    ours.push(spans);
    ratios.push(spans.gatewayToFocus / floor.plain);
    arrivalRatios.push(spans.arrivalToFocus / floor.plain);
  }
  const m = medians(ours as unknown as Array<Record<string, number>>);
  const plain = round(median(floors.map((f) => f.plain)), 1);
  const floorToGateway = round(median(floors.map((f) => f.callToGateway)), 1);
  const ratio = round(median(ratios), 2);
  const arrivalRatio = round(median(arrivalRatios), 2);
  const ratioInterval = medianInterval(ratios);
  const arrivalRatioInterval = medianInterval(arrivalRatios);
  const rows: Row[] = [
    {
      measure: `first call in a new window, from vscode.lm.invokeTool to a new form's field focused (median of ${SAMPLES} windows): ${FIRST_CALL_SPANS.map((s) => `${s.label} ${m[s.key]} ms [${s.ours}]`).join('; ')} (the tool listed by VS Code and the call made at ${m.listed} ms; VS Code asking to run it, the person's time left out: ${m.person} ms)`,
      ours: `${m.total} ms`,
      baseline: '-',
      ratio: '-',
      target: '(the spans)',
    },
    {
      measure: "first call in a new window: the call reaching our gateway, from the tool API's call (VS Code's client starting our definition, connecting, initializing, listing; against the floor's own first call)",
      ours: `${m.callToGateway} ms`,
      baseline: `${floorToGateway} ms (the floor's first call of wait_now)`,
      ratio: round(m.callToGateway / floorToGateway, 2),
      target: '(the same way in)',
    },
    {
      measure: `first call in a new window: from the call reaching our gateway to the field focused (the window's first webview; each against a new plain webview form made as the first call of wait_now reaches our gateway in a new window beside it, median of the ratios; ours includes the call's way to the server and the question's way back, ${m.toServer + m.server + m.toBroker} ms, which the plain one does not)`,
      ours: `${m.gatewayToFocus} ms`,
      baseline: `${plain} ms (new plain webview form)`,
      ratio,
      interval: ratioInterval,
      target: '<= 1.0',
    },
    {
      measure: `first call in a new window: the question's arrival to the field focused (the window's first webview, against the same plain webview forms, median of the ratios)`,
      ours: `${m.arrivalToFocus} ms`,
      baseline: `${plain} ms (new plain webview form)`,
      ratio: arrivalRatio,
      interval: arrivalRatioInterval,
      target: '<= 1.0',
    },
  ];
  return { results: { firstCall: { samples: SAMPLES, medianMs: m, plainWebviewMedianMs: plain, floorCallToGatewayMedianMs: floorToGateway, ratio, arrivalRatio, ratioInterval, arrivalRatioInterval, samplesMs: ours, floorSamplesMs: floors } }, rows };
}
