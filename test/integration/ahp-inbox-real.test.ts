/**
 * The agent host inbox (src/ahp) against VS Code 1.139.1's real agent host running Claude on
 * the fake Messages API (test/support/agent-host.ts, the scripts of
 * test/fixtures/ahp/claude-turns.ts). Another client (the tests' own, as the workbench would
 * be) creates the sessions and starts the turns; our inbox, with a scripted person, answers
 * Claude's AskUserQuestion and its Bash confirmation, and what it answered reaches the model.
 * It also shows drafts both ways and a prompt withdrawn when the turn is cancelled elsewhere.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Outcome } from '../../src/elicitation/broker';
import type { InputRequest } from '../../src/elicitation/request';
import { sourceLabel } from '../../src/elicitation/request';
import type { FakeAnthropic, ToolResult } from '../fixtures/acp/fake-anthropic';
import { ASK_PROMPT, BASH_COMMAND, BASH_PROMPT, claudeTurns, FINAL_PREFIX } from '../fixtures/ahp/claude-turns';
import { AhpRig } from '../support/ahp-harness';
import { claudeAgentHostForSuite, type RunningAgentHost } from '../support/agent-host';
import { AhpTestClient } from '../support/ahp-test-client';
import { submitted, waitForAbort } from '../support/scripted-prompter';
import { waitUntil } from '../support/wait';

describe('AHP inbox against a real VS Code 1.139.1 agent host running Claude', function () {
  this.timeout(60_000);
  const suite = claudeAgentHostForSuite(claudeTurns);
  let model: FakeAnthropic;
  let host: RunningAgentHost;
  let driver: AhpTestClient;
  let rig: AhpRig | undefined;

  beforeEach(async () => {
    ({ host, model } = suite);
    driver = await AhpTestClient.connect(host.url, { name: 'driver' });
  });
  afterEach(async () => {
    rig?.close();
    rig = undefined;
    await driver.close();
  });

  async function session(): Promise<{ session: string; chat: string; folder: string }> {
    const folder = host.workFolder();
    mkdirSync(join(folder, 'build'));
    return { ...(await driver.createClaudeSession(folder)), folder };
  }

  function toolResultsSince(count: number): ToolResult[] {
    return model.requests.slice(count).flatMap((r) => r.turn?.toolResults ?? []);
  }

  it("answers Claude's AskUserQuestion in one form, and the model gets the answers", async () => {
    const { chat } = await session();
    const seen = model.requests.length;
    const turnId = driver.startTurn(chat, ASK_PROMPT);
    await driver.waitForInputRequest(chat);
    // Connected while the question is open: it comes with the chat's snapshot.
    rig = new AhpRig([(request) => ({ action: 'accept', answers: submitted(request, { Colour: 'Blue', Toppings: ['Cheese', 'Basil'], Codename: 'Beta' }) })]);
    const inbox = await rig.open(host.endpoint, host.token, { hostName: 'test host' });
    assert.equal(inbox.protocolVersion, '0.9.0');
    const text = await driver.waitForTurnComplete(chat, turnId);
    const [asked] = rig.prompter.asked;
    assert.equal(asked.options.presentation, 'form');
    assert.deepEqual(asked.request.questions.map((q) => [q.id, q.kind, q.title]), [['Colour', 'single-select', 'Colour'], ['Toppings', 'multi-select', 'Toppings'], ['Codename', 'single-select', 'Codename']]);
    assert.match(sourceLabel(asked.request.source), /^Claude \(test host\), for session '.*'$/);
    const [result] = toolResultsSince(seen);
    assert.equal(result.isError, false);
    // The words around the answers are Claude Code's (they vary by its version); the answers are ours.
    assert.match(result.content, /"Which colour\?"="Blue", "Which toppings\?"="Cheese, Basil", "Which codename\?"="Beta"/);
    assert.match(text, new RegExp(`^${FINAL_PREFIX} \\(ok\\)`));
  });

  for (const approve of [true, false]) {
    it(`asks Claude's Bash \`${BASH_COMMAND}\` in the permission dialog; ${approve ? 'Allow runs it' : 'Deny keeps the folder'}`, async () => {
      rig = new AhpRig([(request) => (approve ? { action: 'accept', answers: submitted(request, { decision: 'allow-once' }) } : { action: 'decline' })]);
      await rig.open(host.endpoint, host.token);
      const { chat, folder } = await session();
      const seen = model.requests.length;
      const turnId = driver.startTurn(chat, BASH_PROMPT);
      await driver.waitForTurnComplete(chat, turnId);
      const [asked] = rig.prompter.asked;
      assert.match(asked.request.message, /rm -rf build/);
      assert.equal(asked.request.source.destructive, true);
      const decision = asked.request.questions[0];
      assert.equal(decision.kind === 'single-select' && decision.defaultValue, 'skip', "the host's own deny option is the default");
      const [result] = toolResultsSince(seen);
      assert.deepEqual([result.isError, result.content], approve ? [false, '(Bash completed with no output)'] : [true, 'User declined']);
      assert.equal(existsSync(join(folder, 'build')), !approve);
    });
  }

  it("drafts both ways with the other client, and a turn cancelled there withdraws our prompt", async () => {
    let shown: InputRequest | undefined;
    rig = new AhpRig([(request, options) => ((shown = request), waitForAbort(request, options) as Promise<Outcome>)]);
    await rig.open(host.endpoint, host.token);
    const { chat } = await session();
    const turnId = driver.startTurn(chat, ASK_PROMPT);
    const request = await driver.waitForInputRequest(chat);
    await waitUntil('our prompt', () => shown);
    // Theirs to ours: the other client's draft fills our form.
    driver.answerDraft(chat, request.id, 'Toppings', { state: 'draft', value: { kind: 'selected-many', value: ['Olives'] } });
    await waitUntil('their draft in our form', () => rig!.store.state.requests.find((r) => r.request.id === shown!.id)?.answers.Toppings);
    assert.deepEqual(rig.store.state.requests.find((r) => r.request.id === shown!.id)?.answers.Toppings, { state: 'draft', value: { kind: 'selected-many', value: ['Olives'] } });
    // Ours to theirs: the person picks Red in our form.
    rig.store.dispatch({ type: 'answerChanged', origin: 'page', requestId: shown!.id, questionId: 'Colour', answer: { state: 'draft', value: { kind: 'selected', value: 'Red' } } });
    const ours = await driver.waitForAction(chat, 'chat/inputAnswerChanged', (_, e) => e.origin?.clientId !== driver.clientId);
    assert.deepEqual(ours.action, { type: 'chat/inputAnswerChanged', requestId: request.id, questionId: 'Colour', answer: { state: 'draft', value: { kind: 'selected', value: 'Red' } } });
    driver.cancelTurn(chat, turnId);
    await waitUntil('the History entry', () => rig!.history.entries[0]);
    assert.equal(rig.history.entries[0].outcome, 'withdrawn');
    assert.match(rig.history.entries[0].reason ?? '', /the agent's turn was cancelled/);
    assert.ok(!driver.actions.some((e) => e.action.type === 'chat/inputCompleted'), 'nobody answered it');
  });
});
