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

  it('warns about plain http (but not on this computer), IP hosts (loopback ones too) and user info', () => {
    const http = checkUrl('http://plain.example.com/');
    assert.ok(http.ok && /not encrypted/.test(http.warnings[0]));
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

  it('warns for localhost as for 127.0.0.1, in every spelling the URL parser accepts', () => {
    for (const url of ['http://localhost:8080/review', 'http://LOCALHOST/', 'http://app.localhost/', 'http://0x7f.1/', 'http://2130706433/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://0.0.0.0/']) {
      const check = checkUrl(url);
      assert.ok(check.ok, url);
      assert.equal(check.warnings.length, 1, `${url}: ${check.warnings.join(' | ')}`);
      assert.match(check.warnings[0], /a program on this computer, not a site you can recognise by name/, url);
    }
    const named = checkUrl('http://localhost:8080/review');
    assert.ok(named.ok);
    assert.deepEqual(named.warnings, ['The host is localhost: a program on this computer, not a site you can recognise by name.']);
  });

  it('warns for private, link-local and shared address ranges, and plain http to them', () => {
    for (const host of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.10', '169.254.169.254', '100.64.0.1', '[fd00::1]', '[fe80::1]', '[::ffff:192.168.0.1]']) {
      const check = checkUrl(`http://${host}/admin`);
      assert.ok(check.ok, host);
      assert.match(check.warnings.join('\n'), /not encrypted/, host);
      assert.match(check.warnings.join('\n'), /on a private network: a device near you/, host);
    }
    for (const host of ['172.32.0.1', '192.169.0.1', '100.128.0.1', '11.0.0.1', '[2001:db8::1]']) {
      const check = checkUrl(`https://${host}/`);
      assert.ok(check.ok, host);
      assert.deepEqual(check.warnings, [`The host is a bare IP address (${check.ok ? new URL(`https://${host}/`).hostname : ''}), not a name you can recognise.`], host);
    }
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
    assert.equal(check.warnings[0], 'The host has non-ASCII characters that can imitate other letters (it reads as аpple.com); the browser goes to xn--pple-43d.com.');
    const fromPunycode = checkUrl('https://xn--pple-43d.com/');
    assert.ok(fromPunycode.ok && fromPunycode.host === 'аpple.com');
  });
});
