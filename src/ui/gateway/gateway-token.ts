/**
 * The gateway's token: random, one per workspace, kept in SecretStorage (never in settings,
 * workspace state or a file). Rotate Token replaces it; agents started before then must be
 * restarted from a terminal that has the new value.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** Identifies the workspace for the secret's key: its .code-workspace file, else its first folder. */
function workspaceKey(): string {
  return vscode.workspace.workspaceFile?.toString() ?? vscode.workspace.workspaceFolders?.[0]?.uri.toString() ?? 'no-folder';
}

export class GatewayToken {
  private value: string | undefined;
  private readonly key = `gateway-token:${workspaceKey()}`;

  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** Reads it once (making one on first use); later reads are synchronous through `current`. */
  async load(): Promise<string> {
    if (this.value) return this.value;
    const stored = await this.secrets.get(this.key);
    this.value = stored ?? fresh();
    if (!stored) await this.secrets.store(this.key, this.value);
    return this.value;
  }

  /** The token every request is checked against; empty until loaded, which refuses all. */
  get current(): string {
    return this.value ?? '';
  }

  async rotate(): Promise<string> {
    this.value = fresh();
    await this.secrets.store(this.key, this.value);
    return this.value;
  }
}

function fresh(): string {
  return randomBytes(32).toString('base64url');
}
