import assert from 'node:assert/strict';
import { assignPaths, pathSegment } from '../../src/gateway/server-paths';

describe('gateway paths', () => {
  it('a server is served under its name made URL-safe', () => {
    assert.equal(pathSegment('restaurant'), 'restaurant');
    assert.equal(pathSegment('My Tools / v2'), 'My-Tools-v2');
    assert.equal(pathSegment('../../etc'), 'etc');
    assert.equal(pathSegment('☕'), 'server');
  });

  it('servers whose names come out the same are told apart, the same way every time', () => {
    const servers = [
      { id: '/w/.vscode/mcp.json#github', name: 'github' },
      { id: 'user#github', name: 'GitHub' },
      { id: 'user#docs', name: 'docs' },
    ];
    const paths = assignPaths(servers);
    assert.deepEqual(Object.fromEntries(paths), { '/w/.vscode/mcp.json#github': 'github', 'user#github': 'GitHub-2', 'user#docs': 'docs' });
    assert.deepEqual(assignPaths([...servers].reverse()), paths);
  });
});
