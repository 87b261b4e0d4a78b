/**
 * The AHP harness end to end: VS Code 1.139.1's real agent host (test/support/agent-host.ts)
 * running Claude (the agent SDK of our node_modules) against the fake Messages API with the
 * scripts of test/fixtures/ahp/claude-turns.ts, driven by the test's own clients
 * (test/support/ahp-test-client.ts).
 *
 * With AHP_OBSERVE_DIR set, every client's frames are written there as JSON lines, one file
 * per flow and client, big payloads no flow is about written once in full and elided in the
 * flows (see `elide`): test/fixtures/ahp/observed-1.139.1/ was made so.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stillAlive, processTable, processTree, type ProcessRow } from '../e2e/processes';
import type { FakeAnthropic, ToolResult } from '../fixtures/acp/fake-anthropic';
import { ASK_ONE_PROMPT, ASK_PROMPT, BASH_COMMAND, BASH_PROMPT, claudeTurns, FINAL_PREFIX, GREETING } from '../fixtures/ahp/claude-turns';
import { claudeAgentHostForSuite, type RunningAgentHost, startAgentHost } from '../support/agent-host';
import { type ActionEnvelope, AhpTestClient, type InputAnswer, type InputRequest, ROOT, type TraceEntry } from '../support/ahp-test-client';
import { waitUntil } from '../support/wait';

const OBSERVE_DIR = process.env.AHP_OBSERVE_DIR;

/** The answers every accepted AskUserQuestion gets here; "Gamma" is free-form text, which the host passes on unchecked. */
const ANSWERS: Record<string, InputAnswer> = {
  Colour: { state: 'submitted', value: { kind: 'selected', value: 'Blue' } },
  Toppings: { state: 'submitted', value: { kind: 'selected-many', value: ['Cheese', 'Basil'] } },
  Codename: { state: 'submitted', value: { kind: 'selected', value: '', freeformValues: ['Gamma'] } },
};
const ANSWERED = '"Which colour?"="Blue", "Which toppings?"="Cheese, Basil", "Which codename?"="Gamma"';

/** Payloads no flow here is about, and large: each written once in full (its file named in the marker), elided elsewhere. */
function elide(entry: TraceEntry): TraceEntry {
  const message = structuredClone(entry.message) as { result?: Record<string, unknown>; params?: { action?: Record<string, unknown> } };
  const once = (file: string): string => {
    if (!existsSync(join(OBSERVE_DIR!, file))) writeFileSync(join(OBSERVE_DIR!, file), JSON.stringify(entry.message, null, 2) + '\n');
    return `(elided: see ${file})`;
  };
  const { result, params } = message;
  if (result?.protocolVersion && result.snapshots) result.snapshots = once('initialize-result.json');
  const state = (result?.snapshot as { state?: Record<string, unknown> } | undefined)?.state;
  if (state?.customizations) {
    state.customizations = once('session-snapshot.json');
    state.serverTools = state.customizations;
    (state.config as Record<string, unknown>).schema = state.customizations;
  }
  const action = params?.action;
  if (action?.type === 'session/customizationsChanged') action.customizations = once('session-customizations-changed.json');
  if (action?.type === 'session/serverToolsChanged') action.tools = once('session-server-tools-changed.json');
  return { ...entry, message };
}

function omit(object: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.includes(key)));
}

/** Processes whose environment has this entry (the server and all it starts inherit its HOME). */
function withEnvironment(entry: string): ProcessRow[] {
  return processTable().filter((p) => {
    try {
      return !p.zombie && `\0${readFileSync(`/proc/${p.pid}/environ`, 'latin1')}`.includes(`\0${entry}\0`);
    } catch {
      return false;
    }
  });
}

