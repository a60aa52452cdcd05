/**
 * Rotating samples for sweeps too big to run whole on every test run (every command's help, completion, a
 * registry method for real): each day picks another sample, so the whole space is covered over days while a
 * run stays cheap. The seed is printed on failure; set the named env var to replay it.
 */

/** A small seeded generator (mulberry32): the same seed gives the same numbers, so a failure replays exactly. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The env var's seed when set (a replay), else today's day number. */
export function daySeed(envVar: string): number {
  return Number(Deno.env.get(envVar) ?? Math.floor(Date.now() / 86_400_000));
}

/** `n` of `xs` picked by `seed`, in their original order (so the sample reads like the sweep it came from). */
export function sampleOf<T>(xs: T[], n: number, seed: number): T[] {
  const random = rng(seed);
  const keep = new Set(
    xs.map((_, i) => ({ i, k: random() })).sort((a, b) => a.k - b.k).slice(0, n).map((x) => x.i),
  );
  return xs.filter((_, i) => keep.has(i));
}
