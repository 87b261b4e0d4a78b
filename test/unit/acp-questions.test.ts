/**
 * An ACP agent's `elicitation/create` read at the edge (src/acp/agent-questions.ts), its
 * session's updates as events (src/acp/session-events.ts), and where files may be read
 * and written (src/acp/file-access.ts).
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QuestionParamsError, readAgentQuestion, withoutNulls } from '../../src/acp/agent-questions';
import { checkFileAccess, FileAccessError, linesOf } from '../../src/acp/file-access';
import { SessionUpdates } from '../../src/acp/session-events';
import { parseRequestedSchema } from '../../src/elicitation/schema';

describe('ACP questions read at the edge', () => {
  it('reads the scope: a session and tool call, or a request before any session', () => {
    const inSession = readAgentQuestion({ mode: 'form', sessionId: 's', toolCallId: 't', message: 'm', requestedSchema: { type: 'object', properties: {} } });
    assert.deepEqual(inSession.scope, { kind: 'session', sessionId: 's', toolCallId: 't' });
    const before = readAgentQuestion({ mode: 'url', requestId: 7, message: 'm', url: 'https://example.com', elicitationId: 'e' });
    assert.deepEqual(before.scope, { kind: 'request', requestId: 7 });
    assert.deepEqual(before.params, { mode: 'url', message: 'm', url: 'https://example.com', elicitationId: 'e' });
  });

  it('refuses what ACP does not allow, naming the field', () => {
    const refused = (raw: unknown, why: RegExp) => assert.throws(() => readAgentQuestion(raw), (e: Error) => e instanceof QuestionParamsError && why.test(e.message));
    refused({ sessionId: 's', message: 'm', requestedSchema: {} }, /mode must be "form" or "url"/);
    refused({ mode: 'form', message: 'm', requestedSchema: {} }, /needs a sessionId .* or a requestId/);
    refused({ mode: 'form', sessionId: 's', message: 'm' }, /requestedSchema must be an object/);
    refused({ mode: 'url', sessionId: 's', message: 'm', url: 'https://x' }, /elicitationId must be a string/);
    refused({ mode: 'form', sessionId: 3, message: 'm', requestedSchema: {} }, /sessionId must be a non-empty string/);
  });

  it('ACP\'s nulls are absent fields, and the schema it sends parses as ours', () => {
    const schema = withoutNulls({ type: 'object', title: null, properties: { a: { type: 'string', description: null, pattern: '^x$', oneOf: null } }, required: null });
    assert.deepEqual(schema, { type: 'object', properties: { a: { type: 'string', pattern: '^x$' } } });
    const parsed = parseRequestedSchema(schema);
    assert.ok(parsed.ok);
    // Without it, ACP's `null` would be refused as a wrong type.
    assert.equal(parseRequestedSchema({ type: 'object', properties: { a: { type: 'string', description: null } } }).ok, false);
  });
});

describe('ACP session updates as events', () => {
  it('merges a tool call\'s updates into its whole state', () => {
    const updates = new SessionUpdates((id) => ({ id, name: id }));
    const first = updates.read({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Terminal', kind: 'execute', status: 'pending', rawInput: {} });
    assert.ok(first?.type === 'tool-call' && first.first);
    const next = updates.read({ sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'rm -rf build', rawInput: { command: 'rm -rf build' } });
    assert.ok(next?.type === 'tool-call' && !next.first);
    assert.deepEqual([next.toolCall.title, next.toolCall.kind, next.toolCall.status, next.toolCall.rawInput], ['rm -rf build', 'execute', 'pending', { command: 'rm -rf build' }]);
    const done = updates.read({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] });
    assert.ok(done?.type === 'tool-call');
    assert.deepEqual([done.toolCall.title, done.toolCall.status, done.toolCall.output, done.toolCall.detail], ['rm -rf build', 'completed', 'ok', 'rm -rf build']);
    assert.equal(done.toolCall.rawInput, undefined, 'an ended call keeps its input as the text shown, not as sent');
    assert.equal(updates.read({ sessionUpdate: 'usage_update', used: 1, size: 2 }), undefined);
  });
});

describe('ACP file access', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-access-')));
  const work = join(root, 'work');
  const other = join(root, 'other-repo');
  mkdirSync(work);
  mkdirSync(other);
  writeFileSync(join(other, 'id_rsa'), 'secret');
  symlinkSync(other, join(work, 'link'));

  it('allows inside the working directory, a file not yet there by its nearest parent', async () => {
    assert.equal((await checkFileAccess(join(work, 'a', 'b', 'new.txt'), [work], 'write')).real, join(work, 'a', 'b', 'new.txt'));
  });

  it('refuses ../other-repo, a link out, a relative path, with the rule named', async () => {
    const refused = (path: string, why: RegExp) => assert.rejects(checkFileAccess(path, [work], 'read'), (e: Error) => e instanceof FileAccessError && why.test(e.message));
    await refused(join(work, '..', 'other-repo', 'id_rsa'), /may read files only inside its session's working directories/);
    await refused(join(work, 'link', 'id_rsa'), /\(really .*other-repo\/id_rsa\)/);
    await refused('notes.txt', /not an absolute path/);
  });

  it('reads the lines asked for', () => {
    assert.equal(linesOf('a\nb\nc\nd', 2, 2), 'b\nc');
    assert.equal(linesOf('a\nb', null, null), 'a\nb');
  });
});
