/**
 * Where writing a config file would really land: Connect an Agent writes only inside the
 * workspace folder, and a symbolic link on the way (the file itself, a folder such as
 * `.claude`, a link to a place that does not exist yet) may lead anywhere. Both sides are
 * compared as real paths, so a workspace opened through a link is still itself. Reads the
 * file system, no vscode.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Links followed by hand before giving up (the kernel's own limit is about as many). */
const MOST_LINKS = 40;

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The real path a write to `path` would reach (its nearest existing part resolved, the rest appended); undefined for links in a circle. */
function whereWritten(path: string, hops = 0): string | undefined {
  let existing = path;
  const rest: string[] = [];
  while (!exists(existing) && dirname(existing) !== existing) {
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  try {
    return join(realpathSync.native(existing), ...rest);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || hops >= MOST_LINKS) return undefined;
    // A link to something that does not exist (yet): writing would create it where the link points.
    const target = resolve(realpathSync.native(dirname(existing)), readlinkSync(existing));
    return whereWritten(join(target, ...rest), hops + 1);
  }
}

/**
 * Why `path` (relative to the workspace `folder`, with `/`) must not be written, as words
 * that follow its name; undefined when writing it stays inside the folder.
 */
export function outsideWorkspace(folder: string, path: string): string | undefined {
  let target: string | undefined;
  try {
    target = whereWritten(resolve(folder, ...path.split('/')));
  } catch (error) {
    return `could not be checked (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  if (target === undefined) return 'leads through symbolic links that go round in a circle';
  const inside = relative(realpathSync.native(folder), target);
  return inside !== '' && inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside) ? undefined : `leads outside the workspace folder, to ${target}`;
}
