/**
 * Where agents reach each server through the gateway, as the Servers view says it: the same
 * addresses the gateway gives (src/gateway/server-paths.ts, a small pure module taken here
 * rather than the gateway's lazily loaded bundle, which the view must not load to draw), over
 * the same servers (the manager's `servable`). A server not at its plain name's address says
 * which server holds it: a workspace's namesake of the person's own server is suffixed, and
 * the person can see that agents set up for "github" reach theirs. No vscode.
 */
import type { ConfigSource } from '../../mcp/config/config';
import { originOf } from '../../mcp/servers/upstream';
import { assignPaths, plainHolder } from '../../gateway/server-paths';

/** The little of a server entry this needs. */
export interface AddressedEntry {
  readonly id: string;
  readonly definition: { readonly name: string; readonly source: ConfigSource };
  readonly blocked: string | undefined;
}

export interface GatewayAddress {
  /** `/mcp/github-2`. */
  readonly path: string;
  /** For the row's description when the address is not the plain name's: "at /mcp/github-2". */
  readonly moved?: string;
  /** The tooltip's line. */
  readonly line: string;
}

/** A file as a person names it: `.vscode/mcp.json`, `.mcp.json`, `mcp-config.json`, or the setting. */
export function shortScope(source: ConfigSource): string {
  return source.file === undefined ? 'user settings' : source.file.split(/[\\/]/).slice(-2).join('/').replace(/^[^.][^/]*\//, '');
}

function whose(source: ConfigSource): string {
  return originOf(source) === 'workspace' ? `the workspace's` : 'your own';
}

/** The gateway address of every servable entry (held back by trust: none), by id. */
export function gatewayAddresses(entries: readonly AddressedEntry[]): Map<string, GatewayAddress> {
  const servable = entries.filter((e) => !e.blocked);
  const named = servable.map((e) => ({ id: e.id, name: e.definition.name, origin: originOf(e.definition.source), entry: e }));
  const paths = assignPaths(named);
  const addresses = new Map<string, GatewayAddress>();
  for (const server of named) {
    const path = `/mcp/${paths.get(server.id)!}`;
    const holder = plainHolder(named, paths, server.id);
    const moved = named.filter((other) => plainHolder(named, paths, other.id)?.id === server.id);
    if (holder) {
      const other = holder.entry.definition;
      addresses.set(server.id, {
        path,
        moved: `at ${path}`,
        line: `Gateway address: ${path}, not /mcp/${paths.get(holder.id)!}: that one is ${whose(other.source)} "${other.name}" (${shortScope(other.source)}). Agents set up for it do not reach this server.`,
      });
    } else if (moved.length > 0) {
      const others = moved.map((m) => `${whose(m.entry.definition.source)} "${m.name}" (${shortScope(m.entry.definition.source)}) is at /mcp/${paths.get(m.id)!}`).join('; ');
      addresses.set(server.id, { path, line: `Gateway address: ${path}, kept for this server: ${others}.` });
    } else {
      addresses.set(server.id, { path, line: `Gateway address: ${path}` });
    }
  }
  return addresses;
}
