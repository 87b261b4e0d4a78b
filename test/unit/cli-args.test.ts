import { strict as assert } from 'node:assert';
import { parseCallArgs } from '../../src/cli/call-args';
import { UsageError } from '../../src/cli/exit-code';

function usageError(argv: string[]): string {
  try {
    parseCallArgs(argv);
  } catch (error) {
    assert.ok(error instanceof UsageError, `a UsageError, not ${String(error)}`);
    return error.message;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
}

describe('runner command line', () => {
  it('takes option values after "=" as well as in the next word', () => {
    assert.deepEqual(parseCallArgs(['call', '--args={"a":1}', '--answers=f.json', 'http://127.0.0.1:3/mcp', 'book']), {
      command: 'call', target: { kind: 'url', url: 'http://127.0.0.1:3/mcp' }, tool: 'book', args: { a: 1 }, answersFile: 'f.json',
      acceptDefaults: false, decline: false, json: false, signIn: { browser: 'system' },
    });
    assert.deepEqual(parseCallArgs(['call', '--args', '{"a":1}', '--answers', 'f.json', 'http://127.0.0.1:3/mcp', 'book']), parseCallArgs(['call', '--args={"a":1}', '--answers=f.json', 'http://127.0.0.1:3/mcp', 'book']));
  });

  it('hands everything after -- to the server command untouched, options included', () => {
    assert.deepEqual(parseCallArgs(['call-all', '--json', '--decline', '--', 'node', 'server.js', '--json', '--args', '-h', '--']), {
      command: 'call-all', target: { kind: 'stdio', command: 'node', args: ['server.js', '--json', '--args', '-h', '--'] }, args: {},
      acceptDefaults: false, decline: true, json: true, signIn: { browser: 'system' },
    });
    const call = parseCallArgs(['--accept-defaults', 'call', 'book', '--', 'npx', '-y', 'pkg']);
    assert.ok(call !== 'help');
    assert.equal(call.tool, 'book');
    assert.deepEqual(call.target, { kind: 'stdio', command: 'npx', args: ['-y', 'pkg'] });
    assert.equal(call.acceptDefaults, true);
  });

  it('sign-in options: the browser step, a pre-registered client, a client ID metadata document, a token cache', () => {
    const parsed = parseCallArgs(['call-all', '--browser', 'fetch', '--client-id', 'abc', '--client-secret=s3cret', '--client-metadata-url', 'https://example.com/client.json', '--token-cache', 't.json', 'https://mcp.example.com/mcp']);
    assert.ok(parsed !== 'help');
    assert.deepEqual(parsed.signIn, { browser: 'fetch', clientId: 'abc', clientSecret: 's3cret', clientMetadataUrl: 'https://example.com/client.json', tokenCache: 't.json' });
    assert.match(usageError(['call-all', '--browser', 'lynx', 'https://a.example/mcp']), /--browser is system or fetch, not "lynx"/);
    assert.match(usageError(['call-all', '--client-metadata-url', 'http://a.example/c.json', 'https://a.example/mcp']), /must be an https URL with a path/);
    assert.match(usageError(['call-all', '--client-metadata-url', 'https://a.example/', 'https://a.example/mcp']), /must be an https URL with a path/);
    assert.match(usageError(['call-all', '--client-secret', 'x', 'https://a.example/mcp']), /--client-secret goes with --client-id/);
  });

  it('sign-in options: a client key, an enterprise-managed sign-in (ID token and identity provider), each with what it needs', () => {
    const key = parseCallArgs(['call-all', '--client-id', 'abc', '--client-key', 'k.pem', 'https://a.example/mcp']);
    assert.ok(key !== 'help');
    assert.deepEqual(key.signIn, { browser: 'system', clientId: 'abc', clientKeyFile: 'k.pem' });
    const idp = parseCallArgs(['call-all', '--client-id', 'abc', '--client-secret', 's', '--id-token', 'id.jwt', '--idp-url', 'https://idp.example', '--idp-client-id', 'me', '--idp-client-secret', 't', 'https://a.example/mcp']);
    assert.ok(idp !== 'help');
    assert.deepEqual(idp.signIn.idp, { provider: { issuer: 'https://idp.example' }, idTokenFile: 'id.jwt', clientId: 'me', clientSecret: 't' });
    const endpoint = parseCallArgs(['call-all', '--client-id', 'abc', '--id-token', 'id.jwt', '--idp-token-endpoint', 'https://idp.example/token', '--idp-client-id', 'me', 'https://a.example/mcp']);
    assert.ok(endpoint !== 'help');
    assert.deepEqual(endpoint.signIn.idp, { provider: { tokenEndpoint: 'https://idp.example/token' }, idTokenFile: 'id.jwt', clientId: 'me' });
    assert.match(usageError(['call-all', '--client-key', 'k.pem', 'https://a.example/mcp']), /--client-key goes with --client-id/);
    assert.match(usageError(['call-all', '--client-id', 'a', '--id-token', 'i', '--idp-client-id', 'me', 'https://a.example/mcp']), /names its identity provider once: --idp-url or --idp-token-endpoint/);
    assert.match(usageError(['call-all', '--client-id', 'a', '--id-token', 'i', '--idp-url', 'https://i.example', '--idp-token-endpoint', 'https://i.example/t', '--idp-client-id', 'me', 'https://a.example/mcp']), /names its identity provider once/);
    assert.match(usageError(['call-all', '--client-id', 'a', '--idp-url', 'https://i.example', '--idp-client-id', 'me', 'https://a.example/mcp']), /needs --id-token and --idp-client-id/);
    assert.match(usageError(['call-all', '--id-token', 'i', '--idp-url', 'https://i.example', '--idp-client-id', 'me', 'https://a.example/mcp']), /--id-token needs --client-id/);
    assert.match(usageError(['call-all', '--client-id', 'a', '--id-token', 'i', '--idp-url', 'idp', '--idp-client-id', 'me', 'https://a.example/mcp']), /--idp-url is not a URL: idp/);
  });

  it('help: no words, -h or --help before --', () => {
    assert.equal(parseCallArgs([]), 'help');
    assert.equal(parseCallArgs(['call', '-h']), 'help');
    assert.equal(parseCallArgs(['--help']), 'help');
    assert.notEqual(parseCallArgs(['call', 'book', '--', 'node', 'server.js', '--help']), 'help');
  });

  it('refuses unknown options, missing values and values given to switches, in words that name the option', () => {
    assert.equal(usageError(['call', '--frobnicate', 'x', '--', 'node']), 'unknown option --frobnicate');
    assert.equal(usageError(['call', '-x', 'book', '--', 'node']), 'unknown option -x');
    assert.equal(usageError(['call', 'book', '--answers']), '--answers needs a value');
    assert.equal(usageError(['call', '--args', '--json', 'book', '--', 'node']), '--args needs a value (for a value that starts with "-", write --args=VALUE)');
    assert.equal(usageError(['call', '--json=yes', 'u', 'book']), '--json takes no value');
  });

  it('refuses what cannot be run, saying what is wrong', () => {
    assert.match(usageError(['call', '--args', '{', 'u', 'book']), /^--args is not valid JSON: /);
    assert.equal(usageError(['call', '--args', '[1]', 'u', 'book']), '--args must be a JSON object');
    assert.equal(usageError(['run', 'u']), 'unknown command "run"');
    assert.equal(usageError(['--json', '--', 'node']), 'a command (call or call-all) must come first');
    assert.equal(usageError(['call', 'book', '--']), 'a command must follow --');
    assert.equal(usageError(['call', '--decline', '--accept-defaults', 'u', 'book']), 'use only one of --answers, --accept-defaults and --decline');
    assert.equal(usageError(['call', 'u']), 'call takes a server URL and a tool name');
    assert.equal(usageError(['call-all', 'u', 'extra']), 'call-all takes a server URL');
    assert.equal(usageError(['call', '--', 'node']), 'call with a command takes one tool name: call <tool> -- <command>');
    assert.equal(usageError(['call-all', 'extra', '--', 'node']), 'unexpected extra');
  });
});
