/**
 * What a reload lists again: the sessions open in a workspace (read back checked, one row per
 * agent and session, the newest first, bounded) and what each agent declared of past sessions
 * (kept for the command line it declared it with).
 */
import { strict as assert } from 'node:assert';
import { SESSIONS_KEY, SESSIONS_REMEMBERED, SessionMemory, SUPPORT_KEY } from '../../src/ui/agents/session-memory';
import { MementoFake } from '../support/memento';

describe('the sessions a reload lists again', () => {
  it('keeps one row per agent and session, the first given winning, newest first, bounded', async () => {
    const memento = new MementoFake();
    const memory = new SessionMemory(memento);
    await memory.keep([
      { agent: 'claude', sessionId: 'a', cwd: '/w', title: 'now', updatedAt: 30 },
      { agent: 'claude', sessionId: 'b', cwd: '/w', updatedAt: 20 },
      { agent: 'claude', sessionId: 'a', cwd: '/w', title: 'before', updatedAt: 10 },
      { agent: 'fixture', sessionId: 'a', cwd: '/w', updatedAt: 40 },
    ]);
    assert.deepEqual(memory.sessions().map((s) => [s.agent, s.sessionId, s.title]), [['fixture', 'a', undefined], ['claude', 'a', 'now'], ['claude', 'b', undefined]]);
    await memory.keep(Array.from({ length: 100 }, (_, i) => ({ agent: 'claude', sessionId: `s${i}`, cwd: '/w', updatedAt: i })));
    const kept = memory.sessions();
    assert.equal(kept.length, SESSIONS_REMEMBERED);
    assert.equal(kept[0].sessionId, 's99');
  });

  it('reads back only well-formed rows', async () => {
    const memento = new MementoFake();
    await memento.update(SESSIONS_KEY, [{ agent: 'claude', sessionId: 'a', cwd: '/w', updatedAt: 1, title: 7 }, { agent: 'claude' }, 'junk', null]);
    assert.deepEqual(new SessionMemory(memento).sessions(), [{ agent: 'claude', sessionId: 'a', cwd: '/w', updatedAt: 1 }]);
    await memento.update(SESSIONS_KEY, { not: 'a list' });
    assert.deepEqual(new SessionMemory(memento).sessions(), []);
  });

  it("remembers what an agent declared for its command line only; a name like __proto__ is just a name", async () => {
    const memento = new MementoFake();
    const memory = new SessionMemory(memento);
    await memory.keepSupport('claude', '["npx","claude-agent-acp"]', { list: true, load: true, resume: true });
    await memory.keepSupport('__proto__', '["x"]', { list: false, load: false, resume: false });
    assert.deepEqual(memory.support('claude', '["npx","claude-agent-acp"]'), { list: true, load: true, resume: true });
    assert.equal(memory.support('claude', '["npx","other"]'), undefined, 'another command may declare otherwise');
    assert.deepEqual(memory.support('__proto__', '["x"]'), { list: false, load: false, resume: false });
    assert.equal(memory.support('toString', '["x"]'), undefined);
    await memento.update(SUPPORT_KEY, { claude: { commandLine: 'c', support: { list: 'yes' } } });
    assert.equal(memory.support('claude', 'c'), undefined);
  });
});
