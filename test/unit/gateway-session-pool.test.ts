import assert from 'node:assert/strict';
import { type Admission, SessionPool } from '../../src/gateway/session-pool';

/** Admits and adds a session named `id` for `client`; fails when it is refused. */
function open(pool: SessionPool<string>, id: string, client: string): readonly string[] {
  const admission = pool.admit(client, 'todos');
  assert.ok(admission.ok, `${id} refused: ${!admission.ok && admission.message}`);
  pool.add(id, client, id);
  return admission.evicted;
}

const refused = (admission: Admission<string>): string => (admission.ok ? assert.fail(`admitted, evicting ${admission.evicted.join(', ')}`) : admission.message);

describe('gateway session pool', () => {
  it('makes room with the least recently used idle session', () => {
    const pool = new SessionPool<string>({ total: 3, perClient: 3 });
    open(pool, 'a', 'x');
    open(pool, 'b', 'y');
    open(pool, 'c', 'z');
    pool.touch('a');
    assert.deepEqual(open(pool, 'd', 'w'), ['b']);
    assert.deepEqual(pool.sessions(), ['c', 'a', 'd']);
  });

  it('never evicts a session with a request in flight, and counts it idle again once the request ends', () => {
    const pool = new SessionPool<string>({ total: 2, perClient: 2 });
    open(pool, 'a', 'x');
    open(pool, 'b', 'y');
    const endA = pool.begin('a');
    const endB = pool.begin('b');
    assert.match(refused(pool.admit('z', 'todos')), /todos has 2 sessions open, every one of them busy/);
    endA();
    endA(); // twice: counted once
    assert.deepEqual(open(pool, 'c', 'z'), ['a']);
    // b is still busy: the room comes from c, however recently c was made.
    assert.deepEqual(open(pool, 'd', 'z'), ['c']);
    endB();
    pool.touch('d');
    assert.deepEqual(open(pool, 'e', 'z'), ['b'], 'idle again once its request ended');
  });

  it("fills a client's own share from its own sessions before anyone else's", () => {
    const pool = new SessionPool<string>({ total: 10, perClient: 2 });
    open(pool, 'other', 'Visual Studio Code');
    open(pool, 'run1', 'claude-code');
    open(pool, 'run2', 'claude-code');
    assert.deepEqual(open(pool, 'run3', 'claude-code'), ['run1']);
    assert.deepEqual(open(pool, 'run4', 'claude-code'), ['run2']);
    assert.deepEqual(pool.sessions(), ['other', 'run3', 'run4']);
  });

  it("refuses a client at its own bound whose sessions are all busy, though there is room for others", () => {
    const pool = new SessionPool<string>({ total: 10, perClient: 1 });
    open(pool, 'a', 'claude-code');
    pool.begin('a');
    assert.match(refused(pool.admit('claude-code', 'todos')), /^claude-code has 1 session with todos, every one of them busy/);
    assert.deepEqual(open(pool, 'b', 'cursor'), []);
  });

  it('counts admissions not initialized yet, and forgets one withdrawn', () => {
    const pool = new SessionPool<string>({ total: 2, perClient: 2 });
    assert.ok(pool.admit('x', 'todos').ok);
    assert.ok(pool.admit('x', 'todos').ok);
    assert.match(refused(pool.admit('y', 'todos')), /2 sessions open/);
    pool.withdraw('x');
    pool.add('a', 'x', 'a');
    assert.equal(pool.size, 1);
    assert.ok(pool.admit('y', 'todos').ok);
  });

  it('forgets a deleted session and ignores requests of unknown ones', () => {
    const pool = new SessionPool<string>({ total: 1, perClient: 1 });
    open(pool, 'a', 'x');
    pool.delete('a');
    pool.begin('a')();
    pool.touch('a');
    assert.equal(pool.get('a'), undefined);
    assert.deepEqual(open(pool, 'b', 'x'), []);
    assert.deepEqual(pool.clear(), ['b']);
    assert.equal(pool.size, 0);
  });
});
