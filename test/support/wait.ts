/**
 * The one poller of the tests and the bench, for an event a test cannot subscribe to (a
 * record in a file, a line in a log, a question on screen, a process gone): polls until the
 * condition holds, and fails with what it waited for when it never does. It waits for a
 * condition, never sleeps and then asserts.
 */
export async function waitUntil<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
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
