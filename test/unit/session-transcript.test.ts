/**
 * A session's transcript: chunks grow one entry, a tool call's updates replace its entry,
 * the plan is one entry, a turn's end says why it stopped, and everything is bounded: a
 * runaway reply keeps a count, not its text (its whole goes to a file), and the session keeps
 * of its tool calls what the transcript shows, and nothing of one whose entry is gone. The
 * work is counted, not timed: a chunk hands on what it adds, and letting the oldest entry go
 * touches one entry, not the index.
 */
import { strict as assert } from 'node:assert';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { changeSize, inputDetail, MAX_TOOL_DETAIL, SessionUpdates, type ToolCallView } from '../../src/acp/session-events';
import { MAX_ENTRIES, MAX_ENTRY_TEXT, MAX_SENT_TEXT, Transcript, type WholeTexts } from '../../src/ui/agents/transcript';

/** A tool call as the session's updates leave it. */
const call = (extra: Partial<ToolCallView> = {}): ToolCallView => ({ id: 'c1', title: 'rm -rf build', kind: 'execute', status: 'pending', diffs: [], locations: [], ...extra });

/** A session's updates feeding its transcript, as the session panel wires them. */
function session(): { updates: SessionUpdates; transcript: Transcript; apply(update: SessionUpdate): ReturnType<Transcript['apply']> } {
  const updates = new SessionUpdates((id) => ({ id, name: id }));
  const transcript = new Transcript(updates);
  return {
    updates,
    transcript,
    apply(update) {
      const event = updates.read(update);
      return event && transcript.apply(event);
    },
  };
}

/** A full garbage collection, then the heap in use. */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

