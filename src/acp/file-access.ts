/**
 * Where an agent may read and write through us: inside its session's working directories
 * only. The path is resolved and its symlinks followed before it is checked (a link inside
 * the folder that points at `~/.ssh` is outside); a file that does not exist yet is judged
 * by its nearest existing parent. Anything else is refused with an error naming the rule.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

export class FileAccessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileAccessError';
  }
}

/** The real path of `path`, or of its nearest existing parent with the rest appended. */
async function realPathOrParent(path: string): Promise<string> {
  const missing: string[] = [];
  let at = path;
  for (;;) {
    try {
      const real = await realpath(at);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Only "does not exist" walks up; a folder we may not read is not a way around the rule.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new FileAccessError(`${path} cannot be checked: ${code ?? String(error)}`);
      const parent = dirname(at);
      if (parent === at) throw new FileAccessError(`${path} has no existing parent folder`);
      missing.push(basename(at));
      at = parent;
    }
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The real path to read or write, once `path` is found inside one of `roots` (the session's
 * working directories, themselves resolved). Throws FileAccessError otherwise.
 */
export async function checkFileAccess(path: string, roots: readonly string[], what: 'read' | 'write'): Promise<string> {
  if (typeof path !== 'string' || path === '') throw new FileAccessError('the path is empty');
  if (path.includes('\0')) throw new FileAccessError('the path contains a NUL character');
  if (!isAbsolute(path)) throw new FileAccessError(`${path} is not an absolute path (ACP paths are absolute)`);
  const real = await realPathOrParent(resolve(path));
  const realRoots = await Promise.all(roots.map((root) => realPathOrParent(resolve(root))));
  if (realRoots.some((root) => inside(root, real))) return real;
  const shown = real === resolve(path) ? path : `${path} (really ${real})`;
  throw new FileAccessError(
    `Refused to ${what} ${shown}: an agent may ${what} files only inside its session's working directories (${roots.join(', ')})`,
  );
}

/** `line` (1-based) and `limit` of `fs/read_text_file`, applied to the whole text. */
export function linesOf(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('\n');
}
