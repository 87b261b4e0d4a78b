/**
 * `elicitation-host` in VS Code's terminals: the runner ships in the extension (dist/cli.js),
 * and a launcher for it, in the extension's own storage, goes first on terminals' PATH
 * (through the same environment collection as the gateway's address and token), so a script,
 * a git hook or an agent started there runs `elicitation-host ask …` or `acp-proxy` without
 * installing anything. The launcher runs the runtime VS Code's extension host runs on (Node,
 * or VS Code's own executable as Node), never a `node` the PATH happens to find.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type * as vscode from 'vscode';

export const CLI_NAME = 'elicitation-host';

/** Shell-quoted for a POSIX sh script. */
function sh(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The launchers' text: POSIX sh, and cmd for Windows. */
export function launchers(runtime: string, cli: string): { readonly posix: string; readonly windows: string } {
  return {
    posix: `#!/bin/sh\n# Elicitation Host's runner, as VS Code runs it (written by the extension; do not edit).\nELECTRON_RUN_AS_NODE=1 exec ${sh(runtime)} ${sh(cli)} "$@"\n`,
    windows: `@echo off\r\nrem Elicitation Host's runner, as VS Code runs it (written by the extension; do not edit).\r\nset ELECTRON_RUN_AS_NODE=1\r\n"${runtime}" "${cli}" %*\r\n`,
  };
}

/**
 * Writes the launcher into `binDir` and puts that folder first on terminals' PATH. Returns
 * the folder. Terminals opened before this have the old PATH (VS Code marks them stale).
 */
export function putCliOnPath(env: vscode.GlobalEnvironmentVariableCollection, binDir: string, extensionPath: string, runtime = process.execPath): string {
  mkdirSync(binDir, { recursive: true });
  const { posix, windows } = launchers(runtime, join(extensionPath, 'dist', 'cli.js'));
  const script = join(binDir, CLI_NAME);
  writeFileSync(script, posix);
  chmodSync(script, 0o755);
  writeFileSync(join(binDir, `${CLI_NAME}.cmd`), windows);
  env.prepend('PATH', `${binDir}${delimiter}`);
  // VS Code runs a `.mcp.json` stdio server from this process, with its environment: `elicitation-host mcp-bridge` is found there too.
  if (!(process.env.PATH ?? '').split(delimiter).includes(binDir)) process.env.PATH = `${binDir}${delimiter}${process.env.PATH ?? ''}`;
  return binDir;
}
