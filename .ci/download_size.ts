/**
 * Prints what a fresh run downloads besides Deno: the compressed size of every npm package in deno.lock that
 * this platform installs, as the registry serves it (Content-Length of each tarball). A platform build a
 * package lists for another system (`os`/`cpu` in the lock, e.g. @napi-rs/keyring's darwin and win32 builds)
 * is never fetched here, so it is counted apart. The registry generator's packages live in
 * registry/gen/deno.lock and the test-only SDKs' in tests/sdk/ and tests/mcp_sdk/: a user's run never
 * fetches them, so they are not counted.
 */
const lock = JSON.parse(await Deno.readTextFile(new URL("../deno.lock", import.meta.url)));
const OS = { windows: "win32" }[Deno.build.os as string] ?? Deno.build.os;
const CPU = { x86_64: "x64", aarch64: "arm64" }[Deno.build.arch as string] ?? Deno.build.arch;
const fits = (wanted: string[] | undefined, here: string) =>
  !wanted || wanted.some((w) => w === here) ||
  (wanted.every((w) => w.startsWith("!")) && !wanted.includes(`!${here}`));
let total = 0;
let other = 0;
let count = 0;
let otherCount = 0;
for (const [key, entry] of Object.entries(lock.npm ?? {}) as [string, { os?: string[]; cpu?: string[] }][]) {
  const at = key.lastIndexOf("@");
  const name = key.slice(0, at);
  const version = key.slice(at + 1).split("_")[0];
  const url = `https://registry.npmjs.org/${name}/-/${name.split("/").pop()}-${version}.tgz`;
  const res = await fetch(url, { method: "HEAD" });
  const size = Number(res.headers.get("content-length"));
  if (!res.ok || !Number.isFinite(size)) throw new Error(`${url}: HTTP ${res.status}, no size`);
  if (fits(entry.os, OS) && fits(entry.cpu, CPU)) {
    total += size;
    count++;
  } else {
    other += size;
    otherCount++;
  }
}
console.log(
  `a fresh run on ${OS}-${CPU} downloads ${total} bytes of npm packages (${count} packages, compressed); ` +
    `other platforms' builds in the lock, never fetched here: ${other} bytes (${otherCount} packages)`,
);
