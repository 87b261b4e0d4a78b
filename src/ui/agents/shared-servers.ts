/**
 * The person's MCP servers for an agent session started here: every server the gateway
 * serves, through the gateway, with a token of the session's own (src/gateway/session-servers.ts
 * says how each agent gets them). `elicitationHost.agents.shareServers` off, or the gateway
 * off, gives none, and the session panel says why.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ShareRequest, SharedServers } from '../../acp/ports';
import type { GatewayHost } from '../gateway/gateway-host';
import { loadGateway } from '../gateway/gateway-loader';
import { gatewayEnabled } from '../settings';

export const SHARE_SETTING = 'agents.shareServers';

const nothing = (note: string): SharedServers => ({ entries: [], given: [], note, revoke: () => undefined });

/** `shareServers` for the agents' host: the bridge runs the runner inside the installed extension on VS Code's own runtime. */
export function sharedServersOf(gateway: GatewayHost, extensionPath: string): (request: ShareRequest) => Promise<SharedServers> {
  return async (request) => {
    if (!vscode.workspace.getConfiguration('elicitationHost').get<boolean>(SHARE_SETTING, true)) {
      return nothing(`Your MCP servers are not shared with agents (elicitationHost.${SHARE_SETTING} is off).`);
    }
    if (!gatewayEnabled()) return nothing('Your MCP servers are not shared with agents: the gateway is off (elicitationHost.gateway.enabled).');
    const running = await gateway.start();
    return loadGateway().sessionServers(running, request, { runtime: process.execPath, script: join(extensionPath, 'dist', 'cli.js') });
  };
}
