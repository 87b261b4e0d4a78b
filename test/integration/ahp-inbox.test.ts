/**
 * The agent host inbox (src/ahp) against the fixture host (test/fixtures/ahp/fixture-host.ts):
 * both naming generations, every question kind, the person's own answers, required
 * questions, links, tool confirmations, drafts both ways, withdrawal, and what the host sees
 * of each answer (it validates our writes as the specification asks a host to; none may be
 * refused). The person is scripted; the broker, store, ajv check and History are the product's.
 */
import { strict as assert } from 'node:assert';
import { FixtureHost, OTHER_CLIENT, type Naming } from '../fixtures/ahp/fixture-host';
import { AhpRig } from '../support/ahp-harness';
import { AhpTestClient } from '../support/ahp-test-client';
import { accept, cancel, decline, type Step, submitted, waitForAbort } from '../support/scripted-prompter';
import { waitUntil } from '../support/wait';
import { sourceLabel } from '../../src/elicitation/request';
import type { AskOptions, Outcome } from '../../src/elicitation/broker';
import type { ContentValue } from '../../src/elicitation/model';
import type { InputRequest } from '../../src/elicitation/request';

const NAME_QUESTION = { id: 'name', kind: 'text', title: 'Name', message: 'What should the branch be called?', required: true };

function completion(host: FixtureHost, requestId: string) {
  return host.waitForClientAction((e) => e.action.type.endsWith('/inputCompleted') && e.action.requestId === requestId);
}

