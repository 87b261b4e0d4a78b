// The same extension-host suite (test/e2e/suite) on desktop VS Code, for machines that can
// download it: `npm run test:desktop`. (Here, VS Code comes from code-server instead: npm run test:e2e.)
import { defineConfig } from '@vscode/test-cli';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const fixtures = resolve('out/fixtures');
const userData = mkdtempSync(join(tmpdir(), 'eh-desktop-'));
mkdirSync(join(userData, 'User'), { recursive: true });
writeFileSync(
  join(userData, 'User', 'settings.json'),
  JSON.stringify({
    'chat.mcp.autostart': 'never',
    'elicitationHost.servers': {
      'user-fixture': { type: 'stdio', command: process.execPath, args: [join(fixtures, 'stdio.js'), '--name', 'user-fixture', '--only', 'echo,book_restaurant'] },
    },
    'elicitationHost.autoStart': ['*'],
  }),
);

// A copy of the workspace: the suite edits its mcp.json.
const workspace = join(userData, 'workspace');
cpSync('test/e2e/workspace', workspace, { recursive: true });

export default defineConfig({
  files: 'out/e2e-suite/*.test.js',
  version: '1.103.2',
  workspaceFolder: workspace,
  launchArgs: ['--disable-workspace-trust', '--user-data-dir', userData],
  env: { ELICITATION_HOST_FIXTURES: fixtures, ELICITATION_HOST_EXPECT_TRUSTED: 'true', FIXTURE_RECORD: '/dev/null' },
  mocha: { ui: 'bdd', timeout: 60000 },
});
