/**
 * What the session panel posts to its page, gathered (src/ui/agents/page-batches.ts), on a
 * clock the test moves: the first message after a quiet spell goes at once, what follows
 * within a frame's time goes as one batch, a streamed entry's appends joined and an entry's
 * states merged into its last, in order; a stream of chunks costs posts per frame, not per chunk.
 */
import { strict as assert } from 'node:assert';
import type { SessionHostMessage, TranscriptEntry } from '../../src/shared/session-protocol';
import { type BatchClock, PageBatches, WINDOW_MS } from '../../src/ui/agents/page-batches';

class TestClock implements BatchClock {
  time = 1_000;
  private timers: Array<{ at: number; run: () => void }> = [];
  now(): number {
    return this.time;
  }
  later(run: () => void, ms: number): () => void {
    const timer = { at: this.time + ms, run };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((t) => t !== timer));
  }
  advance(ms: number): void {
    this.time += ms;
    for (const timer of this.timers.filter((t) => t.at <= this.time)) {
      this.timers = this.timers.filter((t) => t !== timer);
      timer.run();
    }
  }
}

const tool = (id: string, status: 'pending' | 'completed'): TranscriptEntry => ({ kind: 'tool', id, title: id, toolKind: 'read', status, locations: [], diffs: [] });

describe('what the session panel posts to its page', () => {
  let clock: TestClock;
  let sent: SessionHostMessage[];
  let posts: PageBatches;

  beforeEach(() => {
    clock = new TestClock();
    sent = [];
    posts = new PageBatches((m) => sent.push(m), clock);
  });

  it("a reply's first chunk goes at once; the chunks after it within a frame's time go joined, at its end", () => {
    posts.post({ type: 'entry', entry: { kind: 'agent', id: 'a', markdown: 'Hel' }, last: true });
    assert.equal(sent.length, 1, 'not held back');
    posts.post({ type: 'append', id: 'a', text: 'lo' });
    posts.post({ type: 'append', id: 'a', text: ', world' });
    assert.equal(sent.length, 1);
    clock.advance(WINDOW_MS);
    assert.deepEqual(sent[1], { type: 'append', id: 'a', text: 'lo, world' });
    // After a quiet spell, at once again.
    clock.advance(100);
    posts.post({ type: 'append', id: 'a', text: '!' });
    assert.deepEqual(sent.at(-1), { type: 'append', id: 'a', text: '!' });
  });

  it('keeps the order between entries, merges an entry into its last state, and a whole entry drops the appends before it', () => {
    posts.post({ type: 'header', header: { agent: 'a', cwd: '/', options: [], servers: [], state: 'running' } });
    posts.post({ type: 'entry', entry: tool('tool:1', 'pending'), last: true });
    posts.post({ type: 'append', id: 'agent:0', text: 'x', notShown: 3 });
    posts.post({ type: 'entry', entry: tool('tool:2', 'pending'), last: true });
    posts.post({ type: 'append', id: 'agent:0', text: 'y', notShown: 5 });
    posts.post({ type: 'entry', entry: tool('tool:1', 'completed') });
    posts.post({ type: 'kept', kept: 3 });
    posts.post({ type: 'kept', kept: 4 });
    posts.post({ type: 'entry', entry: { kind: 'thought', id: 'thought:3', text: 'hm' }, last: true });
    posts.post({ type: 'append', id: 'thought:3', text: 'm' });
    posts.post({ type: 'entry', entry: { kind: 'thought', id: 'thought:3', text: 'hmm!' } });
    clock.advance(WINDOW_MS);
    assert.equal(sent.length, 2);
    assert.deepEqual(sent[1], {
      type: 'batch',
      messages: [
        { type: 'entry', entry: tool('tool:1', 'completed'), last: true },
        { type: 'append', id: 'agent:0', text: 'xy', notShown: 5 },
        { type: 'entry', entry: tool('tool:2', 'pending'), last: true },
        { type: 'kept', kept: 4 },
        { type: 'entry', entry: { kind: 'thought', id: 'thought:3', text: 'hmm!' }, last: true },
      ],
    });
  });

  it('a reset goes at once and drops what waited (it holds all of it)', () => {
    posts.post({ type: 'kept', kept: 1 });
    posts.post({ type: 'append', id: 'a', text: 'x' });
    posts.replaceAll({ type: 'reset', header: { agent: 'a', cwd: '/', options: [], servers: [], state: 'idle' }, entries: [], kept: 0 });
    clock.advance(WINDOW_MS * 3);
    assert.deepEqual(
      sent.map((m) => m.type),
      ['kept', 'reset'],
    );
  });

  it('a stream of 25,000 chunks over 10 s costs about one post per frame, and every character arrives once, in order', () => {
    let text = '';
    for (let i = 0; i < 25_000; i++) {
      const chunk = `${i % 10}`.repeat(40);
      text += chunk;
      posts.post({ type: 'append', id: 'a', text: chunk });
      clock.advance(0.4);
    }
    clock.advance(WINDOW_MS);
    const received = sent.map((m) => (m.type === 'append' ? m.text : '')).join('');
    assert.equal(received, text);
    assert.ok(sent.length <= 10_000 / WINDOW_MS + 2, `${sent.length} posts for 25,000 chunks`);
  });
});
