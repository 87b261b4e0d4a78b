/**
 * The runner's and the tests' files: the disk, read and written without following a link
 * made after the check (folder-files.ts). (VS Code's implementation, in src/ui, reads an
 * open editor's unsaved text and shows a write in an editor.) Targets arrive checked.
 */
import { readInside, writeInside } from './folder-files';
import type { AgentFiles } from './ports';

export const diskFiles: AgentFiles = {
  read: readInside,
  // ACP's write creates the file when it does not exist; its folders too (inside the session's, as checked).
  write: writeInside,
};
