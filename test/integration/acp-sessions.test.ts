/**
 * Sessions that come back, through src/acp: an agent's past sessions listed for a folder
 * (`session/list`, followed page by page), one loaded in a new agent process (`session/load`:
 * the conversation replayed into the session before the answer) or resumed (`session/resume`:
 * no replay), then continued; and an agent that declares none of it says so. With the fixture
 * agent (`--store`) and with the real claude-agent-acp against the fake model, whose sessions
 * live under its HOME's `.claude/projects`.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentSession } from '../../src/acp/agent-session';
import type { SessionEvent } from '../../src/acp/session-events';
import { type FakeAnthropic, type ModelTurn, startFakeAnthropic } from '../fixtures/acp/fake-anthropic';
import { type AcpHost, claudeAgent, createAcpHost, fixtureAgent, turn, workFolder } from '../support/acp-harness';
import { ScriptedPrompter } from '../support/scripted-prompter';

async function reply(session: AgentSession, prompt: string): Promise<string> {
  return (await turn(session, prompt)).reply;
}

/** Reopens a session, keeping every event from the first one (the replay comes before the answer). */
async function reopened(acp: AcpHost, definition: Parameters<AcpHost['start']>[0], sessionId: string, cwd: string, title?: string) {
  const client = await acp.start(definition);
  const events: SessionEvent[] = [];
  const { session, replayed } = await client.reopenSession({ sessionId, cwd, ...(title !== undefined && { title }), onSession: (s) => s.events.add((e) => events.push(e)) });
  return { client, session, replayed, events };
}

