/**
 * The Servers view's commands on one server: invoked from a tree node (its context menu),
 * or with a server id (from other commands and tests); without either they do nothing.
 */
import * as vscode from 'vscode';
import type { ServerEntry, ServerManager } from '../../mcp/servers/manager';
import type { ServersNode } from './servers-view';

/** The server a command was invoked on. */
export function serverOf(manager: ServerManager, node: ServersNode | string | undefined): ServerEntry | undefined {
  const id = typeof node === 'string' ? node : node && node.kind !== 'problems' ? node.entry.id : undefined;
  return id ? manager.find(id) : undefined;
}

/** Registers a command that acts on one server. */
export function registerServerCommand(manager: ServerManager, command: string, run: (entry: ServerEntry) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(command, (node?: ServersNode | string) => {
    const entry = serverOf(manager, node);
    if (entry) run(entry);
  });
}
