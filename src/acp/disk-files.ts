/**
 * The runner's and the tests' files: the disk. (VS Code's implementation, in src/ui, reads
 * an open editor's unsaved text and writes as an undoable edit.) Paths arrive checked.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AgentFiles } from './ports';

export const diskFiles: AgentFiles = {
  read: (path) => readFile(path, 'utf8'),
  async write(path, content) {
    // ACP's write creates the file when it does not exist; its folder too (inside the session's, as checked).
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, 'utf8');
  },
};
