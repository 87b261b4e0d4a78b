/**
 * `elicitation-host acp`'s command line, the name it shows for the agent, and its
 * permission rules (src/cli/acp-args.ts, acp-main.ts, acp-permissions.ts).
 */
import { strict as assert } from 'node:assert';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { parseAcpArgs } from '../../src/cli/acp-args';
import { agentName } from '../../src/cli/agent-argv';
import { permissionPolicy, readRules } from '../../src/cli/acp-permissions';

const request = (kind: 'edit' | 'execute', title: string): RequestPermissionRequest => ({
  sessionId: 's',
  toolCall: { toolCallId: 't', kind, title },
  options: [
    { optionId: 'once', name: 'Allow', kind: 'allow_once' },
    { optionId: 'always', name: 'Always', kind: 'allow_always' },
    { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  ],
});

describe('elicitation-host acp: arguments, names, permission rules', () => {
  it('reads its options and leaves the agent\'s command as it is', () => {
    const options = parseAcpArgs(['--prompt', 'hi', '--mode', 'default', '--config', 'model=opus', '--config', 'effort=high', '--json', '--', 'gemini', '--acp', '--prompt', 'x']);
    assert.ok(options !== 'help');
    assert.deepEqual(options.agent, { command: 'gemini', args: ['--acp', '--prompt', 'x'] });
    assert.deepEqual(options.config, [{ id: 'model', value: 'opus' }, { id: 'effort', value: 'high' }]);
    assert.equal(options.mode, 'default');
    assert.deepEqual(options.prompt, { text: 'hi' });
  });

  it('refuses what it cannot run, saying why', () => {
    assert.throws(() => parseAcpArgs(['--prompt', 'hi']), /the agent's command must follow --/);
    assert.throws(() => parseAcpArgs(['--', 'gemini']), /give the prompt once/);
    assert.throws(() => parseAcpArgs(['--prompt', 'a', '--prompt-file', 'f', '--', 'x']), /give the prompt once/);
    assert.throws(() => parseAcpArgs(['--prompt', 'a', '--config', 'model', '--', 'x']), /--config takes ID=VALUE/);
    assert.throws(() => parseAcpArgs(['--prompt', 'a', '--decline', '--accept-defaults', '--', 'x']), /only one of/);
    assert.equal(parseAcpArgs(['--help']), 'help');
  });

  it('names the agent by its command, its package, or its script', () => {
    assert.equal(agentName('gemini', ['--acp']), 'gemini');
    assert.equal(agentName('node', ['/r/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js']), 'claude-agent-acp');
    assert.equal(agentName('npx', ['@agentclientprotocol/codex-acp']), 'codex-acp');
    assert.equal(agentName('node', ['./agent.js']), 'agent.js');
  });

  it('answers permissions by rule: allow, deny, title before kind before "*"; others are asked', () => {
    assert.deepEqual(permissionPolicy('allow')(request('execute', 'ls')), { outcome: 'selected', optionId: 'once' });
    assert.deepEqual(permissionPolicy('deny')(request('edit', 'x')), { outcome: 'selected', optionId: 'no' });
    const rules = permissionPolicy(readRules({ 'rm -rf build': 'reject_once', execute: 'allow_once', edit: 'allow_always' }));
    assert.deepEqual(rules(request('execute', 'rm -rf build')), { outcome: 'selected', optionId: 'no' });
    assert.deepEqual(rules(request('execute', 'ls')), { outcome: 'selected', optionId: 'once' });
    assert.deepEqual(rules(request('edit', 'a.txt')), { outcome: 'selected', optionId: 'always' });
    assert.equal(permissionPolicy(readRules({ edit: 'allow_once' }))(request('execute', 'ls')), undefined);
    // A kind the agent does not offer denies.
    assert.deepEqual(permissionPolicy(readRules({ '*': 'reject_always' }))(request('edit', 'a')), { outcome: 'selected', optionId: 'no' });
    assert.throws(() => readRules({ edit: 'yes' }), /"edit" maps to "yes", not one of allow_once/);
  });
});
