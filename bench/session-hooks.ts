/**
 * The session bench's side in the extension host (benchmark build only; bench/session.ts
 * drives it): how long the extension host's thread is busy while an agent streams a reply,
 * for our session panel and for its baseline, a plain accumulator that posts each chunk to a
 * plain webview appending it as text (the same fixture agent, the same ACP client, the same
 * stream); and the heap after garbage collection, on demand. Written to ELICITATION_HOST_BENCH_LOG.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as vscode from 'vscode';
import type { AgentSession } from '../src/acp/agent-session';
import type { Timings } from '../src/mcp/ports';
import type { AcpAgents } from '../src/ui/agents/acp-agents';

/** Busy time is read every this many chunks: the first and the last such spans are compared. */
const CHUNKS_PER_MARK = 1_000;

/**
 * Records each turn's busy time of the extension host's thread (its event loop's active time,
 * which counts everything the thread does, garbage collection included): at the first chunk and
 * every CHUNKS_PER_MARK after, as the turn ends, and a moment after (what the last chunks left
 * to do: posts gathered for the next frame).
 */
function timeTurns(session: AgentSession, side: 'ours' | 'plain', record: Timings): () => void {
  let chunks = 0;
  let marks: number[] = [];
  return session.events.add((event) => {
    if (event.type === 'message' && event.role === 'agent') {
      if (chunks % CHUNKS_PER_MARK === 0) marks.push(performance.eventLoopUtilization().active);
      chunks++;
      return;
    }
    if (event.type !== 'turn-end') return;
    const turn = { chunks, perMark: CHUNKS_PER_MARK, marks, afterChunks: performance.eventLoopUtilization().active };
    chunks = 0;
    marks = [];
    setTimeout(() => record({ event: 'hostStream', side, ...turn, end: performance.eventLoopUtilization().active, at: Date.now() }), 250);
  });
}

/** The baseline's page: each chunk appended to a `<pre>` as text, as it comes. The bench starts the stream (`__start(chars)`) once it watches the page's frames, and closes it (`__finish`). */
function plainStreamPage(nonce: string): string {
  return `<!DOCTYPE html><html><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}';">
</head><body><pre id="plain-stream"></pre>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const pre = document.getElementById('plain-stream');
addEventListener('message', (event) => pre.append(event.data.text));
window.__start = (chars) => vscode.postMessage({ start: chars });
window.__finish = () => vscode.postMessage({ finish: true });
</script></body></html>`;
}

export function installSessionHooks(context: vscode.ExtensionContext, record: Timings): (agents: AcpAgents) => void {
  let agentsHost: AcpAgents | undefined;
  let bare: Promise<{ readonly session: AgentSession }> | undefined;
  context.subscriptions.push(
    // The heap in use once garbage is collected (three times: finalizers of one round free more in the next).
    vscode.commands.registerCommand('elicitationHost.benchmark.heap', async () => {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((resolve) => setImmediate(resolve));
      }
      record({ event: 'heap', heapUsed: process.memoryUsage().heapUsed, at: Date.now() });
    }),
    // The baseline: a session of the fixture agent's with no panel of ours; each chunk is added to a plain string and posted to a plain webview.
    vscode.commands.registerCommand('elicitationHost.benchmark.plainStream', async () => {
      if (!agentsHost) throw new Error('the agents are not watched');
      const { session } = await (bare ??= agentsHost.sessionWithoutPanel('fixture').then((made) => {
        timeTurns(made.session, 'plain', record);
        return made;
      }));
      const panel = vscode.window.createWebviewPanel('elicitationHost.benchmarkStream', 'Plain stream (benchmark)', vscode.ViewColumn.Active, { enableScripts: true });
      panel.webview.html = plainStreamPage(Math.random().toString(36).slice(2));
      let text = '';
      const off = session.events.add((event) => {
        if (event.type !== 'message' || event.role !== 'agent') return;
        text += event.text;
        void panel.webview.postMessage({ text: event.text });
      });
      panel.webview.onDidReceiveMessage((message: { start?: number; finish?: boolean }) => {
        if (message.start) void session.prompt(`stream ${message.start} 40`).then(() => record({ event: 'plainStreamDone', chars: text.length, at: Date.now() }));
        if (message.finish) panel.dispose();
      });
      panel.onDidDispose(off);
    }),
  );
  return (agents) => {
    agentsHost = agents;
    const watched = new WeakSet<AgentSession>();
    agents.onDidChange.add(() => {
      for (const entry of agents.agents) {
        for (const panel of entry.sessions) {
          if (watched.has(panel.session)) continue;
          watched.add(panel.session);
          // After the panel's own listener: its work on each chunk is in the time.
          timeTurns(panel.session, 'ours', record);
        }
      }
    });
  };
}
