/**
 * Waiting for an event a test cannot subscribe to (a record in a file, a line in a log, a
 * process gone): polls until it holds, and fails with what it waited for when it never does.
 */
export async function waitUntil<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves once no process has this pid any more. */
export function waitUntilGone(pid: number, timeoutMs = 10_000): Promise<true> {
  return waitUntil(`process ${pid} to end`, () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }, timeoutMs);
}
