/**
 * A session's transcript: chunks grow one entry, a tool call's updates replace its entry,
 * the plan is one entry, a turn's end says why it stopped, and everything is bounded.
 */
import { strict as assert } from 'node:assert';
import type { ToolCallView } from '../../src/acp/session-events';
import { changeSize } from '../../src/acp/proposed-changes';
import { MAX_ENTRIES, MAX_ENTRY_TEXT, toolDetail, Transcript } from '../../src/ui/agents/transcript';

const call = (extra: Partial<ToolCallView> = {}): ToolCallView => ({ id: 'c1', title: 'rm -rf build', kind: 'execute', status: 'pending', text: [], diffs: [], locations: [], ...extra });

describe("a session's transcript", () => {
  it('agent chunks grow one entry until something else comes; thoughts are their own', () => {
    const t = new Transcript();
    t.prompt('hi');
    const first = t.apply({ type: 'message', role: 'agent', text: 'Hel' });
    const second = t.apply({ type: 'message', role: 'agent', text: 'lo' });
    assert.equal(first?.id, second?.id);
    assert.deepEqual(second, { kind: 'agent', id: first!.id, markdown: 'Hello' });
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
    const t = new Transcript();
    t.apply({ type: 'tool-call', toolCall: call({ rawInput: { command: 'rm -rf build' } }), first: true });
    t.apply({ type: 'message', role: 'agent', text: 'meanwhile' });
    const done = t.apply({
      type: 'tool-call',
      toolCall: call({ status: 'completed', rawInput: { command: 'rm -rf build' }, text: ['removed'], diffs: [{ path: '/w/a.ts', oldText: 'a\nb', newText: 'a\nc\nd' }], locations: [{ path: '/w/a.ts' }] }),
      first: false,
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
    assert.ok(huge?.kind === 'agent' && huge.markdown.endsWith('(10 more characters not shown)'));
    for (let i = 0; i < MAX_ENTRIES + 5; i++) t.notice(`n${i}`);
    const all = t.all();
    assert.equal(all.length, MAX_ENTRIES + 1);
    assert.deepEqual(all[0], { kind: 'notice', id: 'dropped', tone: 'info', text: '6 earlier entries are not kept.' });
    // The index still finds entries after the oldest went.
    const last = all[all.length - 1];
    assert.equal(last.kind === 'notice' && last.text, `n${MAX_ENTRIES + 4}`);
  });

  it('change sizes and a raw input without a command', () => {
    assert.deepEqual(changeSize(undefined, 'a\nb'), { added: 2, removed: 0 });
    assert.deepEqual(changeSize('a\nb\nb', 'b'), { added: 0, removed: 2 });
    assert.equal(toolDetail(call({ rawInput: { path: '/w/x' } })), '{\n  "path": "/w/x"\n}');
    assert.equal(toolDetail(call()), undefined);
  });
});
