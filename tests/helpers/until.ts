/** Polls `check` until it holds; fails naming `what` after `ms`. For state another task or process changes. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 20_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
