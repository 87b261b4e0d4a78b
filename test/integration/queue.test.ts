/**
 * The pending queue in front of a one-at-a-time surface (as VS Code's quick input is),
 * with real fixture servers: questions from several servers are shown one at a time,
 * first come first served, and a question withdrawn while it waits leaves without a word.
 */
import { strict as assert } from 'node:assert';
import type { AskOptions, Outcome, Prompter } from '../../src/elicitation/broker';
import { PromptQueue, type ShowResult } from '../../src/ui/quick-input/prompt-queue';
import type { InputRequest } from '../../src/elicitation/request';
import type { ServerConnection } from '../../src/mcp/connection/connection';
import { withHost, type Host, stdioDefinition, toolJson } from '../support/servers';
import { waitUntil } from '../support/wait';

/** A surface that shows one question at a time and accepts each after `holdMs`. */
class OneAtATimeSurface implements Prompter {
  readonly shown: string[] = [];
  readonly told: string[] = [];
  private visible = 0;
  maxVisible = 0;
  private readonly queue = new PromptQueue<Outcome>(() => false);

  constructor(private readonly holdMs: number) {}

  ask(request: InputRequest, options: AskOptions): Promise<Outcome> {
    return new Promise((resolve) => {
      this.queue.enqueue({
        id: request.id,
        signal: options.signal,
        resolve,
        onAborted: () => this.told.push(request.message),
        show: () => this.show(request, options.signal),
      });
    });
  }

  private async show(request: InputRequest, signal: AbortSignal): Promise<ShowResult<Outcome>> {
    this.shown.push(`${request.source.server}: ${request.message}`);
    this.visible++;
    this.maxVisible = Math.max(this.maxVisible, this.visible);
    try {
      const ended = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), this.holdMs);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve(true)), { once: true });
      });
      return ended ? { kind: 'aborted' } : { kind: 'done', value: { action: 'accept', answers: {} } };
    } finally {
      this.visible--;
    }
  }
}

/** Two fixture servers, "alpha" and "beta", each asking under its own name. */
function twoServers(host: Host): Promise<ServerConnection[]> {
  return Promise.all(['alpha', 'beta'].map((name) => host.connect(stdioDefinition(name, {}, ['--name', name]))));
}

describe('the pending queue with real servers', () => {
  it('shows questions from several servers one at a time, first come first served', async () => {
    const surface = new OneAtATimeSurface(300);
    await withHost(surface, async (host) => {
      const [alpha, beta] = await twoServers(host);
      // alpha asks after 400 ms, beta after 100 ms: beta's comes first though alpha's call was made first.
      // Each call stays in flight until its question is answered.
      const calls = [alpha.callTool('ask_later', { delayMs: 400 }), beta.callTool('ask_later', { delayMs: 100 })];
      await Promise.all(calls);
      await waitUntil('both questions to be answered', () => surface.shown.length === 2 && host.store.state.requests.every((r) => r.status !== 'open'));
      assert.deepEqual(surface.shown, ['beta: beta has a question of its own: proceed?', 'alpha: alpha has a question of its own: proceed?']);
      assert.equal(surface.maxVisible, 1, 'never two on screen');
    });
  });

  it('a question withdrawn while it waits leaves the queue silently; the one on screen is not disturbed', async () => {
    const surface = new OneAtATimeSurface(1200);
    await withHost(surface, async (host) => {
      const [alpha, beta] = await twoServers(host);
      const betaCall = beta.callTool('ask_later', { delayMs: 0 });
      await waitUntil('beta on screen', () => surface.shown.length === 1);
      // alpha's question waits behind beta's and is withdrawn after 300 ms.
      const withdrawn = toolJson(await alpha.callTool('cancel_elicitation', { afterMs: 300 }));
      // On the server's side its own withdrawal ends the request with an error, not an answer.
      assert.ok('error' in withdrawn && !('action' in withdrawn), JSON.stringify(withdrawn));
      await betaCall;
      await waitUntil('beta answered', () => host.store.state.requests.every((r) => r.status !== 'open'));
      assert.deepEqual(surface.shown, ['beta: beta has a question of its own: proceed?'], 'the withdrawn question never showed');
      assert.deepEqual(surface.told, [], 'nothing was said about a question nobody saw');
    });
  });
});
