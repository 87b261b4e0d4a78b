/**
 * What only the benchmark build of the extension carries (`BENCHMARK` true; the shipped
 * bundle leaves all of it out): the floors `npm run bench` compares our prompts with (VS
 * Code's own quick pick, a new webview with a plain ten-field form), each timed from the
 * call, and the form panel's timings, all written to ELICITATION_HOST_BENCH_LOG.
 */
import { appendFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { QUIET_BEFORE_MS } from './quiet';
import { SERVED_FOR_SPANS } from './served';

export interface BenchmarkHooks {
  /** Records one timing, stamped with when it was logged. */
  readonly record: (record: Record<string, unknown>) => void;
}

export function installBenchmarkHooks(context: vscode.ExtensionContext): BenchmarkHooks {
  const file = process.env.ELICITATION_HOST_BENCH_LOG;
  const record = (entry: Record<string, unknown>): void => {
    if (file) appendFileSync(file, `${JSON.stringify({ ...entry, loggedAt: Date.now() })}\n`);
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('elicitationHost.benchmark.plainQuickPick', async () => {
      // From the state our confirm starts from: the palette closed, the workbench idle this long.
      await new Promise((resolve) => setTimeout(resolve, QUIET_BEFORE_MS));
      record({ event: 'plainQuickPick', at: Date.now() });
      return vscode.window.showQuickPick(['Accept', 'Decline'], { title: 'Plain quick pick (benchmark)' });
    }),
    vscode.commands.registerCommand('elicitationHost.benchmark.plainWebview', () => plainWebview(record)),
    vscode.commands.registerCommand('elicitationHost.benchmark.invokeTool', () =>
      invokeServedTool(record).catch((error: unknown) => record({ event: 'invokeToolFailed', message: error instanceof Error ? error.message : String(error) })),
    ),
  );
  if (file) void vscode.commands.executeCommand('setContext', 'elicitationHost.benchmarking', true);
  return { record };
}

/**
 * As VS Code's agent calls a tool: `vscode.lm.invokeTool` on a tool of a server we serve
 * (VS Code's MCP client, then our gateway), timed from the call. The form it asks for is
 * answered in the workbench; the result is recorded when it comes back.
 */
async function invokeServedTool(record: (entry: Record<string, unknown>) => void): Promise<void> {
  await vscode.commands.executeCommand('workbench.mcp.startServer', `elicitation-host.elicitation-host/${SERVED_FOR_SPANS}`);
  const deadline = Date.now() + 60_000;
  let tool: vscode.LanguageModelToolInformation | undefined;
  while (!(tool = vscode.lm.tools.find((t) => t.name.includes(`_${SERVED_FOR_SPANS}_`) && t.name.endsWith('_ask_form_now')))) {
    if (Date.now() > deadline) throw new Error(`VS Code listed no ask_form_now tool of ${SERVED_FOR_SPANS}: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  record({ event: 'invokeTool', at: Date.now() });
  await vscode.lm.invokeTool(tool.name, { input: {}, toolInvocationToken: undefined });
  record({ event: 'invokeToolDone', at: Date.now() });
}

/** A new webview panel with a plain HTML form of ten fields, timed from the call to the first field having focus. */
function plainWebview(record: (entry: Record<string, unknown>) => void): void {
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
vscode.postMessage({ shownAt: Date.now() });
</script></body></html>`;
  panel.webview.onDidReceiveMessage((message: { shownAt?: number }) => {
    record({ event: 'plainWebviewShown', at: message.shownAt });
    panel.dispose();
  });
}
