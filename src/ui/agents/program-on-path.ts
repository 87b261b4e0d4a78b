/**
 * Whether a program can be found on PATH, looked up as a shell would find it (each PATH
 * folder in turn, an executable regular file; on Windows with PATHEXT's endings), without
 * running anything: Add Agent… says which runtime an agent needs and the machine lacks
 * (npx: Node.js, uvx: uv, a registry binary: the program itself).
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

export interface SearchPath {
  readonly path: string | undefined;
  readonly pathExt?: string;
  readonly windows: boolean;
}

/** This process's PATH, which an agent's process inherits. */
export function processPath(): SearchPath {
  return { path: process.env.PATH ?? process.env.Path, pathExt: process.env.PATHEXT, windows: process.platform === 'win32' };
}

async function executable(file: string, windows: boolean): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    if (!windows) await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The full path the program would run from, or undefined when no PATH folder has it. */
export async function findOnPath(program: string, search: SearchPath = processPath()): Promise<string | undefined> {
  if (program === '' || /[/\\]/.test(program)) return undefined;
  const endings = search.windows ? ['', ...(search.pathExt ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const separator = search.windows ? ';' : delimiter;
  for (const folder of (search.path ?? '').split(separator)) {
    if (folder === '') continue;
    for (const ending of endings) {
      const file = join(folder, program + ending);
      if (await executable(file, search.windows)) return file;
    }
  }
  return undefined;
}
