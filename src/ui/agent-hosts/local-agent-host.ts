/**
 * The agent host desktop VS Code runs on this machine, as VS Code publishes it for other local
 * clients: one JSON file per host under `<userData>/agent-host/local-endpoint/entries/`
 * (VS Code 1.139's agentHostMain.js: the folder owner-only, mode 0700; each file written
 * owner-only, 0600, as `<sha256 of type, pid, instance>.json`):
 *
 *   {"schemaVersion":2,"type":"editor"|"standalone","pid":N,"instanceId":"…","protocolVersion":"0.9.0",
 *    "connectionToken":"…","endpoint":{"type":"socket","path":"/tmp/vscode-ah-…/….sock"}
 *                                   |{"type":"tcp","host":"…","port":N},"quality"?:"stable","tunnelName"?:"…"}
 *
 * Every file is untrusted input (another program could have written it): the folder and each
 * file must be ours and owner-only, not links, and small; the shape is checked field by field
 * with bounds; the endpoint must be a socket or loopback TCP (the token must not leave the
 * machine); entries whose process is gone are left out. Our extension finds the running VS
 * Code's userData from its own global storage (`<userData>/User/globalStorage/<extension>`).
 */
import { constants, promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type Endpoint, parseEndpoint } from '../../ahp/endpoint';
import { isRecord } from '../../base/is-record';
import { tokenProblem } from './agent-host-definitions';

export interface LocalAgentHost {
  /** As the Connect command offers it. */
  readonly label: string;
  readonly description: string;
  readonly endpoint: Endpoint;
  readonly token: string;
  readonly type: 'editor' | 'standalone';
  readonly pid: number;
}

const SCHEMA_VERSION = 2;
const MAX_FILE_BYTES = 8 * 1024;
const MAX_ENTRIES = 32;
const ENTRY_FILE = /^[0-9a-f]{64}\.json$/;

/** `<userData>` from the extension's global storage folder (`<userData>/User/globalStorage/<extension id>`), if it has that shape. */
export function userDataFromGlobalStorage(globalStoragePath: string): string | undefined {
  const globalStorage = dirname(globalStoragePath);
  const user = dirname(globalStorage);
  if (basename(globalStorage) !== 'globalStorage' || basename(user) !== 'User') return undefined;
  return dirname(user);
}

export function entriesFolder(userData: string): string {
  return join(userData, 'agent-host', 'local-endpoint', 'entries');
}

export interface ReadOptions {
  /** This process's user (undefined on Windows, which has no uid and keeps the folder private with ACLs). */
  readonly uid?: number;
  /** Whether the process is still running (default: signal 0). */
  readonly alive?: (pid: number) => boolean;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone (the entry is stale); EPERM: it runs as someone else, so the entry is not of our VS Code.
    return false;
  }
}

