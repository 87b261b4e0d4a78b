import { strict as assert } from 'node:assert';
import { REDACTED, Redactor, withoutAnswers } from '../../src/mcp/connection/redaction';

describe('redaction of input values', () => {
  it('hides a value as typed and as a URL carries it, the longest first', () => {
    const r = new Redactor(['p@ss word/1', 'p@ss']);
    assert.equal(r.text('url https://x/?k=p%40ss%20word%2F1 and p@ss word/1'), `url https://x/?k=${REDACTED} and ${REDACTED}`);
    assert.equal(r.text('only p@ss here'), `only ${REDACTED} here`);
  });

  it('leaves values too short to be secrets, and changes nothing without secrets', () => {
    const r = new Redactor(['ab']);
    assert.equal(r.active, false);
    assert.equal(r.text('ab cab'), 'ab cab');
  });

  it("redacts an error's message in place and every log line", () => {
    const r = new Redactor(['hunter22']);
    const error = r.error(new Error('bad token hunter22'));
    assert.equal(error.message, `bad token ${REDACTED}`);
    const lines: string[] = [];
    const push = (m: string): number => lines.push(m);
    const log = r.log({ info: push, warn: push, error: push, trace: push, stderr: push, traceEnabled: true });
    log.info('a hunter22');
    log.stderr('b hunter22');
    log.trace('c hunter22');
    assert.deepEqual(lines, [`a ${REDACTED}`, `b ${REDACTED}`, `c ${REDACTED}`]);
    assert.equal(log.traceEnabled, true);
  });

  it('the trace keeps field names of answers and drops their values', () => {
    assert.deepEqual(withoutAnswers({ jsonrpc: '2.0', id: 1, result: { action: 'accept', content: { pin: '1234' } } }), {
      jsonrpc: '2.0',
      id: 1,
      result: { action: 'accept', content: { pin: REDACTED } },
    });
  });
});
