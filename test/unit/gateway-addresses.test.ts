import { strict as assert } from 'node:assert';
import type { ConfigSource } from '../../src/mcp/config/config';
import { gatewayAddresses } from '../../src/ui/views/gateway-addresses';

const SETTINGS: ConfigSource = { kind: 'user' };
const COPILOT: ConfigSource = { kind: 'user', file: '/home/me/.copilot/mcp-config.json', format: 'portable' };
const DOT_MCP: ConfigSource = { kind: 'workspace', file: '/a/repo/.mcp.json', folder: '/a/repo', format: 'portable' };

function entry(name: string, source: ConfigSource, blocked?: string) {
  return { id: `${source.file ?? 'user'}#${name}`, definition: { name, source }, blocked };
}

describe("the Servers view's gateway addresses", () => {
  it("a workspace's namesake of the person's server says it is suffixed, and whose the plain address is", () => {
    const addresses = gatewayAddresses([entry('github', DOT_MCP), entry('github', SETTINGS), entry('docs', DOT_MCP)]);
    const repo = addresses.get('/a/repo/.mcp.json#github')!;
    assert.equal(repo.path, '/mcp/github-2');
    assert.equal(repo.moved, 'at /mcp/github-2');
    assert.equal(repo.line, 'Gateway address: /mcp/github-2, not /mcp/github: that one is your own "github" (user settings). Agents set up for it do not reach this server.');
    const own = addresses.get('user#github')!;
    assert.equal(own.path, '/mcp/github');
    assert.equal(own.moved, undefined);
    assert.equal(own.line, `Gateway address: /mcp/github, kept for this server: the workspace's "github" (.mcp.json) is at /mcp/github-2.`);
    assert.deepEqual(addresses.get('/a/repo/.mcp.json#docs'), { path: '/mcp/docs', line: 'Gateway address: /mcp/docs' });
  });

  it("the person's file outside the workspace counts as theirs; a server held back by trust has no address and takes none", () => {
    const addresses = gatewayAddresses([entry('notes', DOT_MCP), entry('notes', COPILOT), entry('tools', SETTINGS), entry('tools', DOT_MCP, 'Workspace not trusted')]);
    assert.equal(addresses.get('/home/me/.copilot/mcp-config.json#notes')?.path, '/mcp/notes');
    assert.match(addresses.get('/a/repo/.mcp.json#notes')!.line, /not \/mcp\/notes: that one is your own "notes" \(\.copilot\/mcp-config\.json\)/);
    assert.equal(addresses.get('/a/repo/.mcp.json#tools'), undefined);
    assert.deepEqual(addresses.get('user#tools'), { path: '/mcp/tools', line: 'Gateway address: /mcp/tools' });
  });
});