describe("a session's transcript", () => {
  it('agent chunks grow one entry until something else comes; thoughts are their own', () => {
    const t = new Transcript();
    t.prompt('hi');
    const first = t.apply({ type: 'message', role: 'agent', text: 'Hel' });
    const second = t.apply({ type: 'message', role: 'agent', text: 'lo' });
    assert.deepEqual(first, { kind: 'agent', id: 'agent:1', markdown: 'Hel' }, 'the first chunk makes the entry, sent whole');
    assert.deepEqual(second, { kind: 'append', id: 'agent:1', text: 'lo' }, 'a later chunk is what it adds');
    assert.deepEqual(t.all()[1], { kind: 'agent', id: 'agent:1', markdown: 'Hello' });
    t.apply({ type: 'thought', text: 'hmm' });
    const third = t.apply({ type: 'message', role: 'agent', text: 'again' });
    assert.notEqual(third?.id, first?.id);
    assert.deepEqual(
      t.all().map((e) => e.kind),
      ['user', 'agent', 'thought', 'agent'],
    );
  });

  it('a new message id starts a new entry', () => {
    const t = new Transcript();
    const a = t.apply({ type: 'message', role: 'agent', text: 'a', messageId: 'm1' });
    const b = t.apply({ type: 'message', role: 'agent', text: 'b', messageId: 'm2' });
    assert.notEqual(a?.id, b?.id);
  });

  it("a tool call's updates replace its entry in place, with its command, files and output", () => {
    const { transcript: t, apply } = session();
    apply({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'rm -rf build', kind: 'execute', status: 'pending', rawInput: { command: 'rm -rf build' } });
    t.apply({ type: 'message', role: 'agent', text: 'meanwhile' });
    const done = apply({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      status: 'completed',
      content: [
        { type: 'content', content: { type: 'text', text: 'removed' } },
        { type: 'diff', path: '/w/a.ts', oldText: 'a\nb', newText: 'a\nc\nd' },
      ],
      locations: [{ path: '/w/a.ts' }],
    });
    assert.deepEqual(done, {
      kind: 'tool',
      id: 'tool:c1',
      title: 'rm -rf build',
      toolKind: 'execute',
      status: 'completed',
      detail: 'rm -rf build',
      locations: [{ path: '/w/a.ts' }],
      diffs: [{ path: '/w/a.ts', added: 2, removed: 1 }],
      output: 'removed',
    });
    assert.deepEqual(
      t.all().map((e) => e.id),
      ['tool:c1', 'agent:0'],
    );
  });

  it("a permission's answer is said on its tool call's line, and stays there as the call goes on", () => {
    const t = new Transcript();
    t.apply({ type: 'tool-call', toolCall: call({ rawInput: { command: 'rm -rf build' } }), first: true });
    const answered = t.apply({ type: 'permission', asker: "claude · rm -rf build, for session 'x'", toolCall: 'rm -rf build', toolCallId: 'c1', kind: 'execute', answer: 'No', optionKind: 'reject_once', by: 'person', shown: 'Command:\nrm -rf build' });
    assert.ok(answered?.kind === 'tool' && answered.id === 'tool:c1');
    assert.deepEqual(answered.permission, { answer: 'No', allowed: false });
    const failed = t.apply({ type: 'tool-call', toolCall: call({ status: 'failed', rawInput: { command: 'rm -rf build' } }), first: false });
    assert.ok(failed?.kind === 'tool' && failed.status === 'failed');
    assert.deepEqual(failed.permission, { answer: 'No', allowed: false });
    assert.deepEqual(t.all().map((e) => e.kind), ['tool'], 'no separate line that repeats the command');
    // A permission for a call the transcript has not seen is its own line.
    assert.deepEqual(t.apply({ type: 'permission', asker: 'a', toolCall: 'Edit x', toolCallId: 'unknown', kind: 'edit', answer: 'Allow', optionKind: 'allow_once', by: 'person', shown: 'Edit x' }), { kind: 'notice', id: 'notice:0', text: 'Permission for Edit x: Allow', tone: 'info' });
  });

  it('a question asked in a tool call stands in its place as the question and the answer; its raw input is not shown', () => {
    const t = new Transcript();
    const raw = { questions: [{ question: 'Which colour?', header: 'Colour', options: [{ label: 'Red' }, { label: 'Blue' }] }] };
    t.apply({ type: 'tool-call', toolCall: call({ id: 'q1', title: 'Which colour?', kind: 'other', rawInput: raw }), first: true });
    const asked = t.apply({ type: 'question', asker: "claude · Which colour?, for session 'x'", message: 'Which colour?', action: 'accept', toolCallId: 'q1', answers: [{ question: 'Colour', answer: 'Blue' }] });
    assert.deepEqual(asked, { kind: 'question', id: 'tool:q1', message: 'Which colour?', answers: [{ question: 'Colour', answer: 'Blue' }], action: 'accept' });
    assert.equal(t.apply({ type: 'tool-call', toolCall: call({ id: 'q1', title: 'Which colour?', kind: 'other', status: 'completed', rawInput: raw, output: 'The user answered Blue' }), first: false }), undefined, "the call's later updates change nothing shown");
    assert.deepEqual(t.all(), [asked]);
    // Unanswered in its call (dismissed, or the turn stopped): the call's line stays, with its status.
    t.apply({ type: 'tool-call', toolCall: call({ id: 'q2', title: 'Choose a colour', kind: 'other' }), first: true });
    assert.equal(t.apply({ type: 'question', asker: 'a', message: 'Which colour?', action: 'cancel', toolCallId: 'q2', answers: [] }), undefined);
    const stopped = t.apply({ type: 'tool-call', toolCall: call({ id: 'q2', title: 'Choose a colour', kind: 'other', status: 'cancelled' }), first: false });
    assert.ok(stopped?.kind === 'tool' && stopped.status === 'cancelled');
    // A question outside any tool call is an entry of its own.
    const declined = t.apply({ type: 'question', asker: 'a', message: 'Anything else?', action: 'decline', answers: [] });
    assert.equal(declined?.kind === 'question' && declined.id, 'question:0');
    assert.deepEqual(t.all().map((e) => e.kind), ['question', 'tool', 'question']);
  });

  it('the plan is one entry, replaced whole; the turn says why it stopped', () => {
    const t = new Transcript();
    t.apply({ type: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }] });
    t.apply({ type: 'plan', entries: [{ content: 'a', priority: 'high', status: 'completed' }, { content: 'b', priority: 'low', status: 'in_progress' }] });
    assert.equal(t.all().length, 1);
    assert.equal(t.apply({ type: 'turn-end', stopReason: 'end_turn' }), undefined, 'a normal end needs no word');
    assert.deepEqual(t.apply({ type: 'turn-end', stopReason: 'cancelled' }), { kind: 'notice', id: 'notice:0', text: 'Stopped.', tone: 'info' });
  });

  it('bounded: a runaway reply and a flood of entries', () => {
    const t = new Transcript();
    const huge = t.apply({ type: 'message', role: 'agent', text: 'x'.repeat(MAX_ENTRY_TEXT + 10) });
    assert.ok(huge?.kind === 'agent' && huge.markdown.length === MAX_ENTRY_TEXT && huge.notShown === 10);
    for (let i = 0; i < MAX_ENTRIES + 5; i++) t.notice(`n${i}`);
    const all = t.all();
    assert.equal(all.length, MAX_ENTRIES + 1);
    assert.deepEqual(all[0], { kind: 'notice', id: 'dropped', tone: 'info', text: '6 earlier entries are not kept.' });
    // The index still finds entries after the oldest went.
    const last = all[all.length - 1];
    assert.equal(last.kind === 'notice' && last.text, `n${MAX_ENTRIES + 4}`);
  });

  it('a reply past its cap keeps only a count of what streams in, and says where the cap cuts', function () {
    this.timeout(10_000);
    const t = new Transcript();
    const chunk = 'y'.repeat(10_000);
    t.apply({ type: 'message', role: 'agent', text: 'x'.repeat(MAX_ENTRY_TEXT - 5) });
    let last = t.apply({ type: 'message', role: 'agent', text: '0123456789' });
    assert.deepEqual(last, { kind: 'append', id: 'agent:0', text: '01234', notShown: 5 });
    const before = heapAfterGc();
    // 40 MB more of the same reply: none of it is kept.
    const chunks = 4_000;
    for (let i = 0; i < chunks; i++) last = t.apply({ type: 'message', role: 'agent', text: `${i % 10}${chunk.slice(1)}` });
    const grown = heapAfterGc() - before;
    assert.deepEqual(last, { kind: 'append', id: 'agent:0', text: '', notShown: 5 + chunks * chunk.length }, 'the count says all that was left out');
    const entry = t.all()[0];
    assert.ok(entry.kind === 'agent' && entry.markdown === `${'x'.repeat(MAX_ENTRY_TEXT - 5)}01234` && entry.notShown === 5 + chunks * chunk.length);
    assert.ok(grown < 8_000_000, `the reply past its cap kept ${grown} bytes of the ${chunks * chunk.length} characters streamed`);
  });

  it('a session keeps of its ended tool calls what the transcript shows, and nothing of a call whose entry is gone', function () {
    this.timeout(10_000);
    const { updates, transcript, apply } = session();
    // Each call edits a file of 5,000 characters, with 2,000 in its raw input: 12,000 characters sent per call.
    const lines = (tag: string) => Array.from({ length: 10 }, (_, i) => `${tag} line ${i} ${'.'.repeat(490)}`).join('\n');
    const oldText = lines('old');
    const newText = lines('new');
    const content = 'c'.repeat(2_000);
    const calls = MAX_ENTRIES + 1_000;
    for (let i = 0; i < calls; i++) {
      const toolCallId = `call-${i}`;
      apply({ sessionUpdate: 'tool_call', toolCallId, title: `Write file ${i}`, kind: 'edit', status: 'in_progress', rawInput: { file_path: `/w/f${i}.txt`, content } });
      apply({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'diff', path: `/w/f${i}.txt`, oldText, newText }] });
    }
    const shown = transcript.all();
    assert.equal(shown.length, MAX_ENTRIES + 1, 'the transcript shows its last entries and a word for the rest');
    assert.equal(updates.toolCall('call-0'), undefined, 'a call whose entry is gone is not kept');
    const kept = Array.from({ length: calls }, (_, i) => updates.toolCall(`call-${i}`)).filter((c) => c !== undefined);
    assert.equal(kept.length, MAX_ENTRIES);
    const keptChars = kept.reduce((sum, call) => sum + JSON.stringify(call).length, 0);
    const shownChars = shown.reduce((sum, entry) => sum + JSON.stringify(entry).length, 0);
    assert.ok(keptChars <= shownChars * 1.1, `the tool calls keep ${keptChars} characters for ${shownChars} shown (${calls * 12_000} were sent)`);
    const last = updates.toolCall(`call-${calls - 1}`)!;
    assert.deepEqual(last.diffs, [{ path: `/w/f${calls - 1}.txt`, added: 10, removed: 10 }]);
    assert.equal(last.rawInput, undefined);
    assert.equal(last.detail, inputDetail({ file_path: `/w/f${calls - 1}.txt`, content }));
  });

  it('a running call keeps its raw input whole (a permission shows it), its text capped', () => {
    const { updates, apply } = session();
    const input = { command: 'x'.repeat(MAX_TOOL_DETAIL + 3) };
    apply({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run', kind: 'execute', status: 'pending', rawInput: input });
    const running = updates.toolCall('c1')!;
    assert.equal(running.rawInput, input);
    assert.ok(running.detail?.endsWith('(3 more characters not shown)'));
  });

  it('change sizes and a raw input without a command', () => {
    assert.deepEqual(changeSize(undefined, 'a\nb'), { added: 2, removed: 0 });
    assert.deepEqual(changeSize('a\nb\nb', 'b'), { added: 0, removed: 2 });
    assert.equal(inputDetail({ path: '/w/x' }), '{\n  "path": "/w/x"\n}');
    assert.equal(inputDetail(undefined), undefined);
  });
  it('a chunk hands on what it adds, whatever the reply so far: the characters handed on grow as the reply does, not as its square', () => {
    const t = new Transcript();
    const chunk = 'a forty-character chunk of the reply...\n';
    const chunks = 25_000; // a 1 MB reply, past the cap
    let handedOn = 0;
    let wholeEntries = 0;
    for (let i = 0; i < chunks; i++) {
      const change = t.apply({ type: 'message', role: 'agent', text: chunk });
      if (change?.kind === 'append') handedOn += change.text.length;
      else if (change?.kind === 'agent') {
        wholeEntries++;
        handedOn += change.markdown.length;
      }
    }
    assert.equal(wholeEntries, 1, 'the entry is sent whole once, when it starts');
    assert.equal(handedOn, MAX_ENTRY_TEXT, 'each character shown is handed on once (the rest past the cap is only counted)');
  });

  it('letting the oldest entry go touches that entry, not the index of the rest (no renumbering)', () => {
    const t = new Transcript();
    for (let i = 0; i < MAX_ENTRIES; i++) t.notice(`n${i}`);
    // Counted: the map writes of one new entry that makes the oldest go.
    const set = Map.prototype.set;
    let writes = 0;
    Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
      writes++;
      return set.call(this, key, value) as Map<unknown, unknown>;
    };
    try {
      for (let i = 0; i < 10; i++) t.notice(`more ${i}`);
    } finally {
      Map.prototype.set = set;
    }
    assert.ok(writes <= 10 * 2, `ten entries past the cap wrote the map ${writes} times (renumbering writes it ${MAX_ENTRIES} times each)`);
    // Entries are still found by id, in order, and the newest is known.
    const all = t.all();
    assert.equal(all.length, MAX_ENTRIES + 1);
    assert.deepEqual(all[0], { kind: 'notice', id: 'dropped', tone: 'info', text: '10 earlier entries are not kept.' });
    assert.equal(all[1].kind === 'notice' && all[1].text, 'n10');
    const newest = t.notice('newest');
    assert.equal(t.isNewest(newest.id), true);
    assert.equal(t.isNewest(all[5].id), false);
  });

  it('the newest entries and those before one, for a page that shows a window of them', () => {
    const t = new Transcript();
    const ids = Array.from({ length: MAX_ENTRIES + 30 }, (_, i) => t.notice(`n${i}`).id);
    assert.equal(t.kept, MAX_ENTRIES + 1, 'the entries kept and the word for those let go of');
    const newest = t.newest(100);
    assert.deepEqual(newest.entries.map((e) => e.id), ids.slice(-100));
    assert.equal(newest.more, MAX_ENTRIES + 1 - 100);
    const before = t.before(ids.at(-100)!, 50);
    assert.deepEqual(before.entries.map((e) => e.id), ids.slice(-150, -100));
    const oldest = t.before(ids[40], 50);
    assert.deepEqual(oldest.entries.map((e) => e.id), ['dropped', ...ids.slice(30, 40)], 'at the start, the word for those let go of comes first');
    assert.equal(oldest.more, 0);
    assert.deepEqual(t.before(ids[0], 50), { entries: [], more: 0 }, 'an entry no longer kept has nothing before it');
  });

  it("a message to the page carries at most MAX_SENT_TEXT of entries' text, the newest entry whatever its size; the rest come with Show earlier", () => {
    const t = new Transcript();
    const long = (n: number): string => `${n}`.padEnd(MAX_ENTRY_TEXT, '.');
    const ids = Array.from({ length: 30 }, (_, i) => t.notice(long(i)).id);
    const fit = MAX_SENT_TEXT / MAX_ENTRY_TEXT;
    const newest = t.newest(100, MAX_SENT_TEXT);
    assert.deepEqual(newest.entries.map((e) => e.id), ids.slice(-fit), `${fit} entries of ${MAX_ENTRY_TEXT} characters`);
    assert.equal(newest.more, 30 - fit);
    const earlier = t.before(ids.at(-fit)!, 50, MAX_SENT_TEXT);
    assert.deepEqual(earlier.entries.map((e) => e.id), ids.slice(-2 * fit, -fit));
    // At the start the rest fit: all of them.
    assert.deepEqual(t.before(ids[5], 50, MAX_SENT_TEXT).entries.map((e) => e.id), ids.slice(0, 5));
    // One entry over the bound alone is still sent.
    const huge = new Transcript();
    huge.notice('small');
    const big = huge.notice('x'.repeat(MAX_SENT_TEXT + 1)).id;
    assert.deepEqual(huge.newest(100, MAX_SENT_TEXT).entries.map((e) => e.id), [big]);
    // Short entries: the count decides, as without a bound.
    const short = new Transcript();
    const shortIds = Array.from({ length: 150 }, (_, i) => short.notice(`n${i}`).id);
    assert.deepEqual(short.newest(100, MAX_SENT_TEXT).entries.map((e) => e.id), shortIds.slice(-100));
  });

  it("past its cap, the whole of a streamed entry goes to the whole texts, and goes with its entry", () => {
    const written = new Map<string, string>();
    const dropped: string[] = [];
    const whole: WholeTexts = {
      begin: (id, soFar) => void written.set(id, soFar),
      more: (id, text) => void written.set(id, written.get(id)! + text),
      drop: (id) => void dropped.push(id),
    };
    const t = new Transcript(undefined, whole);
    const reply = Array.from({ length: 60_000 }, (_, i) => `${i} `);
    for (const chunk of reply) t.apply({ type: 'message', role: 'agent', text: chunk });
    t.apply({ type: 'thought', text: 'short' });
    assert.deepEqual([...written.keys()], ['agent:0'], 'only the entry past its cap is written');
    assert.equal(written.get('agent:0'), reply.join(''), 'the whole reply, every chunk of it');
    for (let i = 0; i < MAX_ENTRIES; i++) t.notice(`n${i}`);
    assert.deepEqual(dropped, ['agent:0'], 'let go of with its entry');
  });
});
