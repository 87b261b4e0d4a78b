/**
 * The URL path segment of each served server: its configured name made URL-safe, so the
 * address an agent is given reads like the server it reaches and stays the same across
 * restarts. Two servers whose names come out the same are told apart by a number, and the
 * person's own server keeps the plain name: the setting's first, then a file of theirs outside
 * any workspace, then a workspace's file (each in the order of their ids). Were it by id alone,
 * a trusted repository's `.mcp.json` "github" (an id of a path, before `user#github`) would
 * take `/mcp/github`, and every agent set up for the person's own "github" would reach the
 * repository's, silently. Pure (the Servers view says the same addresses).
 */
import type { ServerOrigin } from '../mcp/servers/upstream';

/** Letters, digits, `.`, `_` and `-` stay; every other run becomes one `-`. */
export function pathSegment(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64);
  return slug || 'server';
}

export interface NamedServer {
  readonly id: string;
  readonly name: string;
  readonly origin: ServerOrigin;
}

/** Who keeps a name's plain address first. */
const PRECEDENCE: Readonly<Record<ServerOrigin, number>> = { settings: 0, 'own-file': 1, workspace: 2 };

/** Path segment by server id; unique, stable for a given set of servers. */
export function assignPaths(servers: readonly NamedServer[]): Map<string, string> {
  const byId = new Map<string, string>();
  const taken = new Set<string>();
  const ordered = [...servers].sort((a, b) => PRECEDENCE[a.origin] - PRECEDENCE[b.origin] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const server of ordered) {
    const base = pathSegment(server.name);
    let segment = base;
    for (let n = 2; taken.has(segment.toLowerCase()); n++) segment = `${base}-${n}`;
    taken.add(segment.toLowerCase());
    byId.set(server.id, segment);
  }
  return byId;
}

/** For a server not at its plain name's address: the server that holds that address (a namesake before it). */
export function plainHolder<T extends NamedServer>(servers: readonly T[], paths: ReadonlyMap<string, string>, id: string): T | undefined {
  const server = servers.find((s) => s.id === id);
  if (!server) return undefined;
  const plain = pathSegment(server.name).toLowerCase();
  if (paths.get(id)?.toLowerCase() === plain) return undefined;
  return servers.find((s) => s.id !== id && paths.get(s.id)?.toLowerCase() === plain);
}