for (const naming of ['chat', 'session'] as Naming[]) {
  describe(`AHP inbox, ${naming}/input* names`, function () {
    this.timeout(30_000);
    let host: FixtureHost;
    let rig: AhpRig;

    beforeEach(async () => {
      host = await FixtureHost.start({ naming });
    });
    afterEach(async () => {
      rig?.close();
      await host.stop();
    });

    it('asks an open question, headed with the agent, the host and the session, and answers it on the host', async () => {
      const { chat } = host.addSession('rename the branch');
      host.requestInput(chat, { id: 'r1', questions: [NAME_QUESTION] });
      rig = new AhpRig([accept({ name: 'feature/ahp' })]);
      const inbox = await rig.open(host.url, host.token, { hostName: 'my-laptop' });
      const done = await completion(host, 'r1');
      assert.equal(done.action.type, `${naming}/inputCompleted`);
      assert.equal(done.action.response, 'accept');
      assert.deepEqual(done.action.answers, { name: { state: 'submitted', value: { kind: 'text', value: 'feature/ahp' } } });
      const [asked] = rig.prompter.asked;
      assert.equal(asked.options.presentation, 'input');
      assert.equal(sourceLabel(asked.request.source), "Claude (my-laptop), for session 'rename the branch'");
      assert.equal(inbox.protocolVersion, '0.9.0');
      await waitUntil('the host to close the request', () => host.openRequest(chat, 'r1') === undefined);
      assert.deepEqual(host.rejections, []);
    });

    it('a form of every kind: typed answers, the person\'s own answer beside options, required ones held before Accept', async () => {
      const { chat } = host.addSession();
      host.requestInput(chat, {
        id: 'r2',
        message: 'Set up the release',
        questions: [
          { id: 'email', kind: 'text', message: 'Contact', format: 'email', required: true },
          { id: 'count', kind: 'integer', message: 'How many builds', min: 1, max: 5, defaultValue: 2 },
          { id: 'ratio', kind: 'number', message: 'Ratio' },
          { id: 'ship', kind: 'boolean', message: 'Ship it?', defaultValue: false },
          { id: 'channel', kind: 'single-select', message: 'Channel', options: [{ id: 'stable', label: 'Stable' }, { id: 'beta', label: 'Beta', recommended: true }], allowFreeformInput: true, required: true },
          { id: 'targets', kind: 'multi-select', message: 'Targets', options: [{ id: 'linux', label: 'Linux' }, { id: 'mac', label: 'macOS' }], min: 1 },
        ],
      });
      const refusals: Array<AskOptions['errors']> = [];
      const tries = (values: Record<string, ContentValue>): Step => (request, options) => {
        if (options.errors) refusals.push(options.errors);
        return { action: 'accept', answers: submitted(request, values) };
      };
      rig = new AhpRig([
        tries({ count: 3 }),
        tries({ email: 'ada@example.com', count: 3 }),
        tries({ email: 'ada@example.com', count: 3, ratio: 0.5, ship: true, 'channel (own answer)': 'nightly', targets: ['linux', 'mac'] }),
      ]);
      await rig.open(host.url, host.token);
      const done = await completion(host, 'r2');
      // Each Accept that lacked a required answer was asked again with why, never sent to the host.
      assert.deepEqual(refusals.map((errors) => errors?.map((e) => e.questionId)), [['email'], ['channel']]);
      assert.equal(rig.prompter.asked[0].options.presentation, 'form');
      const labels = rig.prompter.asked[0].request.questions.find((q) => q.id === 'channel');
      assert.deepEqual(labels?.kind === 'single-select' && labels.options.map((o) => o.label), ['Stable', 'Beta (recommended)']);
      assert.equal(done.action.response, 'accept');
      assert.deepEqual(done.action.answers, {
        email: { state: 'submitted', value: { kind: 'text', value: 'ada@example.com' } },
        count: { state: 'submitted', value: { kind: 'number', value: 3 } },
        ratio: { state: 'submitted', value: { kind: 'number', value: 0.5 } },
        ship: { state: 'submitted', value: { kind: 'boolean', value: true } },
        channel: { state: 'submitted', value: { kind: 'text', value: 'nightly' } },
        targets: { state: 'submitted', value: { kind: 'selected-many', value: ['linux', 'mac'] } },
      });
      assert.deepEqual(host.rejections, []);
    });

    it('decline and dismiss are answered as decline and cancel', async () => {
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 'd1', questions: [NAME_QUESTION] });
      rig = new AhpRig([decline, cancel]);
      await rig.open(host.url, host.token);
      assert.equal((await completion(host, 'd1')).action.response, 'decline');
      host.requestInput(chat, { id: 'd2', questions: [NAME_QUESTION] });
      const dismissed = await completion(host, 'd2');
      assert.equal(dismissed.action.response, 'cancel');
      assert.equal(dismissed.action.answers, undefined);
      assert.deepEqual(host.rejections, []);
    });

    it('a link is asked in the link prompt, never opened by us, and accepted on the host', async () => {
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 'u1', message: 'Sign in to continue', url: 'https://example.com/login' });
      rig = new AhpRig([accept()]);
      await rig.open(host.url, host.token);
      const done = await completion(host, 'u1');
      assert.equal(rig.prompter.asked[0].options.presentation, 'url');
      assert.equal(rig.prompter.asked[0].request.mode === 'url' && rig.prompter.asked[0].request.url, 'https://example.com/login');
      assert.equal(done.action.response, 'accept');
    });

    it('another client answers first: our prompt closes within a second, and the History says answered elsewhere', async () => {
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 'w1', questions: [NAME_QUESTION] });
      let closedAt = 0;
      rig = new AhpRig([(_request, options) => new Promise<Outcome>((resolve) => options.signal.addEventListener('abort', () => ((closedAt = Date.now()), resolve({ action: 'cancel' })), { once: true }))]);
      await rig.open(host.url, host.token);
      await waitUntil('the question to be asked', () => rig.prompter.asked.length === 1);
      const answeredAt = Date.now();
      host.completeAsOtherClient(chat, 'w1', 'accept', { name: { state: 'submitted', value: { kind: 'text', value: 'main' } } });
      await waitUntil('our prompt to close', () => closedAt > 0);
      assert.ok(closedAt - answeredAt < 1_000, `closed after ${closedAt - answeredAt} ms`);
      await waitUntil('the History entry', () => rig.history.entries[0]);
      assert.equal(rig.history.entries[0].outcome, 'answered elsewhere');
      assert.match(rig.history.entries[0].reason ?? '', /^answered in another client \(accepted\)$/);
      assert.equal(rig.told.withdrawn.length, 1);
      assert.ok(!host.clientActions.some((e) => e.action.type.endsWith('/inputCompleted')), 'we answered nothing');
    });

    for (const how of ['turnCancelled', 'error', 'turnComplete'] as const) {
      it(`the turn ends (${how}): our prompt closes, withdrawn`, async () => {
        const { chat } = host.addSession();
        host.requestInput(chat, { id: `t-${how}`, questions: [NAME_QUESTION] });
        rig = new AhpRig([waitForAbort]);
        await rig.open(host.url, host.token);
        await waitUntil('the question to be asked', () => rig.prompter.asked.length === 1);
        host.endTurn(chat, how);
        await waitUntil('the History entry', () => rig.history.entries[0]);
        assert.equal(rig.history.entries[0].outcome, 'withdrawn');
        assert.match(rig.history.entries[0].reason ?? '', /^the agent withdrew the question: the agent's turn (was cancelled|failed|ended)$/);
        assert.ok(!host.clientActions.some((e) => e.action.type.endsWith('/inputCompleted')));
      });
    }

    it('drafts both ways: the person\'s typing reaches the host as drafts; another client\'s draft fills an untouched field only', async () => {
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 'dr', questions: [NAME_QUESTION, { id: 'note', kind: 'text', message: 'A note' }] });
      let shown: InputRequest | undefined;
      let release: ((outcome: Outcome) => void) | undefined;
      rig = new AhpRig([(request) => new Promise<Outcome>((resolve) => ((shown = request), (release = resolve)))]);
      await rig.open(host.url, host.token);
      await waitUntil('the form', () => shown);
      // The person types in the form (the panel puts a draft in the store as they type).
      rig.store.dispatch({ type: 'answerChanged', origin: 'page', requestId: shown!.id, questionId: 'name', answer: { state: 'draft', value: { kind: 'text', value: 'fea' } } });
      rig.store.dispatch({ type: 'answerChanged', origin: 'page', requestId: shown!.id, questionId: 'name', answer: { state: 'draft', value: { kind: 'text', value: 'feature' } } });
      const draft = await host.waitForClientAction((e) => e.action.type.endsWith('/inputAnswerChanged'));
      assert.deepEqual(draft.action.answer, { state: 'draft', value: { kind: 'text', value: 'feature' } }, 'debounced: only the last keystroke is sent');
      assert.equal(host.clientActions.filter((e) => e.action.type.endsWith('/inputAnswerChanged')).length, 1);
      // Another client drafts both questions: the touched one keeps what the person typed.
      host.answerAsOtherClient(chat, 'dr', 'name', { state: 'draft', value: { kind: 'text', value: 'theirs' } });
      host.answerAsOtherClient(chat, 'dr', 'note', { state: 'draft', value: { kind: 'text', value: 'from the workbench' } });
      const request = () => rig.store.state.requests.find((r) => r.request.id === shown!.id);
      await waitUntil('the other client\'s note', () => request()?.answers.note);
      assert.deepEqual(request()?.answers.note, { state: 'draft', value: { kind: 'text', value: 'from the workbench' } });
      assert.deepEqual(request()?.answers.name, { state: 'draft', value: { kind: 'text', value: 'feature' } });
      // The other client's drafts are not echoed back as ours.
      assert.equal(host.clientActions.filter((e) => e.action.type.endsWith('/inputAnswerChanged')).length, 1);
      release!({ action: 'accept', answers: submitted(shown!, { name: 'feature', note: 'from the workbench' }) });
      const done = await completion(host, 'dr');
      assert.deepEqual(done.action.answers, { name: { state: 'submitted', value: { kind: 'text', value: 'feature' } }, note: { state: 'submitted', value: { kind: 'text', value: 'from the workbench' } } });
      assert.deepEqual(host.rejections, []);
    });

    it('a draft already on the request when we connect starts our form', async () => {
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 'pre', questions: [NAME_QUESTION, { id: 'note', kind: 'text', message: 'A note' }] });
      host.answerAsOtherClient(chat, 'pre', 'note', { state: 'draft', value: { kind: 'text', value: 'half done' } });
      let drafts: unknown;
      rig = new AhpRig([(request) => ((drafts = rig.store.state.requests.find((r) => r.request.id === request.id)?.answers), { action: 'cancel' })]);
      await rig.open(host.url, host.token);
      await completion(host, 'pre');
      assert.deepEqual(drafts, { note: { state: 'draft', value: { kind: 'text', value: 'half done' } } });
    });
  });
}

