import assert from 'node:assert/strict';
import { assignPaths, pathSegment, plainHolder } from '../../src/gateway/server-paths';

describe('gateway paths', () => {
  it('a server is served under its name made URL-safe', () => {
    assert.equal(pathSegment('restaurant'), 'restaurant');
    assert.equal(pathSegment('My Tools / v2'), 'My-Tools-v2');
    assert.equal(pathSegment('../../etc'), 'etc');
    assert.equal(pathSegment('☕'), 'server');
  });

  it('servers whose names come out the same are told apart, the same way every time', () => {
    const servers = [
      { id: '/w/.vscode/mcp.json#docs', name: 'docs', origin: 'workspace' as const },
      { id: '/w/.mcp.json#Docs', name: 'Docs', origin: 'workspace' as const },
      { id: 'user#tools', name: 'tools', origin: 'settings' as const },
    ];
    const paths = assignPaths(servers);
    assert.deepEqual(Object.fromEntries(paths), { '/w/.mcp.json#Docs': 'Docs', '/w/.vscode/mcp.json#docs': 'docs-2', 'user#tools': 'tools' });
    assert.deepEqual(assignPaths([...servers].reverse()), paths);
  });

  it("the person's own server keeps its name's plain address; a workspace's namesake is suffixed, whichever id sorts first", () => {
    // A trusted repository's "github" (its id a path, which sorts before "user#") and the person's own.
    const servers = [
      { id: '/a/repo/.mcp.json#github', name: 'github', origin: 'workspace' as const },
      { id: '/a/repo/.vscode/mcp.json#github', name: 'GitHub', origin: 'workspace' as const },
      { id: '/home/me/.copilot/mcp-config.json#github', name: 'github', origin: 'own-file' as const },
      { id: 'user#github', name: 'github', origin: 'settings' as const },
      { id: '/home/me/.copilot/mcp-config.json#notes', name: 'notes', origin: 'own-file' as const },
      { id: '/a/repo/.mcp.json#notes', name: 'notes', origin: 'workspace' as const },
    ];
    const paths = assignPaths(servers);
    assert.deepEqual(Object.fromEntries(paths), {
      'user#github': 'github',
      '/home/me/.copilot/mcp-config.json#github': 'github-2',
      '/a/repo/.mcp.json#github': 'github-3',
      '/a/repo/.vscode/mcp.json#github': 'GitHub-4',
      '/home/me/.copilot/mcp-config.json#notes': 'notes',
      '/a/repo/.mcp.json#notes': 'notes-2',
    });
    assert.deepEqual(assignPaths([...servers].reverse()), paths);
    // Said for the one that moved: who holds the plain address.
    assert.equal(plainHolder(servers, paths, '/a/repo/.mcp.json#github')?.id, 'user#github');
    assert.equal(plainHolder(servers, paths, '/a/repo/.mcp.json#notes')?.id, '/home/me/.copilot/mcp-config.json#notes');
    assert.equal(plainHolder(servers, paths, 'user#github'), undefined);
  });
});
