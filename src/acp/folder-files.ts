/**
 * Reading and writing a checked file (file-access.ts) so that a link made after the check
 * is not followed: between a check and a write by name, anything running in the folder (the
 * agent's own helper processes) may swap the file or a folder on the way for a link out.
 *
 * - Read: opened without following a link at the end (O_NOFOLLOW), then what was opened is
 *   checked: on Linux the kernel's own path of the open file (/proc/self/fd) must be inside;
 *   elsewhere it must be the same file (device and inode) as the checked real path, which
 *   must still be real. Only a regular file is read (a FIFO or a device would block or never end).
 * - Write: the text goes to a new temporary file, created exclusively (O_EXCL, no link
 *   followed) in the checked real folder and checked as above, then renamed over the
 *   target: a rename replaces a link that appeared there instead of following it, and a
 *   folder on the way swapped for a link finds no temporary file to move. An existing
 *   file keeps its permissions. Folders that do not exist yet are made one at a time, each
 *   checked to be a real folder inside before the next.
 *
 * Node has no openat() or mkdirat(), so a link swapped in for a folder on the way between
 * the last check and the open is caught after the open (the file is then closed unread, or
 * the temporary file removed), not before; between a new folder's check and the next
 * mkdir such a swap can still leave one empty folder where the link leads (no file is
 * written there). Outside Linux the check after the open compares two lookups, which a
 * swap back and forth between them could still pass.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { FileAccessError, type FileTarget, insideAny, type LineWindow, linesOf } from './file-access';

// Both are 0 where the system has no such flag (Windows): there a link needs privileges to make.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** The most text read for an agent at once: a whole file, or the lines it asked for. */
export const READ_LIMIT_BYTES = 32 * 1024 * 1024;
const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** Where the kernel says the open file `handle` is (Linux); undefined where it does not say. */
async function kernelPath(handle: FileHandle): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

function changedWhile(target: FileTarget): FileAccessError {
  return new FileAccessError(`Refused to ${target.what} ${target.asked}: it, or a folder on its way, was replaced or moved (a symbolic link put in its place?) while it was being ${target.what === 'read' ? 'read' : 'written'}`);
}

/**
 * Throws unless the open `handle` is the file at `expected` (a real path inside the roots);
 * the error carries the kernel's path of what was opened where known (`openedAt`), so a
 * temporary file made in the wrong place can be removed.
 */
async function checkOpened(handle: FileHandle, opened: Stats, expected: string, target: FileTarget): Promise<void> {
  const changed = (): FileAccessError => changedWhile(target);
  const kernel = await kernelPath(handle);
  if (kernel !== undefined) {
    // A deleted file reads "<path> (deleted)": not the file that was checked either.
    if (kernel !== expected || !insideAny(target.roots, kernel)) throw Object.assign(changed(), { openedAt: kernel });
    return;
  }
  let now: Stats;
  try {
    if ((await realpath(expected)) !== expected) throw changed();
    now = await stat(expected);
  } catch (error) {
    if (error instanceof FileAccessError) throw error;
    throw changed();
  }
  if (now.dev !== opened.dev || now.ino !== opened.ino) throw changed();
}

/**
 * The text of the checked file `target` (the lines of `window` where given), read without
 * following a link made after the check.
 */
export async function readInside(target: FileTarget, window: LineWindow = {}): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(target.real, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    // ELOOP (EMLINK on some BSDs): the file itself became a link after the check.
    if (code(error) === 'ELOOP' || code(error) === 'EMLINK') throw new FileAccessError(`Refused to read ${target.asked}: it was replaced by a symbolic link while it was being read`);
    throw error;
  }
  try {
    const opened = await handle.stat();
    if (opened.isDirectory()) throw new FileAccessError(`${target.asked} is a folder, not a file`);
    if (!opened.isFile()) throw new FileAccessError(`Refused to read ${target.asked}: it is not a regular file (a pipe or a device is never read)`);
    await checkOpened(handle, opened, target.real, target);
    if (opened.size <= READ_LIMIT_BYTES) return linesOf(await handle.readFile('utf8'), window.line, window.limit);
    if ((window.line ?? null) === null && (window.limit ?? null) === null) {
      throw new FileAccessError(`Refused to read ${target.asked} whole: it is ${opened.size.toLocaleString('en-US')} bytes, over the ${megabytes(READ_LIMIT_BYTES)} read at once; ask for some of its lines (line and limit)`);
    }
    return await streamedLines(handle, target, window);
  } finally {
    await handle.close();
  }
}

