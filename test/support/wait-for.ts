/** Waits until `probe` holds (polling), failing with `what` after `timeoutMs`: waits for an event, never sleeps and asserts. */
export async function waitFor(what: string, probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
