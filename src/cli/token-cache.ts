/**
 * Where the runner keeps sign-ins: in memory for the run, or with `--token-cache FILE` in
 * that file (JSON by key, mode 0600, written whole and renamed into place so a crash leaves
 * the old one). Tokens are never printed.
 */
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { CredentialStore } from '../mcp/sign-in/sign-in';

export function memoryStore(): CredentialStore {
  const values = new Map<string, string>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
  };
}

export function fileStore(path: string): CredentialStore {
  const read = (): Record<string, string> => {
    if (!existsSync(path)) return {};
    try {
      const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
    } catch (error) {
      throw new Error(`the token cache ${path} is not JSON: ${(error as Error).message} (remove it to sign in again)`, { cause: error });
    }
  };
  const write = (values: Record<string, string>): void => {
    const next = `${path}.${process.pid}.tmp`;
    writeFileSync(next, JSON.stringify(values), { mode: 0o600 });
    chmodSync(next, 0o600);
    renameSync(next, path);
  };
  return {
    get: async (key) => {
      const values = read();
      return Object.prototype.hasOwnProperty.call(values, key) ? values[key] : undefined;
    },
    set: async (key, value) => write({ ...read(), [key]: value }),
    delete: async (key) => {
      const values = read();
      delete values[key];
      write(values);
    },
  };
}
