import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers of shared/docs/ARCHITECTURE.md, held here: each "may import" of the table is a
// rule below, and test/unit/lint-rules.test.ts shows each forbidden import failing.
const LAYERS = 'Imports point down only (see ARCHITECTURE.md).';
const noVscode = { name: 'vscode', message: 'No editor here: VS Code UI belongs in src/ui (see ARCHITECTURE.md).' };
const noIo = { group: ['node:*', 'fs', 'child_process', 'http', 'https', 'net'], message: 'Pure code does no I/O.' };
const noUiOrMcp = { group: ['**/ui/**', '**/mcp/**', '**/gateway/**', '**/acp/**', '**/ahp/**'], message: LAYERS };
const noUi = { group: ['**/ui/**'], message: LAYERS };
const noAcp = { group: ['**/acp/**'], message: LAYERS };
const noCliOrExtension = { group: ['**/cli/**', '**/extension', '**/extension.ts', '**/extension-main', '**/extension-main.ts'], message: LAYERS };
const noGateway = { group: ['**/gateway/**'], message: LAYERS };
const noMcp = { group: ['**/mcp/**'], message: LAYERS };
const noAhp = { group: ['**/ahp/**'], message: LAYERS };
// A permission is the core's (src/elicitation/permission.ts): an agent host's tool confirmation is translated into it, never into ACP's shapes.
const noAcpSdk = { group: ['@agentclientprotocol/*'], message: `${LAYERS} src/ahp speaks AHP and the core's permission, not ACP's types.` };
const noHostOnly = { group: ['ajv', 'ajv/*', '**/schema-check', '**/schema-check.ts'], message: 'Host-only code (ajv, schema-check) does not run in the form page.' };
// src/base is below every layer: it imports nothing, so anything may take it.
const nothingAtAll = { regex: '.*', message: 'src/base imports nothing (see ARCHITECTURE.md): what it holds is for every layer.' };
// The page's messages carry the questions it renders: the model's types (erased in the build), src/base, and each other; nothing else.
const sharedOnly = [
  { regex: '^(?!\\./|\\.\\./base/|\\.\\./elicitation/model$)', message: 'src/shared imports nothing but src/base and the types of src/elicitation/model (see ARCHITECTURE.md).' },
  { regex: '^\\.\\./elicitation/model$', allowTypeImports: true, message: 'src/shared takes only the types of src/elicitation/model (import type): the messages carry questions; they run no model code.' },
];

// The product never imports its bench or its tests: a build that measures it hooks in through a port (src/extension-main.ts's MainHooks).
const noHarness = { group: ['**/bench/**', '**/test/**'], message: 'The product does not import its bench or tests: they hook in through its ports (see ARCHITECTURE.md).' };
// The published API file is the extensions' copy: the core has its own words for it, and src/api alone holds the two together.
const noPublishedApi = { group: ['**/elicitation-host'], message: 'elicitation-host.d.ts is the copy extensions take: the core speaks src/elicitation/live-model.ts, and only src/api imports the published file (contract.ts holds the two equal).' };

/**
 * One no-restricted-imports per file set: a later block replaces an earlier one's options, so
 * each block states all it bans (every block bans the harness, and all but src/api's the published API file).
 */
function restrictImports(files, paths, patterns) {
  const published = files.includes('src/api/**') ? [] : [noPublishedApi];
  return { files, rules: { 'no-restricted-imports': ['error', { paths, patterns: [...patterns, noHarness, ...published] }] } };
}

/**
 * The rooms (sub-folders) of a layer, lowest first: a room may import the rooms listed
 * before it, never one of its own level or above. `''` is the layer's own top-level files.
 * Each block repeats the layer's own bans (a later block replaces an earlier one's options).
 */
function roomRules(layer, levels, paths, layerPatterns) {
  return levels.flat().map((room) => restrictImports(room === '' ? [`${layer}/*.ts`] : [`${layer}/${room}/**`], paths, [...layerPatterns, ...roomBans(layer, levels, room, room === '' ? './' : '../')]));
}