describe('ACP: sessions that come back', function () {
  this.timeout(60_000);
  let acp: AcpHost;
  let folder: string;

  beforeEach(() => {
    acp = createAcpHost(new ScriptedPrompter());
    folder = workFolder();
  });
  afterEach(() => acp.closeAll());

  describe('the fixture agent with stored sessions', () => {
    let storeDir: string;
    beforeEach(() => {
      storeDir = join(workFolder('acp-store-'), 'sessions');
    });

    it("lists this folder's sessions with title and time, across pages, newest first; not another folder's", async () => {
      const agent = fixtureAgent('fixture', ['--store', storeDir]);
      const client = await acp.start(agent);
      assert.deepEqual(client.sessionSupport, { list: true, load: true, resume: true });
      const other = workFolder();
      const ids: string[] = [];
      for (const prompt of ['hello', 'mode', 'recall']) {
        const session = await client.newSession({ cwd: folder });
        await reply(session, prompt);
        ids.push(session.id);
      }
      await reply(await client.newSession({ cwd: other }), 'hello');
      // Three here at two to a page: the second page is read by its cursor.
      const listed = await client.listSessions(folder);
      assert.deepEqual(listed.map((s) => s.id), [...ids].reverse());
      assert.equal(listed.find((s) => s.id === ids[0])?.title, 'fix the tests', 'the title the agent gave');
      assert.ok(listed.every((s) => s.cwd === folder && typeof s.updatedAt === 'number' && Math.abs(Date.now() - s.updatedAt) < 60_000), JSON.stringify(listed));
    });

    it('loads a session in a new process: the conversation replayed before the answer, then it goes on with what came before', async () => {
      const agent = fixtureAgent('fixture', ['--store', storeDir]);
      const first = await acp.start(agent);
      const session = await first.newSession({ cwd: folder });
      await reply(session, 'hello');
      await reply(session, 'locations notes.txt');
      await session.setConfigOption('model', 'large');
      await acp.closeAll();

      const again = await reopened(acp, agent, session.id, folder, 'from the list');
      assert.equal(again.replayed, true);
      const kinds = again.events.map((e) => (e.type === 'message' ? `${e.role}` : e.type));
      assert.equal(kinds[0], 'user', `the person's words first: ${kinds.join(' ')}`);
      assert.ok(again.events.some((e) => e.type === 'message' && e.role === 'user' && e.text === 'hello'));
      assert.ok(again.events.some((e) => e.type === 'message' && e.role === 'agent' && e.text.startsWith('Hello')));
      assert.ok(again.events.some((e) => e.type === 'tool-call' && e.toolCall.title === 'Read the files' && e.toolCall.status === 'completed'));
      assert.equal(again.session.label, 'fix the tests', 'the title replayed replaces the one it was opened with');
      assert.equal(again.session.modes?.current.id, 'ask', 'the modes come with the answer');
      assert.ok(again.session.configOptions.some((o) => o.id === 'model'));
      assert.match(await reply(again.session, 'recall'), /^recall: \["hello","locations notes\.txt"\]$/);
      // Reopening what is open gives the same session, asking nothing.
      assert.equal((await again.client.reopenSession({ sessionId: session.id, cwd: folder })).session, again.session);
    });

    it('resumes where the agent declares resume but not load: no replay, and it goes on', async () => {
      const agent = fixtureAgent('fixture', ['--store', storeDir, '--no-load']);
      const first = await acp.start(agent);
      assert.deepEqual(first.sessionSupport, { list: true, load: false, resume: true });
      const session = await first.newSession({ cwd: folder });
      await reply(session, 'hello');
      await acp.closeAll();
      const again = await reopened(acp, agent, session.id, folder, 'fix the tests');
      assert.equal(again.replayed, false);
      assert.deepEqual(again.events, [], 'nothing replayed');
      assert.equal(again.session.label, 'fix the tests');
      assert.match(await reply(again.session, 'recall'), /^recall: \["hello"\]$/);
    });

    it('a session the agent no longer has: the agent says so, and nothing is left behind', async () => {
      const client = await acp.start(fixtureAgent('fixture', ['--store', storeDir]));
      await assert.rejects(client.reopenSession({ sessionId: 'stored-gone', cwd: folder }), /stored-gone/);
      assert.equal(client.session('stored-gone'), undefined);
    });
  });

  it('an agent that declares none of it says so, for listing and for reopening', async () => {
    const client = await acp.start(fixtureAgent());
    assert.deepEqual(client.sessionSupport, { list: false, load: false, resume: false });
    await assert.rejects(client.listSessions(folder), /fixture does not list its past sessions: it declares no session\/list/);
    await assert.rejects(client.reopenSession({ sessionId: 'session-1', cwd: folder }), /fixture does not offer its past sessions: it declares none of session\/list, session\/load and session\/resume, so it cannot reopen one/);
  });

  describe('claude-agent-acp with the fake model', function () {
    // Claude Code's start-up (a native binary) takes a few seconds on two cores.
    this.timeout(180_000);
    let model: FakeAnthropic;
    before(async () => {
      model = await startFakeAnthropic((turn: ModelTurn) => ({ text: turn.userText === 'what did I say?' ? `You said: ${turn.spoken.slice(0, -1).join(' | ')}` : 'Hello from the fake model.' }));
    });
    after(() => model.close());

    it('lists its session for the folder, loads it in a new process with the conversation, and goes on with it', async () => {
      const home = workFolder('acp-claude-home-');
      mkdirSync(join(home, '.claude'));
      const agent = claudeAgent(model.url, 'claude', home);
      const first = await acp.start(agent);
      assert.deepEqual(first.sessionSupport, { list: true, load: true, resume: true });
      const session = await first.newSession({ cwd: folder });
      assert.match(await reply(session, 'hello'), /^Hello from the fake model\./);
      await acp.closeAll();

      const lister = await acp.start(agent);
      const listed = await lister.listSessions(folder);
      const row = listed.find((s) => s.id === session.id);
      assert.ok(row, `the session is listed: ${JSON.stringify(listed)}`);
      assert.equal(row.cwd, folder);
      assert.ok(row.title, 'with a title');
      assert.ok(row.updatedAt !== undefined && Math.abs(Date.now() - row.updatedAt) < 10 * 60_000, 'and a time');
      assert.deepEqual(await lister.listSessions(workFolder()), [], "another folder's list has none of it");
      await acp.closeAll();

      const again = await reopened(acp, agent, session.id, folder, row.title);
      assert.equal(again.replayed, true);
      assert.ok(again.events.some((e) => e.type === 'message' && e.role === 'user' && e.text.includes('hello')), `the prompt replayed: ${JSON.stringify(again.events.map((e) => e.type))}`);
      assert.ok(again.events.some((e) => e.type === 'message' && e.role === 'agent' && e.text.includes('Hello from the fake model.')), 'the reply replayed');
      assert.ok(again.session.modes?.available.some((m) => m.id === 'default'), "Claude's modes come with the answer");
      assert.match(await reply(again.session, 'what did I say?'), /^You said: hello/, 'the model got the earlier conversation');
    });
  });
});
