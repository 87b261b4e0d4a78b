/**
 * Where Add Agent… gets the ACP Registry: fetched from its public address
 * (`elicitationHost.agentRegistryUrl`) at most once a day, over HTTPS only (plain HTTP to
 * this machine's loopback alone, where nothing on the network can change it), capped in
 * size and time, and kept in the extension's global storage; when the fetch fails, the kept
 * copy, however old (said so); without one, the built-in list (said why). The body is
 * untrusted data: acp-registry.ts reads it, and nothing in it runs without the person's
 * choice. An empty address turns fetching off.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorMessage } from '../../base/error-message';
import { isRecord } from '../../base/is-record';
import { type RegistryRead, readRegistry } from './acp-registry';

export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
/** The most the registry may be (about 100 kB in 2026). */
export const REGISTRY_MAX_BYTES = 2 * 1024 * 1024;
/** A copy younger than this is used without asking the network. */
export const REGISTRY_FRESH_MS = 24 * 60 * 60 * 1000;
/** After a failed fetch, the next try waits this long (offline, Add Agent… would wait every time). */
const RETRY_AFTER_MS = 10 * 60 * 1000;
const TIMEOUT_MS = 8000;

export type RegistryOrigin =
  | { readonly kind: 'registry'; readonly fetchedAt: number }
  | { readonly kind: 'cache'; readonly fetchedAt: number; readonly why?: string }
  | { readonly kind: 'built-in'; readonly why: string };

export interface RegistryListing {
  /** Undefined with the built-in list. */
  readonly read?: RegistryRead;
  readonly origin: RegistryOrigin;
}

interface CacheFile {
  readonly url: string;
  readonly fetchedAt: number;
  /** The last try, failed or not. */
  readonly triedAt: number;
  readonly body?: string;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The address as a URL when it may be fetched (https, or http to loopback); otherwise why not. */
export function registryUrl(address: string): URL | string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return `"${address.slice(0, 200)}" is not an address`;
  }
  if (url.username !== '' || url.password !== '') return 'the address must not carry a user name or password';
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return url;
  return `the address must start with https:// (plain http only to 127.0.0.1), not ${url.protocol}`;
}

/** The registry's text, at most REGISTRY_MAX_BYTES, from an allowed address (after redirects too), within the time limit. */
export async function fetchRegistryText(address: string, timeoutMs = TIMEOUT_MS): Promise<string> {
  const url = registryUrl(address);
  if (typeof url === 'string') throw new Error(url);
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' }, redirect: 'follow', credentials: 'omit' });
  const final = registryUrl(response.url || url.href);
  if (typeof final === 'string') {
    await response.body?.cancel();
    throw new Error(`it redirected to an address not allowed: ${final}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length'));
  if (length > REGISTRY_MAX_BYTES) {
    await response.body?.cancel();
    throw new Error(`it is ${length.toLocaleString('en-US')} bytes; at most ${REGISTRY_MAX_BYTES.toLocaleString('en-US')} are read`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) {
    size += next.value.byteLength;
    if (size > REGISTRY_MAX_BYTES) {
      await reader?.cancel();
      throw new Error(`it is larger than ${REGISTRY_MAX_BYTES.toLocaleString('en-US')} bytes`);
    }
    chunks.push(next.value);
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
}

async function readCache(file: string): Promise<CacheFile | undefined> {
  try {
    const raw: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!isRecord(raw) || typeof raw.url !== 'string' || typeof raw.fetchedAt !== 'number' || typeof raw.triedAt !== 'number') return undefined;
    return { url: raw.url, fetchedAt: raw.fetchedAt, triedAt: raw.triedAt, ...(typeof raw.body === 'string' && { body: raw.body }) };
  } catch {
    return undefined;
  }
}

async function writeCache(file: string, cache: CacheFile): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(cache), { mode: 0o600 });
  await rename(temporary, file);
}

/** The body read as the registry, or why it cannot be. */
function parsed(body: string, platform: string | undefined): RegistryRead | string {
  try {
    const read = readRegistry(JSON.parse(body), platform);
    return read.agents.length > 0 ? read : `it lists no agent that can run here${read.problems.length > 0 ? ` (${read.problems[0]})` : ''}`;
  } catch (error) {
    return errorMessage(error);
  }
}

export interface LoadOptions {
  /** `elicitationHost.agentRegistryUrl`; empty: no fetching, the built-in list. */
  readonly url: string;
  /** The kept copy (in the extension's global storage). */
  readonly cacheFile: string;
  /** acp-registry.ts's platformKey for this machine. */
  readonly platform: string | undefined;
  readonly now?: number;
  /** How the text is fetched (tests: a loopback server through the real fetch). */
  readonly fetchText?: (url: string) => Promise<string>;
}

/** The registry's agents: fresh from the kept copy, else fetched and kept, else the kept copy however old, else none (the built-in list). */
export async function loadRegistry(options: LoadOptions): Promise<RegistryListing> {
  const { url, cacheFile, platform } = options;
  const now = options.now ?? Date.now();
  if (url.trim() === '') return { origin: { kind: 'built-in', why: 'reading the ACP Registry is turned off (elicitationHost.agentRegistryUrl is empty)' } };
  const cache = await readCache(cacheFile);
  const kept = cache?.url === url && cache.body !== undefined ? parsed(cache.body, platform) : undefined;
  const keptCopy = (why?: string): RegistryListing | undefined =>
    cache && typeof kept === 'object' ? { read: kept, origin: { kind: 'cache', fetchedAt: cache.fetchedAt, ...(why !== undefined && { why }) } } : undefined;
  if (cache?.url === url && typeof kept === 'object' && now - cache.fetchedAt < REGISTRY_FRESH_MS) return keptCopy()!;
  let why: string;
  if (cache?.url === url && now - cache.triedAt < RETRY_AFTER_MS && now >= cache.triedAt) {
    why = 'the last try to read it failed a few minutes ago';
  } else {
    try {
      const body = await (options.fetchText ?? fetchRegistryText)(url);
      const read = parsed(body, platform);
      if (typeof read === 'string') throw new Error(read);
      await writeCache(cacheFile, { url, fetchedAt: now, triedAt: now, body }).catch(() => undefined);
      return { read, origin: { kind: 'registry', fetchedAt: now } };
    } catch (error) {
      why = `the ACP Registry could not be read (${errorMessage(error)})`;
      const failed: CacheFile = cache?.url === url ? { ...cache, triedAt: now } : { url, fetchedAt: 0, triedAt: now };
      await writeCache(cacheFile, failed).catch(() => undefined);
    }
  }
  return keptCopy(why) ?? { origin: { kind: 'built-in', why } };
}
