/**
 * Questions from outside VS Code's clients: `ask`'s and `acp-proxy`'s command lines, the
 * name `ask` shows for the command that ran it, the window's address in the environment,
 * and the gateway's reading of a `/ask` body (src/cli/ask-args.ts, acp-proxy-args.ts,
 * parent-command.ts, window-asker.ts; src/gateway/outside-question.ts).
 */
import { strict as assert } from 'node:assert';
import { parseAcpProxyArgs } from '../../src/cli/acp-proxy-args';
import { parseAskArgs } from '../../src/cli/ask-args';
import { UsageError } from '../../src/cli/exit-code';
import { commandName } from '../../src/cli/parent-command';
import { QuestionRefusedError, windowAddress } from '../../src/cli/window-asker';
import { AskBodyError, describeQuestionProblems, readAskBody } from '../../src/gateway/outside-question';

const CONFIRM = { mode: 'form', message: 'Go?', requestedSchema: { type: 'object', properties: {} } };

describe('questions from outside: ask, acp-proxy, /ask', () => {
  describe('ask arguments', () => {
    it('reads a confirm, a form and a link', () => {
      assert.deepEqual(parseAskArgs(['--confirm', 'Push to main?', '--destructive']), { kind: 'confirm', message: 'Push to main?', destructive: true });
      assert.deepEqual(parseAskArgs(['--schema', 'f.json', '--message', 'Sign in']), { kind: 'form', schemaFile: 'f.json', message: 'Sign in', destructive: false });
      assert.deepEqual(parseAskArgs(['--url=https://example.com/r', '--message=Review']), { kind: 'url', url: 'https://example.com/r', message: 'Review' });
      assert.equal(parseAskArgs([]), 'help');
      assert.equal(parseAskArgs(['-h']), 'help');
    });

    it('refuses what does not make one question, saying what to give', () => {
      const refusals: Array<[string[], RegExp]> = [
        [['--confirm', 'a', '--url', 'https://x'], /ask one thing/],
        [['--destructive'], /ask one thing/],
        [['--confirm', 'a', '--message', 'b'], /takes no --message/],
        [['--confirm', ' '], /needs the question/],
        [['--schema', 'f.json'], /--schema needs --message TEXT/],
        [['--url', 'https://x', '--message', 'm', '--destructive'], /not a link/],
        [['--confirm', 'Push', 'to', 'main?'], /unexpected to main\? \(quote the question/],
        [['--confirm'], /argument missing/],
        [['--colour', 'x'], /Unknown option '--colour'/],
      ];
      for (const [argv, expected] of refusals) assert.throws(() => parseAskArgs(argv), (e: Error) => e instanceof UsageError && expected.test(e.message), argv.join(' '));
    });
  });

  describe('acp-proxy arguments', () => {
    it('leaves the agent\'s command as it is, options included', () => {
      assert.deepEqual(parseAcpProxyArgs(['--', 'npx', '@agentclientprotocol/claude-agent-acp', '--answers', 'x']), { agent: { command: 'npx', args: ['@agentclientprotocol/claude-agent-acp', '--answers', 'x'] } });
      assert.deepEqual(parseAcpProxyArgs(['--answers', 'a.json', '--', 'gemini', '--acp']), {
        agent: { command: 'gemini', args: ['--acp'] },
        answering: { answersFile: 'a.json', acceptDefaults: false, decline: false },
      });
      assert.deepEqual(parseAcpProxyArgs(['--decline', '--', 'a']), { agent: { command: 'a', args: [] }, answering: { acceptDefaults: false, decline: true } });
    });

    it('refuses a missing command, stray words and two ways of answering', () => {
      assert.throws(() => parseAcpProxyArgs(['--decline']), /the agent's command must follow --/);
      assert.throws(() => parseAcpProxyArgs(['gemini', '--', 'x']), /unexpected gemini/);
      assert.throws(() => parseAcpProxyArgs(['--decline', '--accept-defaults', '--', 'x']), /only one of/);
      assert.equal(parseAcpProxyArgs(['--help', '--', 'x']), 'help');
    });
  });

  describe('the command that ran ask', () => {
    it('is the script an interpreter runs, else the program', () => {
      assert.equal(commandName(['/bin/sh', '.git/hooks/pre-push', 'origin', 'git@host:x']), 'pre-push');
      assert.equal(commandName(['/usr/bin/python3.12', '-u', '/home/a/deploy.py']), 'deploy.py');
      assert.equal(commandName(['node', '--enable-source-maps', 'scripts/release.mjs']), 'release.mjs');
      assert.equal(commandName(['make', '-j4', 'release']), 'make');
      assert.equal(commandName(['-bash']), 'bash');
      assert.equal(commandName(['/bin/bash', '-c', 'elicitation-host ask --confirm x']), 'bash');
      assert.equal(commandName(['/usr/bin/env', 'FOO=1', 'node', 'x.js']), 'node');
      assert.equal(commandName([]), undefined);
    });

    it("is the shell typed into, not the file VS Code's shell integration has it read first", () => {
      const scripts = '/root/.vscode-server/bin/abc/out/vs/workbench/contrib/terminal/common/scripts';
      assert.equal(commandName(['/bin/bash', '--init-file', `${scripts}/shellIntegration-bash.sh`]), 'bash');
      assert.equal(commandName(['/usr/bin/bash', '--login', '--init-file', `${scripts}/shellIntegration-bash.sh`]), 'bash');
      assert.equal(commandName(['/usr/bin/fish', '--init-command', `source "${scripts}/shellIntegration.fish"`]), 'fish');
      assert.equal(commandName(['bash', '--rcfile', '/etc/custom.rc', '-i']), 'bash');
      assert.equal(commandName(['bash', '-O', 'extglob', 'deploy.sh']), 'deploy.sh');
      assert.equal(commandName(['node', '-r', 'ts-node/register', 'scripts/release.ts']), 'release.ts');
    });
  });

  describe('the window in the environment', () => {
    it('is the gateway\'s /ask on this machine, with the token; none without both variables', () => {
      const address = windowAddress({ ELICITATION_HOST_MCP_URL: 'http://127.0.0.1:8765', ELICITATION_HOST_MCP_TOKEN: 't' });
      assert.equal(address?.url.href, 'http://127.0.0.1:8765/ask');
      assert.equal(windowAddress({ ELICITATION_HOST_MCP_URL: 'http://127.0.0.1:8765' }), undefined);
      assert.equal(windowAddress({}), undefined);
    });

    it('never sends the token elsewhere', () => {
      for (const url of ['https://127.0.0.1:8765', 'http://10.0.0.2:8765', 'http://127.0.0.1.evil.example', 'not a url']) {
        assert.throws(() => windowAddress({ ELICITATION_HOST_MCP_URL: url, ELICITATION_HOST_MCP_TOKEN: 't' }), QuestionRefusedError, url);
      }
    });
  });

  describe('a /ask body', () => {
    it('shows who asks as "Terminal: <name>", whatever the name claims', () => {
      assert.deepEqual(readAskBody({ from: 'git', question: CONFIRM }).source, { server: 'Terminal: git' });
      assert.deepEqual(readAskBody({ from: 'Extension: Copilot', question: CONFIRM }).source.server, 'Terminal: Extension: Copilot');
      assert.deepEqual(readAskBody({ from: 'claude-agent-acp', agent: true, tool: 'Bash', session: 'fix', question: CONFIRM }).source, {
        server: 'Terminal: claude-agent-acp', requester: 'agent', tool: 'Bash', session: 'fix',
      });
    });

    it('a destructive form is the person\'s own call (a modal); a link is never destructive', () => {
      assert.deepEqual(readAskBody({ from: 'git', destructive: true, question: CONFIRM }).source, { server: 'Terminal: git', destructive: true, personStarted: true });
      assert.deepEqual(readAskBody({ from: 'git', destructive: true, question: { mode: 'url', message: 'm', url: 'https://x' } }).source, { server: 'Terminal: git' });
    });

    it('takes the params of an elicitation/create, form (mode optional) or url', () => {
      assert.deepEqual(readAskBody({ from: 'a', question: { message: 'm', requestedSchema: { type: 'object' } } }).params, { mode: 'form', message: 'm', requestedSchema: { type: 'object' } });
      assert.deepEqual(readAskBody({ from: 'a', question: { mode: 'url', message: 'm', url: 'https://x', elicitationId: 'e' } }).params, { mode: 'url', message: 'm', url: 'https://x', elicitationId: 'e' });
    });

    it('names the field at fault', () => {
      const refusals: Array<[unknown, string]> = [
        [[], 'the body must be a JSON object with "from" and "question"'],
        [{ from: 3, question: CONFIRM }, 'from must be a string: the name of the command asking'],
        [{ from: '\u202e\u200b', question: CONFIRM }, 'from must name the command asking in visible text'],
        [{ from: 'a', tool: 1, question: CONFIRM }, 'tool must be a string'],
        [{ from: 'a', agent: 'yes', question: CONFIRM }, 'agent must be true or false'],
        [{ from: 'a', question: 'go?' }, 'question must be an object: the params of an elicitation/create'],
        [{ from: 'a', question: { requestedSchema: {} } }, 'question.message must be a string'],
        [{ from: 'a', question: { mode: 'url', message: 'm', url: 'https://x', elicitationId: 2 } }, 'question.elicitationId must be a string'],
      ];
      for (const [body, message] of refusals) assert.throws(() => readAskBody(body), (e: Error) => e instanceof AskBodyError && e.message === message, message);
    });

    it('says where a schema problem is in the body', () => {
      assert.equal(
        describeQuestionProblems([{ path: 'properties.a', message: 'nested' }, { path: 'requestedSchema.type', message: 'must be "object"' }, { path: 'message', message: 'too long' }]),
        'question.requestedSchema.properties.a: nested; question.requestedSchema.type: must be "object"; question.message: too long',
      );
    });
  });
});
