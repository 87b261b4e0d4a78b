/**
 * The served servers as `session/new` gives them to an ACP agent (its `mcpServers`), for one
 * session: one token of the session's own for all of them (agent-grants.ts), so the servers'
 * questions are headed with the agent, the session and the server, and the token dies with
 * the session. An agent that declares `mcpCapabilities.http` gets each as the gateway's
 * address with the token in a header; any other gets our stdio bridge (`elicitation-host
 * mcp-bridge <address>`, src/cli/mcp-bridge-main.ts) with the token in its environment, never on
 * its command line or in a file. The entries are ACP's `McpServer` shapes, written out here
 * (the gateway does not import the ACP SDK). Pure but for the grant it issues.
 */
import type { Gateway } from './gateway';
import { TOKEN_VARIABLE } from './contract';

/** How to run the bridge: VS Code's runtime (Electron, run as Node) or Node, and the runner's script. */
export interface BridgeCommand {
  readonly runtime: string;
  readonly script: string;
}

export interface SessionServersRequest {
  readonly agent: string;
  readonly http: boolean;
  session(): string | undefined;
}

type NameValue = { readonly name: string; readonly value: string };

export type SessionServerEntry =
  | { readonly type: 'http'; readonly name: string; readonly url: string; readonly headers: NameValue[] }
  | { readonly name: string; readonly command: string; readonly args: string[]; readonly env: NameValue[] };

export interface SessionServers {
  readonly entries: readonly SessionServerEntry[];
  readonly given: ReadonlyArray<{ readonly name: string; readonly transport: 'http' | 'stdio' }>;
  readonly note?: string;
  revoke(): void;
}

/**
 * The name an agent knows a server by: the gateway's path segment (the configured name,
 * URL-safe and told apart from a namesake), with `.` made `-`, since agents put it in tool
 * names (Claude Code: `mcp__<name>__<tool>`) that take letters, digits, `_` and `-` only.
 */
export function agentServerName(path: string): string {
  return (path.split('/').filter(Boolean).pop() ?? 'server').replace(/\./g, '-');
}

export function sessionServers(gateway: Gateway, request: SessionServersRequest, bridge: BridgeCommand): SessionServers {
  const served = gateway.servers();
  if (served.length === 0) return { entries: [], given: [], note: 'No MCP server is configured, or none may start in this workspace yet.', revoke: () => undefined };
  const grant = gateway.grants.issue({ agent: request.agent, session: () => request.session() });
  const transport = request.http ? 'http' : 'stdio';
  const named = served.map((server) => ({ name: agentServerName(server.path), url: server.url }));
  const entries = named.map(({ name, url }): SessionServerEntry =>
    request.http
      ? { type: 'http', name, url, headers: [{ name: 'Authorization', value: `Bearer ${grant.token}` }] }
      : {
          name,
          command: bridge.runtime,
          args: [bridge.script, 'mcp-bridge', url],
          // VS Code's runtime is Electron, which runs as Node only when told so (Node ignores it).
          env: [
            { name: 'ELECTRON_RUN_AS_NODE', value: '1' },
            { name: TOKEN_VARIABLE, value: grant.token },
          ],
        },
  );
  return { entries, given: named.map(({ name }) => ({ name, transport })), revoke: grant.revoke };
}
