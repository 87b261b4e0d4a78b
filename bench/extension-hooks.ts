/**
 * What only the benchmark build of the extension carries (`BENCHMARK` true; the shipped
 * bundle leaves all of it out): the floors `npm run bench` compares our prompts with (VS
 * Code's own quick pick, a new webview with a plain ten-field form), each timed from the
 * call, and the form panel's timings, all written to ELICITATION_HOST_BENCH_LOG; the session
 * bench's are in session-hooks.ts.
 */
import { appendFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { MainHooks } from '../src/extension-main';
import type { Timings } from '../src/mcp/ports';
import { CONFIRM_AFTER_MS, FORM_LATER_MS } from './quiet';
import { SERVED_FOR_SPANS } from './served';
import { installSessionHooks } from './session-hooks';

/** Activation's stamps, put on globals by the benchmark build (scripts/build.mjs's banners and footers, src/extension.ts). */
interface Stamps {
  readonly __elicitationHostCodeStarted?: number;
  readonly __elicitationHostCodeEnded?: number;
  readonly __elicitationHostMainCodeStarted?: number;
  readonly __elicitationHostMainCodeEnded?: number;
  readonly __elicitationHostActivation?: { activateStarted?: number; activateEnded?: number; loadStarted?: number; loadEnded?: number };
}

/**
 * The rows our confirm of the fixture's `ask_later` shows (src/ui/prompts/quick-prompts.ts's
 * askConfirm): its message, a separator, Accept and Decline with their icons. Written out
 * here, not built by our code, so the floor stays VS Code's own call.
 */
const CONFIRM_ROWS: vscode.QuickPickItem[] = [
  { label: 'fixture has a question of its own: proceed?', alwaysShow: true },
  { label: '', kind: vscode.QuickPickItemKind.Separator },
  { label: '$(check) Accept', alwaysShow: true },
  { label: '$(circle-slash) Decline', alwaysShow: true },
];

/**
 * Installed as the extension proper starts (bench/extension-main.ts, before src/extension-main.ts's
 * activateMain): after the activate call, which VS Code times. `activated` records the
 * breakdown; `watch` records each question's arrival in the extension host (the broker's
 * `createdAt`), where the confirm's time starts.
 */
export function installBenchmarkHooks(context: vscode.ExtensionContext): MainHooks {
  const mainStarted = performance.now();
  const file = process.env.ELICITATION_HOST_BENCH_LOG;
  /** Set while a plain webview waits for a tool call to reach the gateway (plainWebviewInToolCall). */
  let plainOnGatewayCall = false;
  const record = (entry: Record<string, unknown>): void => {
    if (file) appendFileSync(file, `${JSON.stringify({ ...entry, loggedAt: Date.now() })}\n`);
    if (plainOnGatewayCall && entry.event === 'gatewayToolCall') {
      plainOnGatewayCall = false;
      plainWebview(record);
    }
  };
  context.subscriptions.push(
    // The confirm's floor: the same question asked by a plain showQuickPick, from the state ours
    // is asked in: a call's progress in the status bar (as Run Tool's, src/ui/run-tool/call-progress.ts),
    // the palette closed as long ago as Run Tool's pickers before ours.
    vscode.commands.registerCommand('elicitationHost.benchmark.plainQuickPick', () =>
      vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'plain_quick_pick on benchmark' }, async (progress) => {
        await new Promise((resolve) => setTimeout(resolve, CONFIRM_AFTER_MS));
        record({ event: 'plainQuickPick', at: Date.now() });
        progress.report({ message: 'benchmark is waiting for your answer' });
        return vscode.window.showQuickPick(CONFIRM_ROWS, { title: 'Plain quick pick (benchmark)', placeHolder: 'Accept or decline', ignoreFocusOut: true });
      }),
    ),
    // Beside it, what the goal was first measured against: two bare labels in an idle workbench.
    vscode.commands.registerCommand('elicitationHost.benchmark.bareQuickPick', async () => {
      await new Promise((resolve) => setTimeout(resolve, CONFIRM_AFTER_MS));
      record({ event: 'bareQuickPick', at: Date.now() });
      return vscode.window.showQuickPick(['Accept', 'Decline'], { title: 'Bare quick pick (benchmark)' });
    }),
    // From the state our first form starts from: the palette closed, the workbench idle as long as the fixture waits before asking.
    vscode.commands.registerCommand('elicitationHost.benchmark.plainWebview', async () => {
      await new Promise((resolve) => setTimeout(resolve, FORM_LATER_MS));
      plainWebview(record);
    }),
    vscode.commands.registerCommand('elicitationHost.benchmark.plainWebviewFromPick', () => plainWebviewFromPick(record)),
    // The plain webview from the state a form asked for by VS Code's agent starts from: a call of
    // the tool API under way, the webview made as the call reaches our gateway (wait_now asks nothing).
    vscode.commands.registerCommand('elicitationHost.benchmark.plainWebviewInToolCall', () => {
      plainOnGatewayCall = true;
      return invokeServedTool(record, 'wait_now', 'plainToolCall');
    }),
    vscode.commands.registerCommand('elicitationHost.benchmark.invokeTool', () => invokeServedTool(record, 'ask_form_now', 'invokeTool')),
    // A new window's first call, as the person's is: VS Code's client starts our server definition
    // (resolves it, connects to the gateway, initializes, lists the tools), then calls.
    vscode.commands.registerCommand('elicitationHost.benchmark.firstCall', () => invokeServedTool(record, 'ask_form_now', 'firstCall', true)),
    // Its floor: the same first call of wait_now (asks nothing), a plain webview made as it reaches our gateway.
    vscode.commands.registerCommand('elicitationHost.benchmark.plainWebviewInFirstCall', () => {
      plainOnGatewayCall = true;
      return invokeServedTool(record, 'wait_now', 'plainFirstCall', true);
    }),
  );
  if (file) void vscode.commands.executeCommand('setContext', 'elicitationHost.benchmarking', true);
  const stamps = globalThis as Stamps;
  const { __elicitationHostCodeStarted: codeStarted, __elicitationHostCodeEnded: codeEnded } = stamps;
  const { activateStarted, activateEnded, loadStarted, loadEnded } = stamps.__elicitationHostActivation ?? {};
  const span = (from: number | undefined, to: number | undefined) => (from !== undefined && to !== undefined ? to - from : undefined);
  return {
    record,
    agents: installSessionHooks(context, record),
    watch: (store) => {
      const stop = store.subscribe((_state, action) => {
        if (action.type === 'requested') record({ event: 'questionArrived', requestId: action.request.id, at: action.request.createdAt });
      });
      context.subscriptions.push({ dispose: stop });
    },
    activated: () =>
      record({
        event: 'activation',
        // What VS Code times (code loading plus the activate call):
        // dist/extension.js's top-level code, its first line to its last (VS Code's "code loading" adds reading and compiling it);
        moduleMs: span(codeStarted, codeEnded),
        // from the code's end to activate being called: VS Code making the extension's context (its storage, secrets...);
        untilActivateMs: span(codeEnded, activateStarted),
        // the activate call up to its first wait (the stand-ins registered): VS Code's "activate call".
        activateCallMs: span(activateStarted, activateEnded),
        // What follows it, outside VS Code's figure: the wait for the next turn,
        afterActivateMs: span(activateEnded, loadStarted),
        // dist/extension-main.js's require (reading, compiling, its top-level code; the top-level code alone beside it),
        mainLoadMs: span(loadStarted, loadEnded),
        mainModuleMs: span(stamps.__elicitationHostMainCodeStarted, stamps.__elicitationHostMainCodeEnded),
        // and the extension proper's activation up to its first wait (the servers being read).
        mainActivateMs: performance.now() - mainStarted,
      }),
  };
}

