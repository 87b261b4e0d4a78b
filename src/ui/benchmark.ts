/**
 * The baseline the form benchmark measures against: a new webview panel with a plain HTML
 * form of ten fields, timed from the call to the first field having focus. Used only when
 * `npm run bench` sets ELICITATION_HOST_BENCH_LOG.
 */
import { appendFileSync } from 'node:fs';
import * as vscode from 'vscode';

export function benchmarkPlainWebview(): void {
  const logFile = process.env.ELICITATION_HOST_BENCH_LOG;
  const log = (record: Record<string, unknown>): void => {
    if (logFile) appendFileSync(logFile, `${JSON.stringify(record)}\n`);
  };
  log({ event: 'plainWebviewCalled', at: Date.now() });
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
    log({ event: 'plainWebviewShown', at: message.shownAt });
    panel.dispose();
  });
}
