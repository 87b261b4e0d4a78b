/**
 * Where an agent may read and write through us (and which files the session panel opens):
 * inside its session's working directories only. A path is judged by where it really
 * leads: its nearest existing part is found without following links (lstat), then
 * resolved; a link there that leads nowhere (a dangling link: writing would create its
 * target, wherever that is) or round in a circle is refused, not walked past. Anything
 * else outside is refused with an error naming the rule. The check alone cannot stop a
 * link made after it: folder-files.ts reads and writes what was checked without following one.
 */
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export class FileAccessError extends Error {
  /** The message after "Refused to read <path>:", for a surface that words the refusal its own way. */
  readonly why: string;

  constructor(message: string, why?: string) {
    super(message);
    this.name = 'FileAccessError';
    this.why = why ?? message;
  }
}

/** Every file request in an untrusted workspace, reads included: the repository may hold what its agent must not see. */
export function untrustedRefusal(what: 'read' | 'write', path: string): FileAccessError {
  return new FileAccessError(`Refused to ${what} ${path}: this workspace is not trusted, and an agent reads and writes no file in it until it is`);
}

/** A path that passed the rule, as folder-files.ts and the hosts' file ports take it. */
export interface FileTarget {
  /** The path as the agent (or the page) gave it: what messages name. */
  readonly asked: string;
  /** Where it really leads: every link resolved; for a file not there yet, its nearest existing folder's real path with the rest appended. */
  readonly real: string;
  /** The real path of the nearest existing part (`real` itself when the file exists). */
  readonly existing: string;
  /** The names below `existing` that do not exist yet, the file's own last; empty when it exists. */
  readonly missing: readonly string[];
  /** The session's directories as real paths: what was opened is checked against them again. */
  readonly roots: readonly string[];
  readonly what: 'read' | 'write';
}

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** `path` is `root` or below it (both real paths). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export function insideAny(roots: readonly string[], path: string): boolean {
  return roots.some((root) => isInside(root, path));
}

/** The session's directories as real paths; one that does not exist holds nothing. */
async function realRoots(roots: readonly string[]): Promise<string[]> {
  const real = await Promise.all(roots.map((root) => realpath(resolve(root)).catch(() => undefined)));
  return real.filter((r): r is string => r !== undefined);
}

/** The nearest part of `path` that exists, itself not followed, and the names below it. Throws the system's error otherwise. */
async function nearestExisting(path: string): Promise<{ at: string; missing: string[] }> {
  const missing: string[] = [];
  let at = path;
  for (;;) {
    try {
      await lstat(at);
      return { at, missing };
    } catch (error) {
      // Only "does not exist" walks up; a folder we may not read is not a way around the rule.
      if (code(error) !== 'ENOENT' && code(error) !== 'ENOTDIR') throw error;
      const parent = dirname(at);
      if (parent === at) throw error;
      missing.unshift(basename(at));
      at = parent;
    }
  }
}

/**
 * The target to read or write, once `path` is found to lead inside one of `roots` (the
 * session's working directories). Throws FileAccessError otherwise, saying what was refused
 * and why; a file to read that does not exist (inside) throws ENOENT.
 */
export async function checkFileAccess(path: string, roots: readonly string[], what: 'read' | 'write'): Promise<FileTarget> {
  if (typeof path !== 'string' || path === '') throw new FileAccessError('the path is empty');
  if (path.includes('\0')) throw new FileAccessError('the path contains a NUL character');
  if (!isAbsolute(path)) throw new FileAccessError(`${path} is not an absolute path (ACP paths are absolute)`);
  const refused = (why: string, shown = path): FileAccessError => new FileAccessError(`Refused to ${what} ${shown}: ${why}`, why);
  const rule = `an agent may ${what} files only inside its session's working directories (${roots.join(', ')})`;
  let at = resolve(path);
  let missing: string[];
  let existing: string;
  try {
    ({ at, missing } = await nearestExisting(at));
    existing = await realpath(at);
  } catch (error) {
    // `at` exists (lstat said so) yet cannot be resolved, a link to nothing; or links in a circle on the way.
    if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') {
      const link = at === resolve(path) ? 'it is' : `${at} is`;
      throw refused(`${link} a symbolic link to something that does not exist${what === 'write' ? ' (writing would create whatever it names, wherever that is, so a link that leads nowhere is refused)' : ''}`);
    }
    if (code(error) === 'ELOOP') throw refused('it leads through symbolic links that go round in a circle');
    throw new FileAccessError(`${path} cannot be checked: ${code(error) ?? String(error)}`);
  }
  const real = join(existing, ...missing);
  const inRoots = await realRoots(roots);
  if (!insideAny(inRoots, real)) {
    throw refused(rule, real === resolve(path) ? path : `${path} (really ${real})`);
  }
  if (what === 'read' && missing.length > 0) {
    throw Object.assign(new Error(`${path} does not exist`), { code: 'ENOENT' });
  }
  return { asked: path, real, existing, missing, roots: inRoots, what };
}

/** `line` (1-based) and `limit` of `fs/read_text_file`: the lines an agent asks for. */
export interface LineWindow {
  readonly line?: number | null;
  readonly limit?: number | null;
}

/** `line` (1-based) and `limit` of `fs/read_text_file`, applied to the whole text. */
export function linesOf(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('\n');
}