describe('AHP inbox, a field that asks for a secret', function () {
  this.timeout(30_000);
  let host: FixtureHost;
  let rig: AhpRig | undefined;
  let workbench: AhpTestClient | undefined;

  beforeEach(async () => {
    host = await FixtureHost.start();
  });
  afterEach(async () => {
    rig?.close();
    await workbench?.close();
    await host.stop();
  });

  it('sends no draft of it to the host (another client sees none, before or after Decline), and takes no other client\'s draft into it', async () => {
    const { chat } = host.addSession();
    const TYPED = 'ghp_4f3c2b1a0987654321';
    host.requestInput(chat, {
      id: 's1',
      message: 'Connect the repository',
      questions: [
        { id: 'token', kind: 'text', title: 'Access token', message: 'A token with repo scope' },
        { id: 'note', kind: 'text', message: 'A note' },
        { id: 'label', kind: 'text', message: 'A label' },
      ],
    });
    // The other client: VS Code's chat, say, which sees every draft on the host.
    workbench = await AhpTestClient.connect(host.printedUrl, { name: 'workbench' });
    await workbench.subscribe(chat);
    let shown: InputRequest | undefined;
    let release: ((outcome: Outcome) => void) | undefined;
    rig = new AhpRig([(request) => new Promise<Outcome>((resolve) => ((shown = request), (release = resolve))), accept({ name: 'after' })]);
    await rig.open(host.url, host.token);
    await waitUntil('the form', () => shown);
    const ours = (e: { origin?: { clientId: string } }): boolean => e.origin !== undefined && e.origin.clientId !== workbench!.clientId;
    const answers = () => rig!.store.state.requests.find((r) => r.request.id === shown!.id)?.answers;

    // Theirs to ours: a draft for the secret is not taken (the masked field would hide it), the label's is.
    workbench.answerDraft(chat, 's1', 'token', { state: 'draft', value: { kind: 'text', value: 'planted-by-another-client' } });
    workbench.answerDraft(chat, 's1', 'label', { state: 'draft', value: { kind: 'text', value: 'from the workbench' } });
    await waitUntil("the other client's label in our form", () => answers()?.label);
    assert.equal(answers()?.token, undefined, "another client's draft is not put into the secret field");
    assert.ok(rig.warnings.length === 0, rig.warnings.join('\n'));

    // Ours to theirs: the person types the token, then a note; the note's draft arrives, the token's never.
    rig.store.dispatch({ type: 'answerChanged', origin: 'page', requestId: shown!.id, questionId: 'token', answer: { state: 'draft', value: { kind: 'text', value: TYPED } } });
    rig.store.dispatch({ type: 'answerChanged', origin: 'page', requestId: shown!.id, questionId: 'note', answer: { state: 'draft', value: { kind: 'text', value: 'hello' } } });
    await workbench.waitForAction(chat, 'chat/inputAnswerChanged', (action, e) => ours(e) && action.questionId === 'note');
    release!({ action: 'decline' });
    await workbench.waitForAction(chat, 'chat/inputCompleted', (action, e) => ours(e) && action.requestId === 's1' && action.response === 'decline');

    // After Decline nothing of it follows: the next question's answer is the last thing we send, and it comes alone.
    host.requestInput(chat, { id: 's2', questions: [NAME_QUESTION] });
    await workbench.waitForAction(chat, 'chat/inputCompleted', (action, e) => ours(e) && action.requestId === 's2');
    const sentByUs = workbench.actions.filter(ours).map((e) => [e.action.type, e.action.questionId ?? e.action.requestId]);
    assert.deepEqual(sentByUs, [['chat/inputAnswerChanged', 'note'], ['chat/inputCompleted', 's1'], ['chat/inputCompleted', 's2']]);
    assert.ok(!JSON.stringify(workbench.trace).includes(TYPED), 'the token typed is nowhere in what the other client received');
    assert.deepEqual(host.rejections, []);
  });
});

