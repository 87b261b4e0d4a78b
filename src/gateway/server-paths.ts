/**
 * The URL path segment of each served server: its configured name made URL-safe, so the
 * address an agent is given reads like the server it reaches and stays the same across
 * restarts. Two servers whose names come out the same (a workspace's and the user's
 * "github") are told apart by a number, in the order of their ids. Pure.
 */

/** Letters, digits, `.`, `_` and `-` stay; every other run becomes one `-`. */
export function pathSegment(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64);
  return slug || 'server';
}

/** Path segment by server id; unique, stable for a given set of servers. */
export function assignPaths(servers: ReadonlyArray<{ readonly id: string; readonly name: string }>): Map<string, string> {
  const byId = new Map<string, string>();
  const taken = new Set<string>();
  const ordered = [...servers].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const server of ordered) {
    const base = pathSegment(server.name);
    let segment = base;
    for (let n = 2; taken.has(segment.toLowerCase()); n++) segment = `${base}-${n}`;
    taken.add(segment.toLowerCase());
    byId.set(server.id, segment);
  }
  return byId;
}