/** What one room of a layer may not import (none or one pattern), written as its files import: `from` leads back to the layer's top. */
function roomBans(layer, levels, room, from) {
  const above = levels.slice(levels.findIndex((level) => level.includes(room))).flat();
  // The top level's files are named one by one: a glob such as ../* would match every room too.
  const topLevel = readdirSync(layer).filter((name) => name.endsWith('.ts')).map((name) => `${from}${name.replace(/\.ts$/, '')}`);
  const group = above.filter((other) => other !== room).flatMap((other) => (other === '' ? topLevel : [`${from}${other}/**`]));
  return group.length ? [{ group, message: `${LAYERS} Inside ${layer}, a room imports only the rooms below it: ${levels.map((l) => l.map((r) => r || '(top level)').join(', ')).join(' < ')}.` }] : [];
}

/**
 * A room inside a room (`src/mcp/connection/tasks/`): the rest of its room enters it through
 * its way in (`face`) alone, and it imports none of the files of its room that use it
 * (`users`), nor what its room may not. These blocks follow roomRules' and replace its
 * options for the room's files.
 */
function innerRoomRules(layer, levels, room, inner, face, users, paths, layerPatterns) {
  const message = `${LAYERS} Inside ${layer}/${room}, ${inner}/ is entered through ${inner}/${face} alone, and imports none of ${users.join(', ')}, which use it.`;
  return [
    restrictImports([`${layer}/${room}/*.ts`], paths, [...layerPatterns, ...roomBans(layer, levels, room, '../'), { group: [`./${inner}/*`, `!./${inner}/${face}`], message }]),
    restrictImports([`${layer}/${room}/${inner}/**`], paths, [...layerPatterns, ...roomBans(layer, levels, room, '../../'), { group: users.map((file) => `../${file}`), message }]),
  ];
}

// src/mcp's rooms: the SDK bundle; configuration and sign-in; the shared vocabulary (ports,
// errors, tool info, the broker's wiring); one connection; the server manager and upstreams.
const MCP_ROOMS = [['sdk'], ['config', 'sign-in'], [''], ['connection'], ['servers']];
// src/ui's rooms: the shared helpers (notify, text, settings); VS Code's one quick input, and the
// page host every webview panel of ours shares; links; the prompts; what uses them (the form,
// sign-in, the gateway's host, servers' config and logs, Run Tool); the agent hosts this window is a
// client of (VS Code's own agents, AHP), a rung apart; ACP agents' sessions, on the
// form's page stack; the views, which show all of it.
const UI_ROOMS = [[''], ['quick-input', 'webview'], ['links'], ['prompts'], ['form', 'sign-in', 'gateway', 'servers', 'run-tool'], ['agent-hosts'], ['agents'], ['views']];

// The two agents' wings stand apart: ACP agents (ui/agents) import nothing of the agent hosts (ui/agent-hosts), the rung below them.
const noAgentHosts = { group: ['../agent-hosts/**'], message: `${LAYERS} src/ui/agents (ACP agents) and src/ui/agent-hosts (VS Code's agent hosts) share nothing: what both need lives below them.` };
function apartFromAgentHosts(block) {
  if (!block.files.includes('src/ui/agents/**')) return block;
  const [level, options] = block.rules['no-restricted-imports'];
  return { ...block, rules: { 'no-restricted-imports': [level, { ...options, patterns: [...options.patterns, noAgentHosts] }] } };
}

