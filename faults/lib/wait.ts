/**
 * Polls `check` until it gives a value (anything but null or false), or fails after `timeoutMs` naming `what`:
 * a fault test waits on what it needs to have happened, never for a fixed time (a loaded machine does less in
 * it, and a count checked afterwards then fails for no fault of the product).
 */
export async function waitFor<T>(what: string, check: () => T | null | false | Promise<T | null | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