describe("AHP inbox, the host's agents", function () {
  this.timeout(30_000);

  it('are known from the root snapshot, then follow root/agentsChanged (the Agents view lists them)', async () => {
    const host = await FixtureHost.start();
    const rig = new AhpRig();
    try {
      const told: Array<readonly string[]> = [];
      const inbox = await rig.open(host.url, host.token, { events: { ...rig.events, agents: (agents) => told.push(agents.map((a) => a.displayName ?? a.provider)) } });
      assert.deepEqual(inbox.agentList, [{ provider: 'claude', displayName: 'Claude' }]);
      host.changeAgents([{ provider: 'claude', displayName: 'Claude' }, { provider: 'copilotcli', displayName: 'Copilot' }]);
      await waitUntil('the new agent', () => inbox.agentList.length === 2);
      assert.deepEqual(told, [['Claude'], ['Claude', 'Copilot']]);
    } finally {
      rig.close();
      await host.stop();
    }
  });
});

describe('AHP inbox, tool confirmations', function () {
  this.timeout(30_000);
  let host: FixtureHost;
  let rig: AhpRig;

  beforeEach(async () => {
    host = await FixtureHost.start();
  });
  afterEach(async () => {
    rig?.close();
    await host.stop();
  });

  function confirmed(host: FixtureHost, toolCallId: string) {
    return host.waitForClientAction((e) => e.action.type === 'chat/toolCallConfirmed' && e.action.toolCallId === toolCallId);
  }

  it('a shell command is asked whole in the permission dialog, Allow not the default; approve reaches the host', async () => {
    const { chat } = host.addSession('clean up');
    const { turnId } = host.requestToolConfirmation(chat, { toolCallId: 'tc1', toolName: 'Bash', toolInput: 'rm -rf build && echo done', _meta: { toolKind: 'terminal' } });
    let question: InputRequest | undefined;
    rig = new AhpRig([(request) => ((question = request), { action: 'accept', answers: submitted(request, { decision: 'approve' }) })]);
    await rig.open(host.url, host.token, { hostName: 'ci-box' });
    const done = await confirmed(host, 'tc1');
    assert.deepEqual({ ...done.action }, { type: 'chat/toolCallConfirmed', turnId, toolCallId: 'tc1', approved: true, confirmed: 'user-action' });
    assert.ok(question);
    assert.match(question.message, /rm -rf build && echo done/);
    assert.equal(question.source.approval, true);
    assert.equal(question.source.destructive, true, 'a command asks in the modal');
    const decision = question.questions[0];
    assert.equal(decision.kind === 'single-select' && decision.defaultValue, 'deny', 'the reject option is the default');
    assert.match(sourceLabel(question.source), /^Claude \(ci-box\) · .+, for session 'clean up'$/);
    assert.deepEqual(host.rejections, []);
  });

  it('deny, a dismissal, and the host\'s own options (the chosen one named)', async () => {
    const { chat } = host.addSession();
    host.requestToolConfirmation(chat, { toolCallId: 'tc2', toolName: 'Bash', toolInput: 'make' });
    rig = new AhpRig([decline, cancel, (request) => ({ action: 'accept', answers: submitted(request, { decision: 'allow-session' }) })]);
    await rig.open(host.url, host.token);
    const denied = await confirmed(host, 'tc2');
    assert.equal(denied.action.approved, false);
    assert.equal(denied.action.reason, 'denied');
    host.requestToolConfirmation(chat, { toolCallId: 'tc3', toolName: 'Write', toolInput: JSON.stringify({ file_path: '/tmp/x', content: 'x' }) });
    assert.equal((await confirmed(host, 'tc3')).action.approved, false, 'a dismissed permission is denied');
    host.requestToolConfirmation(chat, {
      toolCallId: 'tc4',
      toolName: 'Bash',
      toolInput: 'npm test',
      options: [{ id: 'allow-session', label: 'Allow in this Session', kind: 'approve', group: 1 }, { id: 'allow-once', label: 'Allow', kind: 'approve' }, { id: 'skip', label: 'Skip', kind: 'deny', group: 2 }],
    });
    const chosen = await confirmed(host, 'tc4');
    assert.equal(chosen.action.approved, true);
    assert.equal(chosen.action.selectedOptionId, 'allow-session');
    const options = rig.prompter.asked[2].request.questions[0];
    assert.deepEqual(options.kind === 'single-select' && options.options.map((o) => o.label), ['Allow in this Session', 'Allow', 'Skip']);
    assert.deepEqual(host.rejections, []);
  });

  it("a command's folder and environment are said first and every field of its input is shown; deny reaches the host", async () => {
    const { chat } = host.addSession('build');
    const input = { command: 'make install', cwd: '/home/me/.ssh', env: { LD_PRELOAD: '/tmp/evil.so' }, explanation: 'Install the build' };
    host.requestToolConfirmation(chat, { toolCallId: 'tc6', toolName: 'run_in_terminal', toolInput: JSON.stringify(input) });
    rig = new AhpRig([decline]);
    await rig.open(host.url, host.token);
    assert.equal((await confirmed(host, 'tc6')).action.approved, false);
    const [{ request }] = rig.prompter.asked;
    assert.match(request.message, /\n\nNote: it runs in \/home\/me\/\.ssh, with LD_PRELOAD=\/tmp\/evil\.so\.\n\n/, `what reaches further, at the top: ${request.message}`);
    assert.match(request.message, /Command:\nmake install\n\nAlso in its input:\ncwd: "\/home\/me\/\.ssh"\nenv: \{"LD_PRELOAD":"\/tmp\/evil\.so"\}\n\n/);
    assert.match(request.message, /\n\nInstall the build$/, "the agent's own words about the call, as words");
    assert.equal(request.source.destructive, true);
    assert.deepEqual(host.rejections, []);
  });

  it("the History says what was chosen: VS Code 1.139.1's Skip refused (not accepted), Allow Once allowed once, Allow in this Session allowed always, Escape refused", async () => {
    const { chat } = host.addSession('clean up');
    // The options and words VS Code 1.139.1's agent host sends with Claude's Bash (test/fixtures/ahp/observed-1.139.1/bash-denied.a.jsonl).
    const options = [{ id: 'allow-session', label: 'Allow in this Session', kind: 'approve', group: 1 }, { id: 'allow-once', label: 'Allow Once', kind: 'approve' }, { id: 'skip', label: 'Skip', kind: 'deny', group: 2 }];
    const bash = (toolCallId: string) => host.requestToolConfirmation(chat, { toolCallId, toolName: 'Bash', displayName: 'Run shell command', toolInput: 'rm -rf build', confirmationTitle: 'Run in terminal?', _meta: { toolKind: 'terminal' }, options });
    rig = new AhpRig([accept({ decision: 'skip' }), accept({ decision: 'allow-once' }), accept({ decision: 'allow-session' }), cancel]);
    await rig.open(host.url, host.token, { hostName: 'my-laptop' });
    const approved: unknown[] = [];
    for (const id of ['tc7', 'tc8', 'tc9', 'tc10']) {
      bash(id);
      const done = await confirmed(host, id);
      approved.push([done.action.approved, done.action.selectedOptionId]);
      await waitUntil(`the History entry of ${id}`, () => rig.history.entries.length === approved.length);
    }
    assert.deepEqual(approved, [[false, 'skip'], [true, 'allow-once'], [true, 'allow-session'], [false, 'skip']]);
    assert.deepEqual(rig.history.entries.map((e) => e.outcome).reverse(), ['refused', 'allowed once', 'allowed always', 'refused']);
    assert.match(sourceLabel(rig.history.entries[3].source), /^Claude \(my-laptop\) · Run shell command, for session 'clean up'$/);
    assert.equal(rig.history.entries[0].reason, 'dismissed');
    assert.deepEqual(host.rejections, []);
  });

  it('confirmed by another client first: our dialog closes and says so', async () => {
    const { chat } = host.addSession();
    const { turnId } = host.requestToolConfirmation(chat, { toolCallId: 'tc5', toolName: 'Bash', toolInput: 'ls' });
    rig = new AhpRig([waitForAbort]);
    await rig.open(host.url, host.token);
    await waitUntil('the dialog', () => rig.prompter.asked.length === 1);
    host.actAsOtherClient(chat, { type: 'chat/toolCallConfirmed', turnId, toolCallId: 'tc5', approved: true, confirmed: 'user-action' });
    await waitUntil('the History entry', () => rig.history.entries[0]);
    assert.equal(rig.history.entries[0].outcome, 'answered elsewhere');
    assert.match(rig.history.entries[0].reason ?? '', /\(allowed\)$/);
    assert.ok(!host.clientActions.some((e) => e.origin?.clientId !== OTHER_CLIENT && e.action.type === 'chat/toolCallConfirmed'));
  });
});