describe('AHP: a real VS Code 1.139.1 agent host running Claude, driven by the test\'s own clients', function () {
  // A turn takes 1-3 s on two cores; the first turn of a session starts Claude Code.
  this.timeout(60_000);
  const suite = claudeAgentHostForSuite(claudeTurns);
  let model: FakeAnthropic;
  let host: RunningAgentHost;
  let clients: Array<[string, AhpTestClient]> = [];
  /** The name of the running test's flow, for the observed traces' file names. */
  let flow = '';

  beforeEach(() => {
    ({ host, model } = suite);
  });
  afterEach(async () => {
    if (OBSERVE_DIR) {
      mkdirSync(OBSERVE_DIR, { recursive: true });
      for (const [name, client] of clients) writeFileSync(join(OBSERVE_DIR, `${flow}.${name}.jsonl`), client.trace.map((e) => JSON.stringify(elide(e))).join('\n') + '\n');
    }
    await Promise.all(clients.map(([, c]) => c.close()));
    clients = [];
  });

  async function connect(name: string): Promise<AhpTestClient> {
    const client = await AhpTestClient.connect(host.url, { name });
    clients.push([name, client]);
    return client;
  }

  /** A Claude session in a fresh folder with a build/ inside, created and subscribed by `client`. */
  async function session(client: AhpTestClient): Promise<{ session: string; chat: string; folder: string }> {
    const folder = host.workFolder();
    mkdirSync(join(folder, 'build'));
    return { ...(await client.createClaudeSession(folder)), folder };
  }

  function toolResultsSince(count: number): ToolResult[] {
    return model.requests.slice(count).flatMap((r) => r.turn?.toolResults ?? []);
  }

  it('answers AskUserQuestion: the single-select, multi-select and free-form answers reach the model as its tool result', async () => {
    flow = 'ask-user-question';
    const a = await connect('a');
    const { session: sessionUri, chat } = await session(a);
    const seen = model.requests.length;
    const turnId = a.startTurn(chat, ASK_PROMPT);

    const request = await a.waitForInputRequest(chat);
    assert.deepEqual(request._meta, { purpose: 'askUser' });
    assert.match(request.id, /^toolu_/, 'the request id is the tool call id');
    assert.deepEqual(
      request.questions?.map((q) => [q.id, q.kind, q.title, q.message, q.options?.map((o) => o.id), q.allowFreeformInput]),
      [
        ['Colour', 'single-select', 'Colour', 'Which colour?', ['Red', 'Blue'], false],
        ['Toppings', 'multi-select', 'Toppings', 'Which toppings?', ['Cheese', 'Olives', 'Basil'], false],
        // The model asked for free-form input; the input Claude Code validates (and hands the host) has no such field: no "Other".
        ['Codename', 'single-select', 'Codename', 'Which codename?', ['Alpha', 'Beta'], false],
      ],
    );
    // The session mirrors it, and so does the root's summary (status 24 = in progress + input needed).
    const needed = await a.waitForAction(sessionUri, 'session/inputNeededSet');
    assert.deepEqual(needed.action.request, { id: `chatInput:${chat}:${request.id}`, kind: 'chatInput', chat, request });
    await a.waitFor('the input-needed status in the root summary', () => a.notifications.find((n) => n.method === 'root/sessionSummaryChanged' && n.params.session === sessionUri && (n.params.changes as { status?: number }).status === 24));

    for (const [questionId, answer] of Object.entries(ANSWERS)) a.answerDraft(chat, request.id, questionId, { ...answer, state: 'draft' } as InputAnswer);
    a.completeInput(chat, request.id, 'accept', ANSWERS);

    const text = await a.waitForTurnComplete(chat, turnId);
    await a.waitForAction(sessionUri, 'session/inputNeededRemoved', (x) => x.id === (needed.action.request as { id: string }).id);
    const results = toolResultsSince(seen);
    assert.equal(results.length, 1, JSON.stringify(results));
    assert.equal(results[0].toolUseId, request.id);
    assert.equal(results[0].isError, false);
    assert.match(results[0].content, new RegExp(`^The user answered: ${ANSWERED.replace(/[?"]/g, '\\$&')}\\.`));
    assert.match(text, new RegExp(`^${FINAL_PREFIX} \\(ok\\): The user answered: ${ANSWERED.replace(/[?"]/g, '\\$&')}`));
  });

  for (const approved of [true, false]) {
    it(`asks to confirm Bash \`${BASH_COMMAND}\` and the model hears the ${approved ? 'approval (the folder is gone)' : 'refusal (the folder stays)'}`, async () => {
      flow = `bash-${approved ? 'approved' : 'denied'}`;
      const a = await connect('a');
      const { session: sessionUri, chat, folder } = await session(a);
      const seen = model.requests.length;
      const turnId = a.startTurn(chat, BASH_PROMPT);

      const ready = await a.waitForAction(chat, 'chat/toolCallReady', (x) => x.confirmed === undefined);
      const toolCallId = ready.action.toolCallId as string;
      assert.deepEqual(ready.action, {
        type: 'chat/toolCallReady',
        turnId,
        toolCallId,
        invocationMessage: { markdown: `Running \`${BASH_COMMAND}\`` },
        toolInput: BASH_COMMAND,
        confirmationTitle: 'Run in terminal?',
        _meta: { toolKind: 'terminal' },
        options: [
          { id: 'allow-session', label: 'Allow in this Session', kind: 'approve', group: 1 },
          { id: 'allow-once', label: 'Allow Once', kind: 'approve' },
          { id: 'skip', label: 'Skip', kind: 'deny', group: 2 },
        ],
      });
      // A first toolCallReady says "not-needed"; the one asking follows (the reducer turns the call back to pending-confirmation).
      const readies = a.actions.filter((e) => e.channel === chat && e.action.type === 'chat/toolCallReady' && e.action.toolCallId === toolCallId);
      assert.deepEqual(readies.map((e) => e.action.confirmed ?? 'asks'), ['not-needed', 'asks']);
      const needed = await a.waitForAction(sessionUri, 'session/inputNeededSet');
      assert.deepEqual(needed.action.request, {
        id: `toolConfirmation:${chat}:${turnId}:${toolCallId}`,
        kind: 'toolConfirmation',
        chat,
        turnId,
        toolCall: { status: 'pending-confirmation', toolCallId, toolName: 'Bash', displayName: 'Run shell command', ...omit(ready.action, 'type', 'turnId', 'toolCallId') },
      });

      a.confirmTool(chat, turnId, toolCallId, approved);
      const text = await a.waitForTurnComplete(chat, turnId);
      const [result, ...more] = toolResultsSince(seen);
      assert.deepEqual(more, []);
      assert.equal(result.toolUseId, toolCallId);
      if (approved) {
        assert.deepEqual([result.isError, result.content], [false, '(Bash completed with no output)']);
        assert.equal(existsSync(join(folder, 'build')), false, 'the approved command ran');
      } else {
        assert.deepEqual([result.isError, result.content], [true, 'User declined']);
        assert.equal(existsSync(join(folder, 'build')), true, 'the refused command did not run');
      }
      assert.equal(text, `${FINAL_PREFIX} (${approved ? 'ok' : 'error'}): ${result.content}`);
    });
  }

  it('shares drafts between clients: each sees the other\'s, a late subscriber sees both, a reconnect replays what it missed', async () => {
    flow = 'drafts-and-reconnect';
    const a = await connect('a');
    const b = await connect('b');
    const { session: sessionUri, chat } = await session(a);
    await b.subscribe(sessionUri);
    await b.subscribe(chat);
    const turnId = a.startTurn(chat, ASK_PROMPT);
    const request = await b.waitForInputRequest(chat);

    const fromA = a.answerDraft(chat, request.id, 'Colour', { state: 'draft', value: { kind: 'selected', value: 'Red' } });
    const echoedToB = await b.waitForAction(chat, 'chat/inputAnswerChanged', (_, e) => e.origin?.clientSeq === fromA && e.origin.clientId === a.clientId);
    assert.deepEqual(echoedToB.action, { type: 'chat/inputAnswerChanged', requestId: request.id, questionId: 'Colour', answer: { state: 'draft', value: { kind: 'selected', value: 'Red' } } });
    const fromB = b.answerDraft(chat, request.id, 'Toppings', { state: 'draft', value: { kind: 'selected-many', value: ['Olives'] } });
    await a.waitForAction(chat, 'chat/inputAnswerChanged', (_, e) => e.origin?.clientSeq === fromB && e.origin.clientId === b.clientId);

    const late = await connect('late');
    const snapshot = await late.subscribe(chat);
    const part = (snapshot.state.activeTurn as { responseParts: Array<{ kind: string; request?: InputRequest }> }).responseParts.find((p) => p.kind === 'inputRequest');
    assert.deepEqual(part?.request?.answers, {
      Colour: { state: 'draft', value: { kind: 'selected', value: 'Red' } },
      Toppings: { state: 'draft', value: { kind: 'selected-many', value: ['Olives'] } },
    });

    // b drops its connection; a changes its draft; b comes back and is replayed the change.
    await b.close();
    const change = a.answerDraft(chat, request.id, 'Colour', { state: 'draft', value: { kind: 'selected', value: 'Blue' } });
    await a.waitForAction(chat, 'chat/inputAnswerChanged', (_, e) => e.origin?.clientSeq === change && e.origin.clientId === a.clientId);
    const back = await AhpTestClient.reconnect(host.url, b, [ROOT, sessionUri, chat]);
    clients.push(['b-reconnected', back]);
    assert.equal(back.result.type, 'replay');
    assert.deepEqual(back.result.missing, []);
    const replayed = (back.result.actions as ActionEnvelope[]).filter((e) => e.action.type === 'chat/inputAnswerChanged');
    assert.deepEqual(replayed.map((e) => [e.origin, e.action.questionId, e.action.answer]), [[{ clientId: a.clientId, clientSeq: change }, 'Colour', { state: 'draft', value: { kind: 'selected', value: 'Blue' } }]]);

    // The reconnected b answers for everyone.
    back.completeInput(chat, request.id, 'accept', ANSWERS);
    const completed = await a.waitForAction(chat, 'chat/inputCompleted');
    assert.deepEqual(completed.origin?.clientId, b.clientId);
    const text = await a.waitForTurnComplete(chat, turnId);
    assert.match(text, new RegExp(`^${FINAL_PREFIX} \\(ok\\): The user answered: ${ANSWERED.replace(/[?"]/g, '\\$&')}`));
  });

  it('uses only the answers inputCompleted carries: accepting over drafts alone reaches the model as a refusal', async () => {
    flow = 'accept-without-answers';
    const a = await connect('a');
    const { chat } = await session(a);
    const seen = model.requests.length;
    const turnId = a.startTurn(chat, ASK_ONE_PROMPT);
    const request = await a.waitForInputRequest(chat);
    a.answerDraft(chat, request.id, 'Colour', { state: 'submitted', value: { kind: 'selected', value: 'Red' } });
    a.completeInput(chat, request.id, 'accept');
    const text = await a.waitForTurnComplete(chat, turnId);
    const [result] = toolResultsSince(seen);
    assert.deepEqual([result.isError, result.content], [true, 'The user cancelled the question']);
    assert.equal(text, `${FINAL_PREFIX} (error): ${result.content}`);
  });

  it('cancelling the turn abandons its open input request: inputNeededRemoved, no inputCompleted, and the model hears the abort', async () => {
    flow = 'cancel-open-request';
    const a = await connect('a');
    const { session: sessionUri, chat } = await session(a);
    const seen = model.requests.length;
    const turnId = a.startTurn(chat, ASK_ONE_PROMPT);
    const request = await a.waitForInputRequest(chat);
    a.answerDraft(chat, request.id, 'Colour', { state: 'draft', value: { kind: 'selected', value: 'Red' } });
    const cancel = a.cancelTurn(chat, turnId);

    const cancelled = await a.waitForAction(chat, 'chat/turnCancelled', (x) => x.turnId === turnId);
    assert.deepEqual(cancelled.origin, { clientId: a.clientId, clientSeq: cancel });
    await a.waitForAction(sessionUri, 'session/inputNeededRemoved', (x) => x.id === `chatInput:${chat}:${request.id}`);
    // After the cancel, the provider's own failure arrives for the same turn.
    const error = await a.waitForAction(chat, 'chat/error', (x) => x.turnId === turnId);
    assert.deepEqual((error.action.part as { error: unknown }).error, { errorType: 'sendFailed', message: 'Canceled: Canceled' });
    const after = a.actions.filter((e) => e.serverSeq >= cancelled.serverSeq && (e.channel === chat || e.channel === sessionUri)).map((e) => e.action.type);
    assert.ok(!after.includes('chat/inputCompleted'), `no inputCompleted after the cancel: ${after.join(', ')}`);

    const result = await waitUntil('the abandoned tool call\'s result at the model', () => toolResultsSince(seen)[0], 20_000);
    assert.equal(result.isError, true);
    assert.match(result.content, /AbortError/);
    // The cancelled turn keeps the request, unanswered, with its draft.
    const state = (await (await connect('late')).subscribe(chat)).state as { activeTurn?: unknown; turns: Array<{ id: string; state: string; responseParts: Array<{ kind: string; request?: InputRequest; response?: string; toolCall?: Record<string, unknown> }> }> };
    assert.equal(state.activeTurn, undefined);
    const turn = state.turns.find((t) => t.id === turnId);
    assert.equal(turn?.state, 'cancelled');
    const part = turn?.responseParts.find((p) => p.kind === 'inputRequest');
    assert.deepEqual([part?.request?.id, part?.response, part?.request?.answers], [request.id, undefined, { Colour: { state: 'draft', value: { kind: 'selected', value: 'Red' } } }]);
    const call = turn?.responseParts.find((p) => p.kind === 'toolCall')?.toolCall;
    assert.deepEqual([call?.toolCallId, call?.status, call?.reason], [request.id, 'cancelled', 'skipped']);
  });

  it('starts on loopback behind its token, runs Claude Code, and stop() leaves no process behind', async () => {
    flow = 'start-and-stop';
    const own = await startAgentHost({ anthropicBaseUrl: model.url });
    let seen: ProcessRow[];
    try {
      assert.match(own.url, /^ws:\/\/127\.0\.0\.1:\d+\/\?tkn=[0-9a-f]{48}$/);
      await assert.rejects(AhpTestClient.connect(`${own.endpoint}/?tkn=wrong`), /HTTP 403/);
      const c = await AhpTestClient.connect(own.url);
      clients.push(['own', c]);
      assert.equal(c.result.protocolVersion, '0.9.0');
      const { chat } = await c.createClaudeSession(own.workFolder());
      const turnId = c.startTurn(chat, 'hello');
      assert.equal(await c.waitForTurnComplete(chat, turnId), GREETING);
      seen = [...processTree(own.pgid), ...withEnvironment(`HOME=${own.home}`)];
      assert.ok(seen.some((p) => /claude-agent-sdk-linux-x64\/claude\b/.test(p.args)), `Claude Code runs under the server:\n${seen.map((p) => p.args).join('\n')}`);
      assert.ok(seen.some((p) => /--type=agentHost/.test(p.args)), 'the agent host runs');
    } finally {
      await own.stop();
    }
    assert.deepEqual(stillAlive(seen).map((p) => p.args), []);
    assert.deepEqual(withEnvironment(`HOME=${own.home}`).map((p) => p.args), []);
  });
});
