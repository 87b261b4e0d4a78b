import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers of shared/docs/ARCHITECTURE.md, held here: each "may import" of the table is a
// rule below, and test/unit/lint-rules.test.ts shows each forbidden import failing.
const LAYERS = 'Imports point down only (see ARCHITECTURE.md).';
const noVscode = { name: 'vscode', message: 'No editor here: VS Code UI belongs in src/ui (see ARCHITECTURE.md).' };
const noIo = { group: ['node:*', 'fs', 'child_process', 'http', 'https', 'net'], message: 'Pure code does no I/O.' };
const noUiOrMcp = { group: ['**/ui/**', '**/mcp/**', '**/gateway/**'], message: LAYERS };
const noUi = { group: ['**/ui/**'], message: LAYERS };
const noCliOrExtension = { group: ['**/cli/**', '**/extension', '**/extension.ts'], message: LAYERS };
const noGateway = { group: ['**/gateway/**'], message: LAYERS };
const noAcp = { group: ['**/acp/**'], message: LAYERS };
// The ACP layer asks permissions the way the gateway asks Claude Code's (one model, one way to show a command): that pure module only.
const noGatewayButPermissionQuestion = { group: ['**/gateway/**', '!**/gateway/permission-question'], message: `${LAYERS} src/acp may use src/gateway/permission-question only.` };
const noHostOnly = { group: ['ajv', 'ajv/*', '**/schema-check', '**/schema-check.ts'], message: 'Host-only code (ajv, schema-check) does not run in the form page.' };

/** One no-restricted-imports per file set: a later block replaces an earlier one's options, so each block states all it bans. */
function restrictImports(files, paths, patterns) {
  return { files, rules: { 'no-restricted-imports': ['error', { paths, patterns }] } };
}

// Everything shown goes through one module per surface, which applies the escaping it needs.
const ownSurfaces = [
  ...['showInformationMessage', 'showWarningMessage', 'showErrorMessage'].map((property) => ({
    property,
    message: 'Show messages through src/ui/notify.ts, which escapes what the surface would draw as links.',
  })),
  ...['showQuickPick', 'showInputBox'].map((property) => ({
    property,
    message: 'Take the quick input through src/ui/own-quick-input.ts, so the question on screen steps aside instead of being cancelled.',
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
  { files: ['src/ui/notify.ts', 'src/ui/own-quick-input.ts'], rules: { 'no-restricted-properties': 'off' } },
  // The connection layer: no editor, nothing above it (the UI, the gateway, the runner, activation).
  restrictImports(['src/mcp/**'], [noVscode], [noUi, noGateway, noAcp, noCliOrExtension]),
  // The command-line runner: no editor, nothing of the UI.
  restrictImports(['src/cli/**'], [noVscode], [noUi, { group: ['**/extension', '**/extension.ts'], message: LAYERS }]),
  // The gateway: no editor, nothing of the UI, the runner or activation (the runner's serve uses it).
  restrictImports(['src/gateway/**'], [noVscode], [noUi, noAcp, noCliOrExtension]),
  // The ACP clients of agent processes: no editor, nothing of the UI, the runner, activation or the gateway (but its permission question).
  restrictImports(['src/acp/**'], [noVscode], [noUi, noGatewayButPermissionQuestion, noCliOrExtension]),
  // The pure layers: no editor, no I/O, nothing from above. They run under plain Node and in the
  // webview. The form panel's page and its verdicts on the page's messages too: the tests run
  // them without VS Code.
  restrictImports(['src/elicitation/**', 'src/shared/**', 'src/ui/form-page.ts', 'src/ui/form-verdicts.ts', 'src/ui/mutes.ts'], [noVscode], [noIo, noUiOrMcp]),
  // The form page: the pure layers, without what only the host runs.
  restrictImports(['webview/**'], [noVscode], [noIo, noUiOrMcp, noHostOnly]),
  {
    files: ['*.mjs', 'scripts/**/*.mjs', 'test/**/*.mjs', 'bench/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
