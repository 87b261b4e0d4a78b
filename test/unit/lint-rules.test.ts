/**
 * Lint holds the layers of ARCHITECTURE.md and the one way to show text: each forbidden
 * import or call, linted as a file in the place it is forbidden, fails; the same line
 * where it is allowed passes. ESLint's own Node API on virtual files, with the project's
 * configuration.
 */
import { strict as assert } from 'node:assert';
import { ESLint } from 'eslint';
import { REPO } from '../support/servers';

let eslint: ESLint;

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

async function assertFails(filePath: string, code: string, rule: string): Promise<void> {
  const ids = await ruleIds(filePath, code);
  assert.ok(ids.includes(rule), `${filePath}: \`${code.trim()}\` should fail ${rule}; got ${JSON.stringify(ids)}`);
}

async function assertPasses(filePath: string, code: string, rule: string): Promise<void> {
  const ids = await ruleIds(filePath, code);
  assert.ok(!ids.includes(rule), `${filePath}: \`${code.trim()}\` should pass ${rule}; got ${JSON.stringify(ids)}`);
}

const use = (what: string): string => `${what}\nexport const used = [x];\n`;

describe('lint holds the layers', function () {
  this.timeout(60_000);
  before(() => {
    eslint = new ESLint({ cwd: REPO });
  });

  const forbidden: Array<[file: string, importLine: string, why: string]> = [
    ['src/mcp/virtual.ts', "import * as x from 'vscode';", 'no vscode in src/mcp'],
    ['src/cli/virtual.ts', "import * as x from 'vscode';", 'no vscode in src/cli'],
    ['src/gateway/virtual.ts', "import * as x from 'vscode';", 'no vscode in src/gateway'],
    ['src/gateway/virtual.ts', "import { x } from '../ui/text';", 'nothing of src/ui in src/gateway'],
    ['src/gateway/virtual.ts', "import { x } from '../cli/args';", 'nothing of src/cli in src/gateway'],
    ['src/gateway/virtual.ts', "import { x } from '../extension';", 'nothing of src/extension.ts in src/gateway'],
    ['src/mcp/virtual.ts', "import { x } from '../ui/text';", 'nothing of src/ui in src/mcp'],
    ['src/mcp/virtual.ts', "import { x } from '../gateway/server';", 'nothing of src/gateway in src/mcp'],
    ['src/mcp/virtual.ts', "import { x } from '../cli/args';", 'nothing of src/cli in src/mcp'],
    ['src/cli/virtual.ts', "import { x } from '../ui/text';", 'nothing of src/ui in src/cli'],
    ['src/acp/virtual.ts', "import * as x from 'vscode';", 'no vscode in src/acp'],
    ['src/acp/virtual.ts', "import { x } from '../ui/text';", 'nothing of src/ui in src/acp'],
    ['src/acp/virtual.ts', "import { x } from '../cli/args';", 'nothing of src/cli in src/acp'],
    ['src/acp/virtual.ts', "import { x } from '../gateway/gateway';", 'nothing of src/gateway in src/acp'],
    ['src/acp/virtual.ts', "import { x } from '../gateway/permission-question';", 'nothing of src/gateway in src/acp, its permission question neither (one model, in src/elicitation)'],
    ['src/mcp/virtual.ts', "import { x } from '../acp/agent-client';", 'nothing of src/acp in src/mcp'],
    ['src/gateway/virtual.ts', "import { x } from '../acp/agent-client';", 'nothing of src/acp in src/gateway'],
    ['src/ahp/virtual.ts', "import * as x from 'vscode';", 'no vscode in src/ahp'],
    ['src/ahp/virtual.ts', "import { x } from '../ui/text';", 'nothing of src/ui in src/ahp'],
    ['src/ahp/virtual.ts', "import { x } from '../mcp/errors';", 'nothing of src/mcp in src/ahp'],
    ['src/ahp/virtual.ts', "import { x } from '../gateway/gateway';", 'nothing of src/gateway in src/ahp'],
    ['src/ahp/virtual.ts', "import { x } from '../acp/agent-client';", 'nothing of src/acp in src/ahp'],
    ['src/ahp/virtual.ts', "import { x } from '../acp/permission';", 'nothing of src/acp in src/ahp, its permission neither (one permission, in src/elicitation)'],
    ['src/ahp/virtual.ts', "import type { x } from '@agentclientprotocol/sdk';", 'no ACP types in src/ahp'],
    ['src/ahp/virtual.ts', "import { x } from '../cli/args';", 'nothing of src/cli in src/ahp'],
    ['src/mcp/virtual.ts', "import { x } from '../ahp/inbox';", 'nothing of src/ahp in src/mcp'],
    ['src/gateway/virtual.ts', "import { x } from '../ahp/inbox';", 'nothing of src/ahp in src/gateway'],
    ['src/acp/virtual.ts', "import { x } from '../ahp/inbox';", 'nothing of src/ahp in src/acp'],
    ['src/elicitation/virtual.ts', "import { x } from '../ahp/wire/input-request';", 'nothing of src/ahp in src/elicitation'],
    ['src/elicitation/virtual.ts', "import * as x from 'vscode';", 'no vscode in src/elicitation'],
    ['src/elicitation/virtual.ts', "import { x } from '../ui/text';", 'nothing of src/ui in src/elicitation'],
    ['src/elicitation/virtual.ts', "import { x } from '../mcp/config';", 'nothing of src/mcp in src/elicitation'],
    ['src/elicitation/virtual.ts', "import { x } from 'node:fs';", 'no I/O in src/elicitation'],
    ['src/shared/virtual.ts', "import { x } from '../ui/text';", 'nothing of src/ui in src/shared'],
    ['src/shared/virtual.ts', "import { x } from '../mcp/config';", 'nothing of src/mcp in src/shared'],
    ['src/shared/virtual.ts', "import * as x from 'vscode';", 'no vscode in src/shared'],
    ['src/shared/virtual.ts', "import { x } from '../elicitation/validation';", 'nothing of src/elicitation in src/shared but the model'],
    ['src/shared/virtual.ts', "import { TEXT_FORMATS } from '../elicitation/model';", "only the model's types in src/shared, no value"],
    ['src/shared/virtual.ts', "import { x } from 'node:fs';", 'no I/O in src/shared'],
    ['src/base/virtual.ts', "import { x } from '../elicitation/model';", 'src/base imports nothing (not even the model)'],
    ['src/base/virtual.ts', "import type { x } from '../elicitation/model';", 'src/base imports nothing (not even types)'],
    ['src/base/virtual.ts', "import { x } from 'node:events';", 'src/base imports nothing (not even Node)'],
    ['webview/virtual.ts', "import { x } from '../src/ui/text';", 'nothing of src/ui in webview'],
    ['src/ui/webview/page-html.ts', "import * as x from 'vscode';", "no vscode in a page's HTML (the page tests load it without VS Code)"],
    ['webview/virtual.ts', "import { x } from '../src/mcp/config';", 'nothing of src/mcp in webview'],
    ['webview/virtual.ts', "import * as x from 'vscode';", 'no vscode in webview'],
    ['webview/virtual.ts', "import x from 'ajv';", 'no ajv in webview'],
    ['webview/virtual.ts', "import { x } from '../src/elicitation/schema-check';", 'no schema-check in webview'],
    ['src/api/virtual.ts', "import * as x from 'vscode';", "only VS Code's types in src/api"],
    ['src/api/virtual.ts', "import { x } from '../ui/notify';", 'nothing of src/ui in src/api'],
    ['src/api/virtual.ts', "import { x } from '../gateway/gateway';", 'nothing of src/gateway in src/api'],
    ['src/elicitation/virtual.ts', "import type { x } from '../../elicitation-host';", 'the published API file in src/elicitation (the core has its own words: live-model.ts)'],
    ['src/ahp/virtual.ts', "import type { x } from '../../elicitation-host';", 'the published API file in src/ahp (its own wire types)'],
    ['src/ui/views/virtual.ts', "import type { x } from '../../../elicitation-host';", 'the published API file in src/ui'],
    ['src/mcp/virtual.ts', "import type { x } from '../../elicitation-host';", 'the published API file in src/mcp'],
  ];
  for (const [file, line, why] of forbidden) {
    it(`fails: ${why}`, () => assertFails(file, use(line), 'no-restricted-imports'));
  }

  it('fails: nothing of the extension proper in src/ui', () => assertFails('src/ui/virtual.ts', use("import { x } from '../extension-main';"), 'no-restricted-imports'));

  // The bench hooks in through the extension proper's port (MainHooks, bench/extension-main.ts); activation is the top.
  it('the product imports nothing of its bench or its tests, and nothing imports activation', async () => {
    await assertFails('src/extension-main.ts', use("import { x } from '../bench/extension-hooks';"), 'no-restricted-imports');
    await assertFails('src/extension.ts', use("import type { x } from '../bench/extension-hooks';"), 'no-restricted-imports');
    await assertFails('src/ui/prompts/virtual.ts', use("import { x } from '../../../test/support/servers';"), 'no-restricted-imports');
    await assertFails('src/mcp/connection/tasks/virtual.ts', use("import { x } from '../../../../bench/extension-hooks';"), 'no-restricted-imports');
    await assertFails('webview/virtual.ts', use("import { x } from '../bench/extension-hooks';"), 'no-restricted-imports');
    await assertFails('src/extension-main.ts', use("import type { x } from './extension';"), 'no-restricted-imports');
    await assertFails('src/api/virtual.ts', use("import type { x } from '../extension';"), 'no-restricted-imports');
    await assertPasses('src/extension-main.ts', use("import type { x } from './stand-ins';"), 'no-restricted-imports');
    await assertPasses('bench/virtual.ts', use("import { x } from '../src/extension-main';"), 'no-restricted-imports');
  });

  // dist/extension.js is what VS Code times: its stand-ins only; the rest is required after the activate call.
  it('activation imports its stand-ins and vscode, and only types of the rest', async () => {
    await assertFails('src/extension.ts', use("import { x } from './mcp/servers/manager';"), '@typescript-eslint/no-restricted-imports');
    await assertFails('src/extension.ts', use("import { x } from './extension-main';"), '@typescript-eslint/no-restricted-imports');
    await assertPasses('src/extension.ts', use("import type { x } from './mcp/servers/manager';"), '@typescript-eslint/no-restricted-imports');
    await assertPasses('src/extension.ts', use("import { x } from './ui/deferred';"), '@typescript-eslint/no-restricted-imports');
    await assertPasses('src/extension.ts', use("import * as x from 'vscode';"), '@typescript-eslint/no-restricted-imports');
  });

  it('the same imports pass where the layers allow them', async () => {
    await assertPasses('src/ui/virtual.ts', use("import * as x from 'vscode';"), 'no-restricted-imports');
    await assertPasses('src/ui/virtual.ts', use("import { x } from '../mcp/config';"), 'no-restricted-imports');
    await assertPasses('src/cli/virtual.ts', use("import { x } from '../mcp/config';"), 'no-restricted-imports');
    await assertPasses('src/gateway/virtual.ts', use("import { x } from '../mcp/config';"), 'no-restricted-imports');
    await assertPasses('src/cli/virtual.ts', use("import { x } from '../gateway/server';"), 'no-restricted-imports');
    await assertPasses('src/acp/virtual.ts', use("import { x } from '../mcp/errors';"), 'no-restricted-imports');
    await assertPasses('src/acp/virtual.ts', use("import { x } from '../elicitation/permission-text';"), 'no-restricted-imports');
    await assertPasses('src/acp/virtual.ts', use("import { x } from '@agentclientprotocol/sdk';"), 'no-restricted-imports');
    await assertPasses('src/cli/virtual.ts', use("import { x } from '../acp/agent-client';"), 'no-restricted-imports');
    await assertPasses('src/ahp/virtual.ts', use("import { x } from '../elicitation/permission';"), 'no-restricted-imports');
    await assertPasses('src/ahp/virtual.ts', use("import { x } from '../elicitation/live-ask';"), 'no-restricted-imports');
    await assertPasses('src/ahp/virtual.ts', use("import WebSocket from 'ws';"), 'no-restricted-imports');
    await assertPasses('src/cli/virtual.ts', use("import { x } from '../ahp/inbox';"), 'no-restricted-imports');
    await assertPasses('src/ui/virtual.ts', use("import { x } from '../ahp/inbox';"), 'no-restricted-imports');
    await assertPasses('src/ui/virtual.ts', use("import { x } from '../acp/agent-client';"), 'no-restricted-imports');
    await assertPasses('src/mcp/virtual.ts', use("import { x } from '../elicitation/schema';"), 'no-restricted-imports');
    await assertPasses('webview/virtual.ts', use("import { x } from '../src/elicitation/validation';"), 'no-restricted-imports');
    await assertPasses('webview/virtual.ts', use("import { x } from 'ajv-formats/dist/formats';"), 'no-restricted-imports');
    await assertPasses('src/shared/virtual.ts', use("import type { x } from '../elicitation/model';"), 'no-restricted-imports');
    await assertPasses('src/api/virtual.ts', use("import type { CancellationToken } from 'vscode';"), 'no-restricted-imports');
    await assertPasses('src/api/virtual.ts', use("import { x } from '../mcp/servers/manager';"), 'no-restricted-imports');
    await assertPasses('src/api/virtual.ts', use("import type { x } from '../../elicitation-host';"), 'no-restricted-imports');
    await assertPasses('src/shared/virtual.ts', use("import { x } from '../base/is-record';"), 'no-restricted-imports');
    await assertPasses('src/shared/virtual.ts', use("import { x } from './protocol';"), 'no-restricted-imports');
    await assertPasses('src/elicitation/virtual.ts', use("import { x } from '../base/once';"), 'no-restricted-imports');
    await assertPasses('webview/virtual.ts', use("import { x } from '../src/base/is-record';"), 'no-restricted-imports');
  });
});

