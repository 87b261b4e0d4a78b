/**
 * The questions an extension's tool calls need (see api/tool-consent.ts): may it call a
 * server's tools, and may this call of a destructive tool run. Each is a modal dialog, as
 * VS Code asks "The extension X wants to sign in using Y" and confirms a tool outside a
 * chat: it decides what runs with the person's secrets, so it may take the window, unlike
 * a server's question. The default button refuses; closing the dialog refuses too. One
 * dialog at a time. Also how the API finds an installed extension by id.
 */
import * as vscode from 'vscode';
import type { ConsentDialogs, ConsentExtension, ConsentServer, ConsentTool } from '../../mcp/tool-consent';
import { showDialog } from '../notify';

/** An installed extension's id and manifest names; undefined when no extension has this id. */
export function installedExtension(id: string): { readonly id: string; readonly displayName?: string; readonly name?: string } | undefined {
  const extension = vscode.extensions.getExtension(id);
  if (!extension) return undefined;
  const manifest = extension.packageJSON as { displayName?: unknown; name?: unknown };
  return {
    id: extension.id,
    ...(typeof manifest.displayName === 'string' && { displayName: manifest.displayName }),
    ...(typeof manifest.name === 'string' && { name: manifest.name }),
  };
}

/** The arguments as the person reads them before a destructive call; a cut says how much is not shown. */
const ARGS_SHOWN = 2000;

function argumentsText(args: Record<string, unknown>): string {
  const text = Object.keys(args).length === 0 ? 'No arguments.' : `Arguments:\n${JSON.stringify(args, null, 2)}`;
  return text.length > ARGS_SHOWN ? `${text.slice(0, ARGS_SHOWN)}\n… (${text.length - ARGS_SHOWN} more characters not shown)` : text;
}

export class ExtensionConsentDialogs implements ConsentDialogs {
  private line: Promise<unknown> = Promise.resolve();

  /** Runs a dialog once those before it have closed. */
  private inTurn<T>(show: () => Thenable<T>): Promise<T> {
    const shown = this.line.then(show, show);
    this.line = shown.then(
      () => undefined,
      () => undefined,
    );
    return shown;
  }

  askToAllow(extension: ConsentExtension, server: ConsentServer): Promise<'allow' | 'deny' | undefined> {
    const deny: vscode.MessageItem = { title: 'Deny' };
    const allow: vscode.MessageItem = { title: 'Allow' };
    return this.inTurn(async () => {
      const choice = await showDialog({
        kind: 'warning',
        heading: `The extension "${extension.name}" wants to call the tools of the MCP server "${server.name}".`,
        detail: [
          `Allowed, it can run any tool of ${server.name} in this workspace, with the inputs and sign-in you saved for ${server.name}; a destructive tool still asks before each call. Denied, its calls fail. Cancel refuses this call only.`,
          `Extension id: ${extension.id}. VS Code does not say which extension is calling: this is the installed extension the caller named.`,
          'Elicitation Host: Forget Saved Inputs… takes either answer back.',
        ].join('\n\n'),
        buttons: [deny, allow],
      });
      return choice === allow ? 'allow' : choice === deny ? 'deny' : undefined;
    });
  }

  confirmCall(extension: ConsentExtension, server: ConsentServer, tool: ConsentTool, args: Record<string, unknown>): Promise<boolean> {
    const decline: vscode.MessageItem = { title: 'Decline' };
    const run: vscode.MessageItem = { title: 'Run' };
    return this.inTurn(async () => {
      const choice = await showDialog({
        kind: 'warning',
        heading: `The extension "${extension.name}" wants to run "${tool.title ?? tool.name}", a destructive tool of the MCP server "${server.name}". Run it?`,
        detail: `${tool.title && tool.title !== tool.name ? `Tool: ${tool.name}\n\n` : ''}${argumentsText(args)}`,
        buttons: [decline, run],
      });
      return choice === run;
    });
  }
}
