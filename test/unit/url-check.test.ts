import { strict as assert } from 'node:assert';
import { checkUrl } from '../../src/elicitation/url-check';

describe('URL checks', () => {
  it('https and http links pass with their host', () => {
    const check = checkUrl('https://example.com/review/42?x=1#y');
    assert.ok(check.ok);
    assert.deepEqual([check.scheme, check.host, check.warnings], ['https', 'example.com', []]);
  });

  for (const url of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'vscode://vscode.git/clone', 'command:workbench.action.terminal.new', 'ftp://example.com/x', 'chrome://settings']) {
    it(`refuses ${url.split(':')[0]}: links`, () => {
      const check = checkUrl(url);
      assert.ok(!check.ok);
      assert.match(check.reason, /are not opened, only https and http/);
    });
  }

  it('refuses malformed and over-long links', () => {
    assert.deepEqual(checkUrl('https://exa mple.com/'), { ok: false, reason: 'the link is not a valid URL' });
    assert.deepEqual(checkUrl('not a url'), { ok: false, reason: 'the link is not a valid URL' });
    const long = checkUrl(`https://example.com/${'a'.repeat(10_000)}`);
    assert.ok(!long.ok && /too long to review/.test(long.reason));
  });

  it('warns about plain http (but not on loopback), IP hosts (loopback ones too) and user info', () => {
    const http = checkUrl('http://plain.example.com/');
    assert.ok(http.ok && /not encrypted/.test(http.warnings[0]));
    const localhost = checkUrl('http://localhost:8080/review');
    assert.ok(localhost.ok && localhost.warnings.length === 0);
    const loopback = checkUrl('http://127.0.0.1:8080/review');
    assert.ok(loopback.ok);
    assert.deepEqual(loopback.warnings, ['The host is a bare IP address (127.0.0.1): a program on this computer, not a site you can recognise by name.']);
    const ip = checkUrl('https://192.0.2.7/pay');
    assert.ok(ip.ok && /bare IP address \(192\.0\.2\.7\)/.test(ip.warnings[0]));
    const userinfo = checkUrl('https://bank.example.com@evil.example/login');
    assert.ok(userinfo.ok);
    assert.equal(userinfo.host, 'evil.example');
    assert.match(userinfo.warnings[0], /puts "bank\.example\.com" before an @ sign: that is a user name, not the site\. The site is evil\.example\./);
  });

  it('a user name that does not decode is shown as it is written, not thrown', () => {
    const check = checkUrl('https://%E0%A4@evil.example/');
    assert.ok(check.ok);
    assert.equal(check.host, 'evil.example');
    assert.match(check.warnings[0], /puts "%E0%A4" before an @ sign/);
  });

  it('shows an internationalised host in Unicode and Punycode, with a look-alike warning', () => {
    const check = checkUrl('https://аpple.com/account');
    assert.ok(check.ok);
    assert.equal(check.host, 'аpple.com');
    assert.equal(check.asciiHost, 'xn--pple-43d.com');
    assert.match(check.warnings[0], /non-ASCII characters that can imitate other letters; the browser goes to xn--pple-43d\.com/);
    const fromPunycode = checkUrl('https://xn--pple-43d.com/');
    assert.ok(fromPunycode.ok && fromPunycode.host === 'аpple.com');
  });
});
