/**
 * Extensions that stand in for others in the UI scenarios (an agent calling VS Code's tool
 * API, an agent asking through our API): packed the way ours is, so they install as any
 * extension does, and read back through the files they write whole.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from '../support/wait';
import { REPO } from './context';

/** Packs test/e2e/<folder> into `into`; returns the .vsix. */
export function packTestExtension(folder: string, into: string): string {
  const vsix = join(into, `${folder}.vsix`);
  const vsce = join(REPO, 'node_modules/.bin/vsce');
  const result = spawnSync(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], { cwd: join(REPO, 'test/e2e', folder), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`packing test/e2e/${folder} failed (run "npm ci" for @vscode/vsce): ${result.stdout}${result.stderr}`);
  return vsix;
}

/** Waits for a file a test extension writes whole (it renames it into place). */
export async function probeFile<T>(path: string, timeoutMs = 60_000): Promise<T> {
  await waitUntil(`the probe to write ${path}`, () => existsSync(path), timeoutMs);
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
