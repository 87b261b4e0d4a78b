import assert from 'node:assert/strict';
import { bearerToken, checkRequest, type GuardOptions } from '../../src/gateway/request-guard';

const options: GuardOptions = { port: 4711, token: () => 'secret-token' };
const good = { host: '127.0.0.1:4711', authorization: 'Bearer secret-token' };

describe('gateway request guard', () => {
  it('lets a loopback request with the token through, by any loopback name', () => {
    for (const host of ['127.0.0.1:4711', 'localhost:4711', '[::1]:4711', 'LOCALHOST:4711', '127.0.0.1']) {
      assert.deepEqual(checkRequest({ ...good, host }, options), { ok: true }, host);
    }
  });

  it('refuses a foreign Host or another port with 403 (DNS rebinding), whatever the token', () => {
    for (const host of ['evil.example:4711', 'evil.example', '127.0.0.1.nip.io:4711', '127.0.0.1:4712', '', '127.0.0.1:4711:1', undefined]) {
      const verdict = checkRequest({ ...good, host }, options);
      assert.equal(verdict.ok, false, String(host));
      assert.equal(!verdict.ok && verdict.status, 403, String(host));
    }
  });

  it("accepts an Origin naming the gateway itself (a loopback name with its own port): no page of ours is served there", () => {
    for (const origin of ['http://127.0.0.1:4711', 'http://localhost:4711', 'http://[::1]:4711', 'http://LocalHost:4711']) {
      assert.deepEqual(checkRequest({ ...good, origin }, options), { ok: true }, origin);
    }
    // Port 80 is http's own: its origin has no port.
    assert.deepEqual(checkRequest({ ...good, host: '127.0.0.1', origin: 'http://127.0.0.1' }, { ...options, port: 80 }), { ok: true });
  });

  it('refuses any other Origin with 403 unless it was allowed by name', () => {
    for (const origin of [
      'https://evil.example',
      'http://evil.example:4711',
      'http://127.0.0.1:4712',
      'http://127.0.0.1',
      'https://127.0.0.1:4711',
      'http://127.0.0.1:4711/',
      'http://127.0.0.1:4711/path',
      'http://user@127.0.0.1:4711',
      'http://127.0.0.2:4711',
      'http://[::2]:4711',
      'http://127.0.0.1.nip.io:4711',
      'null',
      '',
      'vscode-file://vscode-app',
    ]) {
      const verdict = checkRequest({ ...good, origin }, options);
      assert.ok(!verdict.ok && verdict.status === 403, origin);
    }
    assert.deepEqual(checkRequest({ ...good, origin: 'vscode-file://vscode-app' }, { ...options, allowedOrigins: ['vscode-file://vscode-app'] }), { ok: true });
    assert.ok(!checkRequest({ ...good, origin: ['a', 'b'] }, options).ok, 'two Origin headers');
    assert.ok(!checkRequest({ ...good, origin: ['http://127.0.0.1:4711', 'http://127.0.0.1:4711'] }, options).ok, 'two Origin headers, even our own');
  });

  it('checks the token of a request from its own origin as of any other', () => {
    const verdict = checkRequest({ host: good.host, origin: 'http://127.0.0.1:4711', authorization: 'Bearer wrong' }, options);
    assert.ok(!verdict.ok && verdict.status === 400);
  });

  it('answers a missing or wrong token with 400 (never 401/403, which start OAuth discovery in VS Code)', () => {
    for (const authorization of [undefined, '', 'Bearer', 'Basic c2VjcmV0', 'Bearer wrong', 'Bearer secret-token extra', 'Bearer secret-tokenX']) {
      const verdict = checkRequest({ host: good.host, authorization }, options);
      assert.ok(!verdict.ok && verdict.status === 400, String(authorization));
      assert.ok(!verdict.ok && !verdict.message.includes('secret-token'), 'the message never repeats a token');
    }
  });

  it('reads the token afresh for every request (rotation) and never accepts an empty one', () => {
    let token = 'first';
    const rotating: GuardOptions = { port: 1, token: () => token };
    assert.ok(checkRequest({ host: '127.0.0.1:1', authorization: 'Bearer first' }, rotating).ok);
    token = 'second';
    assert.ok(!checkRequest({ host: '127.0.0.1:1', authorization: 'Bearer first' }, rotating).ok);
    token = '';
    assert.ok(!checkRequest({ host: '127.0.0.1:1', authorization: 'Bearer ' }, rotating).ok);
  });

  it('parses the bearer scheme case-insensitively', () => {
    assert.equal(bearerToken({ authorization: 'bearer abc' }), 'abc');
    assert.equal(bearerToken({ authorization: 'Bearer\tabc ' }), 'abc');
    assert.equal(bearerToken({ authorization: ['Bearer a', 'Bearer b'] }), undefined);
  });
});
