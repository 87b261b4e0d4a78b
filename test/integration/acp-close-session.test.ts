/**
 * Close Session in src/acp against the fixture agent (test/fixtures/acp/fixture-agent.ts):
 * the session's open questions close as after Stop, the agent is told (`session/close` where
 * it declares it, `session/cancel` for a running turn where it does not), and the client keeps
 * nothing of the session (what the agent still sends for it is dropped). The agent's own
 * replies say what reached it.
 */
import { strict as assert } from 'node:assert';
import type { AgentClient } from '../../src/acp/agent-client';
import type { AgentSession } from '../../src/acp/agent-session';
import { type AcpHost, createAcpHost, fixtureAgent, turn, workFolder } from '../support/acp-harness';
import { ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';
import { waitUntil } from '../support/wait';

describe('ACP: Close Session with the fixture agent', function () {
  this.timeout(60_000);
  let prompter: ScriptedPrompter;
  let acp: AcpHost;
  let folder: string;

  beforeEach(() => {
    prompter = new ScriptedPrompter();
    acp = createAcpHost(prompter);
    folder = workFolder();
  });
  afterEach(() => acp.closeAll());

  async function started(args: string[]): Promise<{ client: AgentClient; session: AgentSession }> {
    const client = await acp.start(fixtureAgent('fixture', args));
    return { client, session: await client.newSession({ cwd: folder }) };
  }

  it('an agent that declares session/close is told; the running turn ends, its questions close quietly, and the session is gone', async () => {
    const { client, session } = await started(['--close']);
    prompter.push(waitForAbort, waitForAbort);
    const running = turn(session, 'wait');
    await waitUntil('the permission and the question on screen', () => acp.store.state.requests.filter((r) => r.status === 'open').length === 2);
    await client.closeSession(session.id);
    assert.equal(client.session(session.id), undefined, 'the client keeps nothing of it');
    assert.ok(session.endSignal.aborted, 'whatever waited on the session ends');
    assert.ok(prompter.asked.every((a) => a.options.signal.aborted), 'both prompts were told to close');
    const { reply, stop } = await running;
    assert.equal(stop, 'cancelled');
    assert.equal(reply, '', 'what the agent says for the session after its close does not reach it');
    assert.equal(acp.store.state.requests.filter((r) => r.status === 'open').length, 0);
    // Another session asks the agent what it was told.
    const other = await client.newSession({ cwd: folder });
    assert.equal((await turn(other, 'closed')).reply, `closed: [{"sessionId":"${session.id}","turnRan":true}]`);
    await client.closeSession(other.id);
    await client.closeSession(other.id);
    const third = await client.newSession({ cwd: folder });
    assert.equal((await turn(third, 'closed')).reply, `closed: [{"sessionId":"${session.id}","turnRan":true},{"sessionId":"${other.id}","turnRan":false}]`, 'told once, an idle session too');
  });

  it('an agent without session/close gets session/cancel for the running turn, and what it still streams for the session is dropped', async () => {
    const { client, session } = await started([]);
    let after = 0;
    const counted = session.events.add(() => after++);
    const streaming = new Promise<void>((resolve) => {
      const off = session.events.add((e) => {
        if (e.type === 'message') {
          off();
          resolve();
        }
      });
    });
    const running = turn(session, 'stream 2000000 40');
    await streaming;
    await client.closeSession(session.id);
    const seen = after;
    const { stop } = await running;
    counted();
    assert.equal(stop, 'cancelled', 'the agent stopped the turn on session/cancel');
    assert.ok(after - seen <= 1, `nothing the agent sent after the close reached the session (${after - seen} events)`);
    const other = await client.newSession({ cwd: folder });
    assert.equal((await turn(other, 'closed')).reply, 'closed: []', 'no session/close was sent to an agent that does not declare it');
  });
});
