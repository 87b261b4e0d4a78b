import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
      ],
    },
  },
  {
    // The pure layers: no editor, no I/O. They run under plain Node and in the webview. The form
    // panel's page and its verdicts on the page's messages too: the tests run them without VS Code.
    files: ['src/elicitation/**', 'src/shared/**', 'webview/**', 'src/ui/form-page.ts', 'src/ui/form-verdicts.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'Pure code must not depend on the editor; put UI in src/ui.' }],
          patterns: [
            { group: ['node:*', 'fs', 'child_process', 'http', 'https', 'net'], message: 'Pure code does no I/O.' },
            { group: ['**/ui/**', '**/mcp/**'], message: 'Imports point down only (see ARCHITECTURE.md).' },
          ],
        },
      ],
    },
  },
  {
    // The gateway serves agents without VS Code (the runner's serve uses it too).
    files: ['src/gateway/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The gateway runs without VS Code (elicitation-host serve); VS Code wiring belongs in src/ui and src/extension.ts.' }],
          patterns: [{ group: ['**/ui/**', '**/cli/**', '**/extension'], message: 'Imports point down only (see ARCHITECTURE.md).' }],
        },
      ],
    },
  },
  {
    files: ['*.mjs', 'scripts/**/*.mjs', 'test/**/*.mjs', 'bench/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