/** Owner-only and ours: what VS Code makes, and what keeps another user's file from speaking for our VS Code. */
function privateProblem(stat: { readonly uid: number; readonly mode: number }, uid: number | undefined): string | undefined {
  if (uid === undefined) return undefined;
  if (stat.uid !== uid) return 'is not owned by you';
  if ((stat.mode & 0o077) !== 0) return `can be read or written by others (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

const text = (v: unknown, max: number, pattern?: RegExp): v is string => typeof v === 'string' && v.length > 0 && v.length <= max && (!pattern || pattern.test(v));

/** One entry's JSON, checked; why not, when it is not one we take. */
export function readEntry(json: unknown): LocalAgentHost | string {
  if (!isRecord(json)) return 'not a JSON object';
  if (json.schemaVersion !== SCHEMA_VERSION) return `schemaVersion is not ${SCHEMA_VERSION}`;
  if (json.type !== 'editor' && json.type !== 'standalone') return 'type is neither "editor" nor "standalone"';
  const pid = json.pid;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return 'pid is not a positive integer';
  if (!text(json.instanceId, 128, /^[\w-]+$/)) return 'instanceId is not an id of at most 128 characters';
  if (!text(json.protocolVersion, 32, /^\d+\.\d+\.\d+[\w.-]*$/)) return 'protocolVersion is not a version';
  const token = json.connectionToken;
  if (typeof token !== 'string' || token === '' || tokenProblem(token)) return 'connectionToken is not a token of at most 1,024 printable characters';
  const where = json.endpoint;
  if (!isRecord(where)) return 'endpoint is not an object';
  let endpoint: Endpoint;
  try {
    if (where.type === 'socket') {
      if (!text(where.path, 1024)) return 'endpoint.path is not a path of at most 1,024 characters';
      endpoint = parseEndpoint(where.path).endpoint;
      if (endpoint.kind !== 'socket') return 'endpoint.path is not an absolute socket path';
    } else if (where.type === 'tcp') {
      const port = where.port;
      if (typeof port !== 'number' || !Number.isSafeInteger(port) || port <= 0 || port > 65535) return 'endpoint.port is not a port';
      if (!text(where.host, 255, /^[\w.:[\]-]+$/)) return 'endpoint.host is not a host name';
      const host = where.host.includes(':') && !where.host.startsWith('[') ? `[${where.host}]` : where.host;
      // ws:// only to loopback (endpoint.ts): a host elsewhere is refused here, with its token unsent.
      endpoint = parseEndpoint(`ws://${host}:${port}`).endpoint;
    } else {
      return 'endpoint.type is neither "socket" nor "tcp"';
    }
  } catch (error) {
    return `endpoint: ${error instanceof Error ? error.message : String(error)}`;
  }
  const quality = typeof json.quality === 'string' && /^[a-z]{1,20}$/.test(json.quality) ? json.quality : undefined;
  const label = json.type === 'editor' ? 'VS Code on this machine' : 'Agent host on this machine (code agent host)';
  const description = [quality && quality !== 'stable' ? quality : undefined, `process ${pid}`, `AHP ${json.protocolVersion}`].filter(Boolean).join(' · ');
  return { label, description, endpoint, token, type: json.type, pid };
}

/**
 * The live hosts published under `userData`, editors first; and why each file left out was
 * (for the log: never with its token). A missing folder is no host, not a problem.
 */
export async function readLocalAgentHosts(userData: string, options: ReadOptions = {}): Promise<{ readonly hosts: LocalAgentHost[]; readonly problems: string[] }> {
  const folder = entriesFolder(userData);
  const uid = options.uid;
  const alive = options.alive ?? isAlive;
  const problems: string[] = [];
  const hosts: LocalAgentHost[] = [];
  let names: string[];
  try {
    const stat = await fs.lstat(folder);
    if (!stat.isDirectory() || stat.isSymbolicLink()) return { hosts, problems: [`${folder} is not a folder`] };
    const why = privateProblem(stat, uid);
    if (why) return { hosts, problems: [`${folder} ${why}: its entries are not read`] };
    names = (await fs.readdir(folder)).filter((n) => ENTRY_FILE.test(n)).sort().slice(0, MAX_ENTRIES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { hosts, problems };
    return { hosts, problems: [`${folder}: ${(error as Error).message}`] };
  }
  for (const name of names) {
    const file = join(folder, name);
    const read = await readFile(file, uid);
    if ('problem' in read) {
      problems.push(`${file}: ${read.problem}`);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.text);
    } catch {
      problems.push(`${file}: not JSON`);
      continue;
    }
    const host = readEntry(parsed);
    if (typeof host === 'string') problems.push(`${file}: ${host}`);
    else if (alive(host.pid)) hosts.push(host);
  }
  hosts.sort((a, b) => (a.type === b.type ? a.pid - b.pid : a.type === 'editor' ? -1 : 1));
  return { hosts, problems };
}

/** The file's text, read through one descriptor that is not a link (so what was checked is what is read), or why not. */
async function readFile(file: string, uid: number | undefined): Promise<{ readonly text: string } | { readonly problem: string }> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    return { problem: (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'is a link' : `cannot be read: ${(error as Error).message}` };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { problem: 'is not a file' };
    const why = privateProblem(stat, uid);
    if (why) return { problem: why };
    if (stat.size > MAX_FILE_BYTES) return { problem: `is ${stat.size} bytes, over ${MAX_FILE_BYTES}` };
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_FILE_BYTES) return { problem: `is over ${MAX_FILE_BYTES} bytes` };
    return { text: buffer.subarray(0, bytesRead).toString('utf8') };
  } finally {
    await handle.close();
  }
}
