/**
 * An agent's past sessions as src/acp reads them: what it declares, each `session/list` row
 * checked (another folder's, a bad id, a long title, an unreadable time), and a list that
 * runs on stopped (a cursor that comes back, too many pages, no answer).
 */
import { strict as assert } from 'node:assert';
import type { ClientContext } from '@agentclientprotocol/sdk';
import { canReopen, listPastSessions, PAST_SESSION_PAGES, PAST_SESSIONS_KEPT, readPastSession, sessionSupport } from '../../src/acp/past-sessions';

/** An agent whose `session/list` answers come from `page`; every request is counted. */
function agent(page: (params: { cwd?: string; cursor?: string }) => unknown): { context: ClientContext; asked: number } {
  const state = { asked: 0, context: undefined as unknown as ClientContext };
  state.context = {
    request: (method: string, params: { cwd?: string; cursor?: string }) => {
      assert.equal(method, 'session/list');
      state.asked++;
      return Promise.resolve(page(params));
    },
  } as unknown as ClientContext;
  return state;
}

describe("an agent's past sessions", () => {
  it('reads what the agent declares', () => {
    assert.deepEqual(sessionSupport({}), { list: false, load: false, resume: false });
    assert.deepEqual(sessionSupport({ loadSession: true, sessionCapabilities: { list: {}, resume: null } }), { list: true, load: true, resume: false });
    assert.equal(canReopen(sessionSupport({ sessionCapabilities: { list: {} } })), false, 'a list alone brings nothing back');
    assert.equal(canReopen(sessionSupport({ sessionCapabilities: { resume: {} } })), true);
  });

  it('checks each row: its folder, its id, a title on one line and cut, a time it can read', () => {
    assert.equal(readPastSession({ sessionId: 'a', cwd: '/other' }, '/work'), undefined, "another folder's");
    assert.equal(readPastSession({ sessionId: '', cwd: '/work' }, '/work'), undefined);
    assert.equal(readPastSession({ sessionId: 'x'.repeat(600), cwd: '/work' }, '/work'), undefined);
    assert.equal(readPastSession('a', '/work'), undefined);
    assert.deepEqual(readPastSession({ sessionId: 'a', cwd: '/work', title: 'fix\n  the\ttests', updatedAt: '2026-07-01T10:00:00Z' }, '/work'), {
      id: 'a',
      cwd: '/work',
      title: 'fix the tests',
      updatedAt: Date.parse('2026-07-01T10:00:00Z'),
    });
    assert.deepEqual(readPastSession({ sessionId: 'a', cwd: '/work', title: null, updatedAt: 'yesterday' }, '/work'), { id: 'a', cwd: '/work' });
    assert.equal(readPastSession({ sessionId: 'a', cwd: '/work', title: 'long '.repeat(100) }, '/work')?.title?.length, 200);
  });

  it('follows the cursor, newest first, each session once', async () => {
    const pages: Record<string, unknown> = {
      '': { sessions: [{ sessionId: 'old', cwd: '/w', updatedAt: '2026-01-01T00:00:00Z' }, { sessionId: 'x', cwd: '/elsewhere' }], nextCursor: 'p2' },
      p2: { sessions: [{ sessionId: 'new', cwd: '/w', updatedAt: '2026-02-01T00:00:00Z' }, { sessionId: 'old', cwd: '/w' }], nextCursor: null },
    };
    const a = agent((p) => pages[p.cursor ?? '']);
    assert.deepEqual((await listPastSessions(a.context, 'fixture', '/w')).map((s) => s.id), ['new', 'old']);
    assert.equal(a.asked, 2);
  });

  it('stops a list that runs on: a cursor that comes back, too many pages, too many rows', async () => {
    const loop = agent((p) => ({ sessions: [{ sessionId: `s-${p.cursor ?? 0}`, cwd: '/w' }], nextCursor: p.cursor === 'b' ? 'a' : p.cursor === 'a' ? 'b' : 'a' }));
    assert.equal((await listPastSessions(loop.context, 'fixture', '/w')).length, 3);
    assert.equal(loop.asked, 3, 'the first page, a, b; then a again is not followed');
    let n = 0;
    const endless = agent(() => ({ sessions: [{ sessionId: `s-${n}`, cwd: '/w' }], nextCursor: `c-${++n}` }));
    assert.equal((await listPastSessions(endless.context, 'fixture', '/w')).length, PAST_SESSION_PAGES);
    assert.equal(endless.asked, PAST_SESSION_PAGES);
    const flood = agent(() => ({ sessions: Array.from({ length: 5000 }, (_, i) => ({ sessionId: `f-${i}`, cwd: '/w' })) }));
    assert.equal((await listPastSessions(flood.context, 'fixture', '/w')).length, PAST_SESSIONS_KEPT);
  });

  it('an answer that is not a list, and no answer, are errors naming the agent', async () => {
    await assert.rejects(listPastSessions(agent(() => ({ sessions: 'none' })).context, 'fixture', '/w'), /fixture answered session\/list without a list of sessions/);
    const silent = { request: () => new Promise(() => undefined) } as unknown as ClientContext;
    await assert.rejects(listPastSessions(silent, 'fixture', '/w', 1000), /fixture did not answer session\/list within 1 s/);
  });
});