// Everything shown goes through one module per surface, which applies the escaping it needs.
const ownSurfaces = [
  ...['showInformationMessage', 'showWarningMessage', 'showErrorMessage'].map((property) => ({
    property,
    message: 'Show messages through src/ui/notify.ts, which escapes what the surface would draw as links.',
  })),
  ...['showQuickPick', 'showInputBox'].map((property) => ({
    property,
    message: 'Take the quick input through src/ui/quick-input/own-quick-input.ts, so the question on screen steps aside instead of being cancelled.',
  })),
];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-vsix/**', 'out/**', 'node_modules/**', 'test-results/**', '.vscode-test/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='innerHTML']", message: 'Server text is set with textContent, never parsed as HTML.' },
        { selector: "MemberExpression[property.name='outerHTML']", message: 'Server text is set with textContent, never parsed as HTML.' },
        { selector: "CallExpression[callee.property.name='insertAdjacentHTML']", message: 'Server text is set with textContent, never parsed as HTML.' },
        // scripts/build.mjs hands modules the API object itself (plainVscodeRequire): it has no default.
        { selector: "ImportDeclaration[source.value='vscode'] > ImportDefaultSpecifier", message: "import * as vscode from 'vscode' (the bundle gives modules the API object itself, which has no default)." },
        { selector: "ImportDeclaration[source.value='vscode'] > ImportSpecifier[imported.name='default']", message: "import * as vscode from 'vscode' (the bundle gives modules the API object itself, which has no default)." },
      ],
    },
  },
  { files: ['src/**'], rules: { 'no-restricted-properties': ['error', ...ownSurfaces] } },
  // Activation's two halves and what they hand each other: everything below, nothing of the bench
  // or the tests; nothing imports activation, which is the top (not even for a type: src/stand-ins.ts).
  restrictImports(['src/*.ts'], [], [{ group: ['**/extension', '**/extension.ts'], message: `${LAYERS} Activation (src/extension.ts) is the top: what it hands the extension proper is src/stand-ins.ts.` }]),
  // The API other extensions get: the broker and the servers, with VS Code's types only (the extension proper hands it what it needs).
  restrictImports(['src/api/**'], [{ ...noVscode, allowTypeImports: true }], [noUi, noGateway, noAcp, noCliOrExtension]),
  { files: ['src/ui/notify.ts', 'src/ui/quick-input/own-quick-input.ts'], rules: { 'no-restricted-properties': 'off' } },
  // The connection layer: no editor, nothing above it (the UI, the gateway, ACP, the runner,
  // activation); inside it, each room only the rooms below.
  ...roomRules('src/mcp', MCP_ROOMS, [noVscode], [noUi, noGateway, noAcp, noAhp, noCliOrExtension]),
  // Inside a connection, MCP Tasks are a room: the connection and its calls take it through tasks/tasks.ts.
  ...innerRoomRules('src/mcp', MCP_ROOMS, 'connection', 'tasks', 'tasks', ['connection', 'calls'], [noVscode], [noUi, noGateway, noAcp, noAhp, noCliOrExtension]),
  // The UI: nothing of the runner or activation; inside it, each room only the rooms below.
  ...roomRules('src/ui', UI_ROOMS, [], [noCliOrExtension]).map(apartFromAgentHosts),
  // ACP clients of agents: no editor, nothing of the UI, the gateway, the runner or activation.
  restrictImports(['src/acp/**'], [noVscode], [noUi, noGateway, noAhp, noCliOrExtension]),
  // Agent host clients (AHP): no editor, nothing of the UI, MCP, the gateway, ACP (neither its
  // code nor its SDK's types), the runner or activation.
  restrictImports(['src/ahp/**'], [noVscode], [noUi, noMcp, noGateway, noAcp, noAcpSdk, noCliOrExtension]),
  // Activation's own bundle (dist/extension.js, which VS Code times) holds its stand-ins only:
  // the rest is in the extension proper, required after the activate call; types are free.
  {
    files: ['src/extension.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\.?/(?!ui/deferred$)', allowTypeImports: true, message: 'Activation loads only its stand-ins (src/ui/deferred.ts); the rest loads after the activate call (src/extension-main.ts).' }] },
      ],
    },
  },
  // The command-line runner: no editor, nothing of the UI.
  restrictImports(['src/cli/**'], [noVscode], [noUi, { group: ['**/extension', '**/extension.ts', '**/extension-main', '**/extension-main.ts'], message: LAYERS }]),
  // The gateway: no editor, nothing of the UI, the runner or activation (the runner's serve uses it).
  restrictImports(['src/gateway/**'], [noVscode], [noUi, noAcp, noAhp, noCliOrExtension]),
  // The pure layers: no editor, no I/O, nothing from above. They run under plain Node and in the
  // webview. The form panel's page and its verdicts on the page's messages too: the tests run
  // them without VS Code.
  restrictImports(['src/elicitation/**', 'src/ui/webview/page-html.ts', 'src/ui/form/form-page.ts', 'src/ui/form/form-verdicts.ts', 'src/ui/prompts/mutes.ts', 'src/ui/views/attention.ts'], [noVscode], [noIo, noUiOrMcp]),
  // The messages between the host and the form page: src/base and the model's types only.
  restrictImports(['src/shared/**'], [], sharedOnly),
  // What every layer uses: it imports nothing.
  restrictImports(['src/base/**'], [], [nothingAtAll]),
  // The form page: the pure layers, without what only the host runs.
  restrictImports(['webview/**'], [noVscode], [noIo, noUiOrMcp, noHostOnly]),
  {
    files: ['*.mjs', 'scripts/**/*.mjs', 'test/**/*.mjs', 'bench/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