describe('lint holds the rooms inside src/mcp and src/ui', function () {
  this.timeout(60_000);
  before(() => {
    eslint = new ESLint({ cwd: REPO });
  });

  const forbidden: Array<[file: string, importLine: string, why: string]> = [
    ['src/mcp/config/virtual.ts', "import { x } from '../connection/connection';", 'configuration does not reach a connection'],
    ['src/mcp/config/virtual.ts', "import { x } from '../ports';", "configuration does not reach the connection layer's ports"],
    ['src/mcp/sdk/virtual.ts', "import { x } from '../config/config';", 'the SDK bundle reaches nothing of src/mcp'],
    ['src/mcp/sign-in/virtual.ts', "import { x } from '../config/config';", 'sign-in and configuration are one level'],
    ['src/mcp/connection/virtual.ts', "import { x } from '../servers/manager';", 'a connection does not reach the manager'],
    ['src/mcp/virtual.ts', "import { x } from './connection/connection';", "the connection layer's ports do not reach a connection"],
    ['src/mcp/connection/virtual.ts', "import { x } from './tasks/port';", "a connection enters MCP Tasks' room through its way in (tasks/tasks) alone"],
    ['src/mcp/connection/tasks/virtual.ts', "import { x } from '../connection';", 'MCP Tasks do not reach the connection that uses them'],
    ['src/mcp/connection/tasks/virtual.ts', "import { x } from '../calls';", "MCP Tasks do not reach the connection's calls, which use them"],
    ['src/mcp/connection/tasks/virtual.ts', "import { x } from '../../servers/manager';", 'MCP Tasks do not reach the manager'],
    ['src/mcp/connection/tasks/virtual.ts', "import * as x from 'vscode';", 'no vscode in MCP Tasks'],
    ['src/mcp/virtual.ts', "import { x } from './servers/upstream';", "the connection layer's ports do not reach the manager"],
    ['src/mcp/servers/virtual.ts', "import { x } from '../../acp/client';", 'nothing of src/acp in src/mcp'],
    ['src/gateway/virtual.ts', "import { x } from '../acp/client';", 'nothing of src/acp in src/gateway'],
    ['src/acp/virtual.ts', "import * as x from 'vscode';", 'no vscode in src/acp'],
    ['src/acp/virtual.ts', "import { x } from '../ui/text';", 'nothing of src/ui in src/acp'],
    ['src/acp/virtual.ts', "import { x } from '../gateway/gateway';", 'nothing of src/gateway in src/acp'],
    ['src/acp/virtual.ts', "import { x } from '../cli/args';", 'nothing of src/cli in src/acp'],
    ['src/ui/virtual.ts', "import { x } from './prompts/prompter';", "the UI's shared helpers do not reach a room"],
    ['src/ui/quick-input/virtual.ts', "import { x } from '../prompts/prompter';", 'the quick input does not reach the prompts'],
    ['src/ui/links/virtual.ts', "import { x } from '../prompts/prompter';", 'links do not reach the prompts'],
    ['src/ui/prompts/virtual.ts', "import { x } from '../form/form-panel';", 'the prompts do not reach the form'],
    ['src/ui/prompts/virtual.ts', "import { x } from '../views/pending';", 'the prompts do not reach the views'],
    ['src/ui/form/virtual.ts', "import { x } from '../sign-in/sign-in';", 'the form and sign-in are one level'],
    ['src/ui/webview/virtual.ts', "import { x } from '../form/form-panel';", 'the page host does not reach the panels on it'],
    ['src/ui/webview/virtual.ts', "import { x } from '../quick-input/own-quick-input';", 'the page host and the quick input are one level'],
    ['src/ui/gateway/virtual.ts', "import { x } from '../views/servers-view';", "the gateway's host does not reach the views"],
    ['src/ui/gateway/virtual.ts', "import { x } from '../agents/session-panel';", "the gateway's host does not reach ACP agents' sessions"],
    ['src/ui/agents/virtual.ts', "import { x } from '../views/servers-view';", "ACP agents' sessions do not reach the views"],
    ['src/ui/agents/virtual.ts', "import { x } from '../agent-hosts/agent-host-connections';", "ACP agents import nothing of the agent hosts"],
    ['src/ui/agent-hosts/virtual.ts', "import { x } from '../agents/acp-agents';", 'the agent hosts import nothing of the ACP agents (the rung above)'],
    ['src/ui/agent-hosts/virtual.ts', "import { x } from '../views/agents-view';", 'the agent hosts do not reach the views'],
    ['src/ui/run-tool/virtual.ts', "import { x } from '../../cli/args';", 'nothing of src/cli in src/ui'],
  ];
  for (const [file, line, why] of forbidden) {
    it(`fails: ${why}`, () => assertFails(file, use(line), 'no-restricted-imports'));
  }

  it('the same imports pass where the rooms allow them', async () => {
    await assertPasses('src/mcp/connection/virtual.ts', use("import { x } from '../ports';"), 'no-restricted-imports');
    await assertPasses('src/mcp/connection/virtual.ts', use("import { x } from '../config/config';"), 'no-restricted-imports');
    await assertPasses('src/mcp/connection/virtual.ts', use("import { x } from './calls';"), 'no-restricted-imports');
    await assertPasses('src/mcp/connection/virtual.ts', use("import { x } from './tasks/tasks';"), 'no-restricted-imports');
    await assertPasses('src/mcp/connection/tasks/virtual.ts', use("import { x } from '../elicit-bridge';"), 'no-restricted-imports');
    await assertPasses('src/mcp/connection/tasks/virtual.ts', use("import { x } from './bounds';"), 'no-restricted-imports');
    await assertPasses('src/mcp/connection/tasks/virtual.ts', use("import { x } from '../../ports';"), 'no-restricted-imports');
    await assertPasses('src/mcp/sign-in/virtual.ts', use("import { x } from '../sdk/sdk-loader';"), 'no-restricted-imports');
    await assertPasses('src/mcp/config/virtual.ts', use("import { x } from '../../base/is-record';"), 'no-restricted-imports');
    await assertPasses('src/mcp/virtual.ts', use("import { x } from './config/config';"), 'no-restricted-imports');
    await assertPasses('src/mcp/servers/virtual.ts', use("import { x } from '../connection/connection';"), 'no-restricted-imports');
    await assertPasses('src/acp/virtual.ts', use("import { x } from '../mcp/ports';"), 'no-restricted-imports');
    await assertPasses('src/ui/prompts/virtual.ts', use("import { x } from '../links/url-prompt';"), 'no-restricted-imports');
    await assertPasses('src/ui/prompts/virtual.ts', use("import { x } from '../text';"), 'no-restricted-imports');
    await assertPasses('src/ui/views/virtual.ts', use("import { x } from '../gateway/serve-choices';"), 'no-restricted-imports');
    await assertPasses('src/ui/agents/virtual.ts', use("import { x } from '../webview/page-host';"), 'no-restricted-imports');
    await assertPasses('src/ui/agent-hosts/virtual.ts', use("import { x } from '../quick-input/own-quick-input';"), 'no-restricted-imports');
    await assertPasses('src/ui/views/virtual.ts', use("import { x } from '../agent-hosts/agent-host-connections';"), 'no-restricted-imports');
    await assertPasses('src/ui/form/virtual.ts', use("import { x } from '../webview/page-html';"), 'no-restricted-imports');
    await assertPasses('src/ui/form/virtual.ts', use("import { x } from '../prompts/prompter';"), 'no-restricted-imports');
    await assertPasses('src/ui/virtual.ts', use("import { x } from '../acp/client';"), 'no-restricted-imports');
  });
});

