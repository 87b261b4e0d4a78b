/**
 * Workspace trust: a repository's own `mcp.json` must not start programs (or connect to
 * servers that will ask the person things) before the person trusts the workspace.
 * Servers from the user's own settings always run.
 */
import type { ServerDefinition } from './config';

export type StartPermission = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

export function mayStart(server: ServerDefinition, workspaceTrusted: boolean): StartPermission {
  if (server.source.kind === 'user' || workspaceTrusted) return { allowed: true };
  return {
    allowed: false,
    reason:
      server.config.type === 'stdio'
        ? `"${server.name}" is a program defined by this workspace; it does not start until you trust the workspace (Workspaces: Manage Workspace Trust)`
        : `"${server.name}" is defined by this workspace; it does not connect until you trust the workspace (Workspaces: Manage Workspace Trust)`,
  };
}
