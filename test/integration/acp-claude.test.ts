/**
 * src/acp with a real agent: `@agentclientprotocol/claude-agent-acp` 0.101.0 (Claude Code
 * 2.1, pinned in devDependencies) driven by a fake Anthropic Messages API on 127.0.0.1
 * (test/fixtures/acp/fake-anthropic.ts). The adapter runs with IS_SANDBOX=1 (the tests run
 * as root, where Claude Code otherwise refuses to start), any API key, and a fresh HOME.
 *
 * What the adapter sends, as recorded: AskUserQuestion is `elicitation/create` in form
 * mode (`question_N` with a titled `oneOf`, `question_N_custom` "Other", nothing
 * required); Bash asks `session/request_permission` only in the Manual mode (`default`),
 * options "Yes" (allow_once) and "No" (reject_once); a new session starts in Auto.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSession } from '../../src/acp/agent-session';
import type { SessionEvent } from '../../src/acp/session-events';
import { sourceLabel } from '../../src/elicitation/request';
import { type FakeAnthropic, startFakeAnthropic } from '../fixtures/acp/fake-anthropic';
import { type AcpHost, claudeAgent, colourAndBuildModel, createAcpHost, turn, workFolder } from '../support/acp-harness';
import { accept, decline, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';
import { waitUntil } from '../support/wait';

describe('ACP: src/acp with claude-agent-acp and a fake model', function () {
  // Claude Code's start-up (a native binary) takes a few seconds on two cores.
  this.timeout(120_000);
  let model: FakeAnthropic;
  let prompter: ScriptedPrompter;
  let acp: AcpHost;
  let folder: string;

  before(async () => {
    model = await startFakeAnthropic(colourAndBuildModel);
  });
  after(() => model.close());
  beforeEach(() => {
    prompter = new ScriptedPrompter();
    acp = createAcpHost(prompter);
    folder = workFolder();
  });
  afterEach(() => acp.closeAll());

  async function session(mode?: string): Promise<AgentSession> {
    const client = await acp.start(claudeAgent(model.url));
    return client.newSession({ cwd: folder, ...(mode !== undefined && { mode }) });
  }

  it('streams the reply, starts in Auto, and offers Manual', async () => {
    const s = await session();
    assert.equal(s.modes?.current.id, 'auto');
    assert.deepEqual(s.modes?.available.map((m) => m.id), ['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions']);
    assert.equal(s.modes?.available.find((m) => m.id === 'default')?.name, 'Manual');
    const { reply, stop } = await turn(s, 'hello');
    assert.equal(stop, 'end_turn');
    // Claude Code adds a notice of its own about Auto mode behind a gateway after the model's text.
    assert.match(reply, /^Hello from the fake model\./);
    await s.setMode('default');
    assert.equal(s.modes?.current.name, 'Manual');
  });

  it('asks AskUserQuestion in our form, and the choice and the "Other" text reach the model', async () => {
    const s = await session();
    prompter.push((request, options) => {
      assert.equal(options.presentation, 'form');
      assert.equal(request.message, 'Which colour?');
      assert.match(sourceLabel(request.source), /^claude · Which colour\?, for session '/);
      assert.deepEqual(request.questions.map((q) => [q.id, q.kind, q.title, q.required]), [
        ['question_0', 'single-select', 'Colour', false],
        ['question_0_custom', 'text', 'Other', false],
      ]);
      const choice = request.questions[0];
      assert.deepEqual(choice.kind === 'single-select' && choice.options.map((o) => [o.value, o.description]), [['Red', 'warm'], ['Blue', 'cool']]);
      return accept({ question_0: 'Blue', question_0_custom: 'actually teal' })(request, options);
    });
    const { reply, events } = await turn(s, 'ask me');
    assert.deepEqual(acp.log.lines.filter((l) => l.startsWith('warn')), []);
    // What the panel shows in the place of the tool call: the question and the answer as the person reads them.
    const asked = events.find((e) => e.type === 'question');
    assert.ok(asked?.type === 'question' && asked.toolCallId !== undefined, 'the question names its tool call');
    assert.ok(events.some((e) => e.type === 'tool-call' && e.toolCall.id === asked.toolCallId));
    assert.deepEqual(asked.answers, [{ question: 'Colour', answer: 'Blue' }, { question: 'Other', answer: 'actually teal' }]);
    const sent = model.requests.flatMap((r) => r.turn?.toolResults ?? []);
    assert.equal(sent.length, 1, `one tool result reached the model: ${JSON.stringify(sent)}`);
    assert.match(sent[0].content, /"Which colour\?"="Blue"/);
    assert.match(sent[0].content, /actually teal/);
    assert.match(reply, /Tool said: The user answered: "Which colour\?"="Blue" notes: actually teal/);
  });

  it('in Manual mode asks Bash as a modal confirm with "No" the default, and a decline keeps the folder', async () => {
    mkdirSync(join(folder, 'build'));
    const s = await session('default');
    assert.equal(s.modes?.current.id, 'default');
    prompter.push((request, options) => {
      assert.equal(request.source.destructive, true);
      assert.equal(request.source.personStarted, true);
      assert.equal(options.presentation, 'pick');
      assert.equal(sourceLabel(request.source), `claude · rm -rf build, for session '${s.label}'`);
      const decision = request.questions[0];
      assert.ok(decision.kind === 'single-select');
      assert.deepEqual(decision.options.map((o) => [o.value, o.label]), [['allow-once', 'Yes'], ['reject', 'No']]);
      assert.equal(decision.defaultValue, 'reject');
      assert.match(request.message, /Kind: execute \(run a command\)/);
      assert.match(request.message, /Command:\nrm -rf build/);
      assert.match(request.message, new RegExp(`Files it touches:\\n${join(folder, 'build').replace(/[/.]/g, '\\$&')}`));
      return decline(request, options);
    });
    const { events } = await turn(s, 'clean the build');
    assert.ok(events.some((e) => e.type === 'permission' && e.answer === 'No' && e.optionKind === 'reject_once'));
    assert.ok(existsSync(join(folder, 'build')), 'the declined command did not run');
    const results = model.requests.flatMap((r) => r.turn?.toolResults ?? []);
    assert.equal(results.at(-1)?.isError, true, 'the model heard the refusal');
  });

  it("in Manual mode asks an Edit with its diff: the file inside the session's folder, the edit as sent, the lines counted", async () => {
    const notes = join(folder, 'notes.txt');
    writeFileSync(notes, 'first line\nsecond line\n');
    const s = await session('default');
    prompter.push(decline);
    const { events } = await turn(s, `edit ${notes}`);
    assert.ok(events.some((e) => e.type === 'permission' && e.optionKind === 'reject_once'), `the edit was asked and refused: ${JSON.stringify(events.filter((e) => e.type !== 'message'))}`);
    assert.equal(readFileSync(notes, 'utf8'), 'first line\nsecond line\n', 'the refused edit was not made');
    // Asserted here, not in the step: a step that throws is a failed prompt, which declines too.
    const [{ request, options }] = prompter.asked;
    assert.equal(request.source.destructive, true, 'an edit is asked in a modal');
    assert.equal(options.presentation, 'pick');
    assert.match(request.message, /Kind: edit \(edit files\)/);
    assert.match(request.message, /It changes 3 lines \(2 added, 1 removed\) in 1 file\./);
    assert.deepEqual(request.mode === 'form' && request.changes, [{ path: notes, edits: [{ oldText: 'second line', newText: 'second line, edited\nand a third' }], folders: [folder] }]);
  });

  it('a cancelled turn closes the open permission, answered cancelled', async () => {
    mkdirSync(join(folder, 'build'));
    const s = await session('default');
    prompter.push(waitForAbort);
    const events: SessionEvent[] = [];
    s.events.add((e) => events.push(e));
    const running = s.prompt('clean the build');
    await waitUntil('the permission on screen', () => acp.store.state.requests.some((r) => r.status === 'open'), 60_000);
    s.cancel();
    assert.equal(await running, 'cancelled');
    assert.ok(prompter.asked[0].options.signal.aborted, 'the prompt was told to close');
    assert.ok(events.some((e) => e.type === 'permission' && e.answer === 'cancelled'));
    assert.ok(existsSync(join(folder, 'build')), 'nothing ran');
  });
});