/** The lines of `window` in a file too large to read whole: as linesOf() gives them, read up to the last. */
async function streamedLines(handle: FileHandle, target: FileTarget, window: LineWindow): Promise<string> {
  const first = Math.max(0, (window.line ?? 1) - 1);
  const end = window.limit === undefined || window.limit === null ? Infinity : first + Math.max(0, window.limit);
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.alloc(1024 * 1024);
  const parts: string[] = [];
  let kept = 0;
  let index = 0; // the line being read, from 0
  const keep = (piece: string): void => {
    if (index < first || piece === '') return;
    kept += piece.length;
    if (kept > READ_LIMIT_BYTES) throw new FileAccessError(`Refused to read lines of ${target.asked}: the lines asked for are over the ${megabytes(READ_LIMIT_BYTES)} read at once`);
    parts.push(piece);
  };
  let position = 0;
  while (index < end) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) {
      keep(decoder.end());
      return parts.join('');
    }
    position += bytesRead;
    const text = decoder.write(buffer.subarray(0, bytesRead));
    let from = 0;
    while (index < end) {
      const newline = text.indexOf('\n', from);
      if (newline < 0) {
        keep(text.slice(from));
        break;
      }
      keep(text.slice(from, newline + 1));
      index++;
      from = newline + 1;
    }
  }
  // The last line asked for ended: linesOf() joins lines, it does not end them.
  return parts.join('').slice(0, -1);
}

/** Throws unless `folder` is, now, a real folder (no link on its way) inside the roots. */
async function checkFolder(folder: string, target: FileTarget): Promise<void> {
  let real: string;
  try {
    real = await realpath(folder);
  } catch (error) {
    throw new FileAccessError(`${target.asked} cannot be written: its folder ${code(error) === 'ENOENT' ? 'was removed' : `cannot be checked (${code(error) ?? String(error)})`}`);
  }
  if (real !== folder || !insideAny(target.roots, real)) throw changedWhile(target);
  if (!(await stat(real)).isDirectory()) throw new FileAccessError(`${target.asked} cannot be written: ${real} is not a folder`);
}

/** The real folder the file goes in, checked; folders that do not exist yet are made one at a time, each checked before the next. */
async function folderFor(target: FileTarget): Promise<string> {
  let folder = target.missing.length === 0 ? dirname(target.real) : target.existing;
  await checkFolder(folder, target);
  for (const name of target.missing.slice(0, -1)) {
    folder = join(folder, name);
    try {
      // Never recursive: mkdir does not follow a link at the end, and the check after it catches one on the way.
      await mkdir(folder);
    } catch (error) {
      if (code(error) !== 'EEXIST') throw error;
    }
    await checkFolder(folder, target);
  }
  return folder;
}

/** Writes `content` as the whole text of the checked file `target`, without following a link made after the check. */
export async function writeInside(target: FileTarget, content: string): Promise<void> {
  const real = await folderFor(target);
  const name = target.missing.length === 0 ? basename(target.real) : target.missing[target.missing.length - 1];
  const path = join(real, name);
  let keepMode: number | undefined;
  try {
    const present = await lstat(path);
    if (present.isDirectory()) throw new FileAccessError(`${target.asked} is a folder, not a file`);
    // A link here now (made after the check) is replaced by the rename below, not followed.
    if (present.isFile()) keepMode = present.mode & 0o7777;
  } catch (error) {
    if (code(error) !== 'ENOENT') throw error;
  }
  // A short name of our own: the file's name plus a suffix could pass the system's length limit.
  const temporary = join(real, `.elicitation-host-${randomBytes(8).toString('hex')}.tmp`);
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o666);
  let done = false;
  let madeAt = temporary;
  try {
    try {
      await checkOpened(handle, await handle.stat(), temporary, target);
    } catch (error) {
      madeAt = (error as { openedAt?: string }).openedAt ?? temporary;
      throw error;
    }
    if (keepMode !== undefined) await handle.chmod(keepMode);
    await handle.writeFile(content, 'utf8');
    await handle.close();
    await rename(temporary, path);
    done = true;
  } finally {
    if (!done) {
      await handle.close().catch(() => undefined);
      // Ours alone (made exclusively, with a random name), wherever it was made.
      await unlink(madeAt).catch(() => undefined);
    }
  }
}