/**
 * As VS Code's agent calls a tool: `vscode.lm.invokeTool` on a tool of a server we serve
 * (VS Code's MCP client, then our gateway). Records `<event>` as the call starts and
 * `<event>Done` when it comes back (a form it asks for is answered in the workbench meanwhile);
 * `invokeToolFailed` if it fails. A window's first call (`first`) starts as the server
 * definition is started (VS Code lists a served tool only once its server ran in the window, so
 * an agent's first call starts it, as chat does before its first request): `<event>` is
 * stamped before the start, `<event>Listed` once VS Code lists the tool and the call is made.
 */
async function invokeServedTool(record: Timings, tool: string, event: string, first = false): Promise<void> {
  try {
    if (first) record({ event, at: Date.now() });
    const name = await servedTool(tool);
    record({ event: first ? `${event}Listed` : event, at: Date.now() });
    await vscode.lm.invokeTool(name, { input: {}, toolInvocationToken: undefined });
    record({ event: `${event}Done`, at: Date.now() });
  } catch (error) {
    record({ event: 'invokeToolFailed', message: error instanceof Error ? error.message : String(error) });
  }
}

/** The name VS Code's tool API gives a tool of the server we serve for the spans (started first). */
async function servedTool(tool: string): Promise<string> {
  await vscode.commands.executeCommand('workbench.mcp.startServer', `elicitation-host.elicitation-host/${SERVED_FOR_SPANS}`);
  const deadline = Date.now() + 60_000;
  let found: vscode.LanguageModelToolInformation | undefined;
  // Polled often (the stable API has no event for it): a first call's spans include this wait.
  while (!(found = vscode.lm.tools.find((t) => t.name.includes(`_${SERVED_FOR_SPANS}_`) && t.name.endsWith(`_${tool}`)))) {
    if (Date.now() > deadline) throw new Error(`VS Code listed no ${tool} tool of ${SERVED_FOR_SPANS}: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return found.name;
}

/**
 * The plain webview from the state Run Tool's form starts from: a quick pick of ours closed by
 * the Enter on its item, the webview made as the pick is accepted (as Run Tool calls the tool).
 */
function plainWebviewFromPick(record: Timings): void {
  const pick = vscode.window.createQuickPick();
  pick.title = 'Plain pick (benchmark)';
  pick.items = [{ label: 'plain_form_now' }];
  pick.onDidAccept(() => {
    pick.hide();
    pick.dispose();
    plainWebview(record);
  });
  pick.show();
}

/** A new webview panel with a plain HTML form of ten fields, timed from the call to the form on screen (its load event) with its first field focused. */
function plainWebview(record: Timings): void {
  record({ event: 'plainWebviewCalled', at: Date.now() });
  const panel = vscode.window.createWebviewPanel('elicitationHost.benchmark', 'Plain form (benchmark)', vscode.ViewColumn.Active, { enableScripts: true });
  const nonce = Math.random().toString(36).slice(2);
  const fields = Array.from({ length: 10 }, (_, i) => `<label>Field ${i + 1} <input name="f${i}"></label><br>`).join('\n');
  panel.webview.html = `<!DOCTYPE html><html><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}';">
</head><body><form>${fields}<button>Submit</button></form>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.querySelector('input').focus();
// On screen from the page's load event (VS Code shows a new page's frame then), as ours reports it.
const shown = () => vscode.postMessage({ shownAt: Date.now() });
if (document.readyState === 'complete') shown(); else addEventListener('load', shown, { once: true });
</script></body></html>`;
  panel.webview.onDidReceiveMessage((message: { shownAt?: number }) => {
    record({ event: 'plainWebviewShown', at: message.shownAt });
    panel.dispose();
  });
}
