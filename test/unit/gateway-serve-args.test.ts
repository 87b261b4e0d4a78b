import assert from 'node:assert/strict';
import { parseServeArgs, type ServeOptions, ServeUsageError } from '../../src/cli/serve-args';
import { serveDefinition } from '../../src/cli/serve-main';

describe('elicitation-host serve: arguments', () => {
  it('a command after --, with port, token and how to answer', () => {
    assert.deepEqual(parseServeArgs(['--port', '4711', '--token', 't', '--accept-defaults', '--', 'node', 'server.js', '--flag']), {
      target: { kind: 'stdio', command: 'node', args: ['server.js', '--flag'] },
      port: 4711,
      token: 't',
      acceptDefaults: true,
      decline: false,
      json: false,
    });
  });

  it('a URL', () => {
    const options = parseServeArgs(['--decline', 'http://127.0.0.1:3000/mcp']) as ServeOptions;
    assert.deepEqual(options.target, { kind: 'url', url: 'http://127.0.0.1:3000/mcp' });
    assert.equal(serveDefinition(options).name, '127.0.0.1:3000');
  });

  it('names a stdio server after its script, unless --name says otherwise', () => {
    assert.equal(serveDefinition(parseServeArgs(['--', 'node', '--inspect', 'dist/restaurant.js']) as ServeOptions).name, 'restaurant');
    assert.equal(serveDefinition(parseServeArgs(['--name', 'kitchen', '--', 'npx', 'some-server']) as ServeOptions).name, 'kitchen');
  });

  it('refuses what it cannot use, saying why', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--port', 'eighty', 'http://x'], /--port must be a port number/],
      [['--port', '70000', 'http://x'], /--port must be a port number/],
      [['--decline', '--accept-defaults', 'http://x'], /only one of/],
      [['--'], /a command must follow --/],
      [[], /one server URL/],
      [['not a url'], /is not a URL/],
      [['--bogus', 'http://x'], /unknown option --bogus/],
      [['--token'], /--token needs a value/],
    ];
    for (const [argv, message] of cases) assert.throws(() => parseServeArgs(argv), (e: Error) => e instanceof ServeUsageError && message.test(e.message), argv.join(' '));
    assert.equal(parseServeArgs(['--help']), 'help');
  });
});