describe('lint holds the one way to show text and take the quick input', function () {
  this.timeout(60_000);
  before(() => {
    eslint = new ESLint({ cwd: REPO });
  });

  for (const call of ['showErrorMessage', 'showWarningMessage', 'showInformationMessage', 'showQuickPick', 'showInputBox']) {
    it(`window.${call} fails outside its module, passes inside it`, async () => {
      const code = `import * as vscode from 'vscode';\nvoid vscode.window.${call}('x');\n`;
      await assertFails('src/ui/virtual.ts', code, 'no-restricted-properties');
      await assertFails('src/extension.ts', code, 'no-restricted-properties');
      const destructured = `import * as vscode from 'vscode';\nconst { ${call} } = vscode.window;\nvoid ${call}('x');\n`;
      await assertFails('src/ui/virtual.ts', destructured, 'no-restricted-properties');
      const home = call.startsWith('showQuick') || call === 'showInputBox' ? 'src/ui/quick-input/own-quick-input.ts' : 'src/ui/notify.ts';
      await assertPasses(home, code, 'no-restricted-properties');
    });
  }
});

describe('lint holds the one way to import the editor API', function () {
  this.timeout(60_000);
  before(() => {
    eslint = new ESLint({ cwd: REPO });
  });

  // The build hands modules the API object itself (scripts/build.mjs, plainVscodeRequire): it has no default.
  it('a default import of vscode fails; the namespace import passes', async () => {
    await assertFails('src/ui/virtual.ts', use("import x from 'vscode';"), 'no-restricted-syntax');
    await assertFails('src/ui/virtual.ts', use("import { default as x } from 'vscode';"), 'no-restricted-syntax');
    await assertPasses('src/ui/virtual.ts', use("import * as x from 'vscode';"), 'no-restricted-syntax');
  });
});
