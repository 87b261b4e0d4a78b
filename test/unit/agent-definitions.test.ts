/**
 * The agents setting read and checked, where each agent came from (a workspace's runs only
 * once trusted), the mode a new session starts in, and Add Agent's command line split as a
 * shell would (without expanding anything).
 */
import { strict as assert } from 'node:assert';
import { agentsInSettingsText, readAgents, SETTINGS_FILE_LIMIT, startMode } from '../../src/ui/agents/agent-definitions';
import { splitCommandLine } from '../../src/ui/agents/command-line';
import { ACP_AGENT_CATALOG } from '../../src/ui/agents/acp-agent-catalog';

const CLAUDE_MODES = [
  { id: 'default', name: 'Manual' },
  { id: 'acceptEdits', name: 'Accept edits' },
  { id: 'plan', name: 'Plan' },
  { id: 'auto', name: 'Auto' },
  { id: 'bypassPermissions', name: 'Bypass permissions' },
];

describe('the agents setting', () => {
  it("reads a workspace's agents out of its settings files as data (comments, trailing commas), for the view before trust", () => {
    const folder = `{
      // The repository's own agent
      "editor.tabSize": 2,
      "elicitationHost.agents": { "repo-agent": { "command": "node", "args": ["agent.js"], }, },
    }`;
    assert.deepEqual(agentsInSettingsText(folder, 'folder'), { 'repo-agent': { command: 'node', args: ['agent.js'] } });
    const workspace = '{ "folders": [{ "path": "." }], "settings": { "elicitationHost.agents": { "w": { "command": "w" } } } }';
    assert.deepEqual(agentsInSettingsText(workspace, 'workspace'), { w: { command: 'w' } });
    assert.equal(agentsInSettingsText(workspace, 'folder'), undefined, "a workspace file's settings are under settings");
    assert.equal(agentsInSettingsText('{ "editor.tabSize": 2 }', 'folder'), undefined);
    assert.equal(agentsInSettingsText('not json at all {', 'folder'), undefined);
    assert.equal(agentsInSettingsText(`{ "elicitationHost.agents": { "x": { "command": "${'x'.repeat(SETTINGS_FILE_LIMIT)}" } } }`, 'folder'), undefined, 'too large: not read');
    // VS Code's value tree puts the sibling setting agents.startInAskingMode inside this object: it is no agent.
    assert.deepEqual(readAgents({ startInAskingMode: false, c: { command: 'c' } }, undefined), { agents: [{ definition: { name: 'c', command: 'c', args: [] }, fromWorkspace: false }], problems: [] });
    // What it read is checked as any workspace value is: the agent waits for trust.
    const { agents } = readAgents(undefined, agentsInSettingsText(folder, 'folder'));
    assert.deepEqual(agents.map((a) => [a.definition.name, a.fromWorkspace]), [['repo-agent', true]]);
  });

  it('reads user and workspace agents; a workspace entry is the workspace’s, even one that changes a user agent', () => {
    const { agents, problems } = readAgents(
      { claude: { command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'] }, gemini: { command: 'gemini', args: ['--acp'], mode: 'default' } },
      { gemini: { command: './evil.sh' }, local: { command: 'node', args: ['agent.js'], env: { TOKEN: null, A: 'b' } } },
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(
      agents.map((a) => [a.definition.name, a.definition.command, a.fromWorkspace, a.mode]),
      [
        ['claude', 'npx', false, undefined],
        ['gemini', './evil.sh', true, undefined],
        ['local', 'node', true, undefined],
      ],
    );
    assert.deepEqual(agents[2].definition.env, { TOKEN: null, A: 'b' });
  });

  it('each problem names the agent and the field; a broken entry hides no good one', () => {
    const { agents, problems } = readAgents({ ok: { command: 'x' }, nocmd: { args: [] }, badargs: { command: 'x', args: 'a b' }, badenv: { command: 'x', env: { A: 1 } }, 'bad/name': { command: 'x' }, badmode: { command: 'x', mode: 3 } }, 'not an object');
    assert.deepEqual(
      agents.map((a) => a.definition.name),
      ['ok'],
    );
    assert.deepEqual(problems, [
      'Agent "nocmd": "command" must be a non-empty string.',
      'Agent "badargs": "args" must be a list of strings.',
      'Agent "badenv": "env" must map names to strings (or null to remove one).',
      'Agent "bad/name": a name is letters, digits, spaces, ".", "-" or "_", at most 64.',
      'Agent "badmode": "mode" must be the id of one of the agent\'s modes.',
      'elicitationHost.agents (workspace settings) must be an object of agents by name.',
    ]);
  });

  it('a new session starts in the mode that asks (Claude Code: Manual, not its Auto), unless the person chose', () => {
    assert.equal(startMode(undefined, true, CLAUDE_MODES, 'auto'), 'default');
    assert.equal(startMode(undefined, true, CLAUDE_MODES, 'default'), undefined, 'already there');
    assert.equal(startMode(undefined, false, CLAUDE_MODES, 'auto'), undefined, "the agent's own default");
    assert.equal(startMode('plan', true, CLAUDE_MODES, 'auto'), 'plan');
    assert.equal(startMode(undefined, true, [{ id: 'yolo', name: 'YOLO' }, { id: 'ask-me', name: 'Ask' }], 'yolo'), 'ask-me');
    assert.equal(startMode(undefined, true, [{ id: 'a', name: 'Fast' }], 'a'), undefined, 'no asking mode offered');
  });
});

describe("Add Agent's command line", () => {
  it('splits as a shell does, expanding nothing', () => {
    assert.deepEqual(splitCommandLine('npx -y @agentclientprotocol/claude-agent-acp'), ['npx', '-y', '@agentclientprotocol/claude-agent-acp']);
    assert.deepEqual(splitCommandLine(`my-agent --name "two words" 'single $HOME' a\\ b ""`), ['my-agent', '--name', 'two words', 'single $HOME', 'a b', '']);
    assert.deepEqual(splitCommandLine('  $HOME/bin/agent   *.ts '), ['$HOME/bin/agent', '*.ts']);
    assert.throws(() => splitCommandLine('agent "open'), /unclosed double quote/);
  });

  it('every known agent has a name the setting accepts', () => {
    const { agents, problems } = readAgents(Object.fromEntries(ACP_AGENT_CATALOG.map((k) => [k.name, { command: k.command, args: k.args }])), undefined);
    assert.deepEqual(problems, []);
    assert.equal(agents.length, ACP_AGENT_CATALOG.length);
  });
});
