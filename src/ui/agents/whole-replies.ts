/**
 * The whole of what an agent streamed past an entry's cap (a reply, a thought), kept out of
 * the extension host's memory but within reach: written to a file of the session's own in the
 * extension's storage as it streams, opened read-only in an editor by Open Whole Reply, and
 * deleted with the session (Close Session) or the window. A folder is named for the extension
 * host's process, so a window that starts sweeps away what a window that crashed left behind,
 * and never what another live window writes. Free of `vscode` (whole-reply-documents.ts opens
 * them), so it is unit tested.
 */
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { processRunning } from '../../base/process-running';
import type { WholeTexts } from './transcript';

/** Deletes what windows no longer running left under `root`. */
export function sweepWholeReplies(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return; // Nothing written yet.
  }
  for (const name of names) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !processRunning(pid)) rmSync(join(root, name), { recursive: true, force: true });
  }
}

/** One session's whole texts: a file per entry that passed its cap, in a folder made when the first one does. */
export class WholeReplyFiles implements WholeTexts {
  private folder: string | undefined;
  private readonly files = new Map<string, { readonly path: string; readonly stream: WriteStream }>();

  constructor(
    /** Where the sessions' folders go (the extension's global storage). */
    private readonly root: string,
    private readonly warn: (message: string) => void,
  ) {}

  begin(id: string, soFar: string): void {
    this.folder ??= this.makeFolder();
    const path = join(this.folder, `${id.replace(/[^\w-]/g, '_')}.md`);
    const stream = createWriteStream(path, { mode: 0o600 });
    // A full disk loses the whole text, not the session: the entry still says what it left out.
    stream.on('error', (error) => this.warn(`The whole reply could not be written to ${path}: ${error.message}`));
    stream.write(soFar);
    this.files.set(id, { path, stream });
  }

  more(id: string, text: string): void {
    this.files.get(id)?.stream.write(text);
  }

  drop(id: string): void {
    const file = this.files.get(id);
    if (!file) return;
    this.files.delete(id);
    file.stream.end(() => rmSync(file.path, { force: true }));
  }

  /** Whether the entry's whole text is kept. */
  has(id: string): boolean {
    return this.files.has(id);
  }

  /** The file holding the entry's whole text, once everything written so far is in it. */
  async written(id: string): Promise<string | undefined> {
    const file = this.files.get(id);
    if (!file) return undefined;
    // Writes are done in order: once an empty one is, so is everything before it.
    await new Promise<void>((resolve) => file.stream.write(Buffer.alloc(0), () => resolve()));
    return file.path;
  }

  private makeFolder(): string {
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    return mkdtempSync(join(this.root, `${process.pid}-`));
  }

  /** Everything goes: the streams are closed and the folder deleted. */
  dispose(): void {
    const files = [...this.files.values()];
    this.files.clear();
    const folder = this.folder;
    this.folder = undefined;
    let open = files.length;
    const gone = (): void => {
      if (--open <= 0 && folder) rmSync(folder, { recursive: true, force: true });
    };
    if (files.length === 0) gone();
    for (const file of files) file.stream.end(gone);
  }
}
