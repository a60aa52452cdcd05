/**
 * Prints what a fresh run downloads besides Deno: the compressed size of every npm package in deno.lock, as the
 * registry serves it (Content-Length of each tarball). The registry generator's packages live in
 * registry/gen/deno.lock and are not counted: a user's run never fetches them.
 */
const lock = JSON.parse(await Deno.readTextFile(new URL("../deno.lock", import.meta.url)));
const packages = Object.keys(lock.npm ?? {});
let total = 0;
for (const key of packages) {
  const at = key.lastIndexOf("@");
  const name = key.slice(0, at);
  const version = key.slice(at + 1).split("_")[0];
  const url = `https://registry.npmjs.org/${name}/-/${name.split("/").pop()}-${version}.tgz`;
  const res = await fetch(url, { method: "HEAD" });
  const size = Number(res.headers.get("content-length"));
  if (!res.ok || !Number.isFinite(size)) throw new Error(`${url}: HTTP ${res.status}, no size`);
  total += size;
}
console.log(`a fresh run downloads ${total} bytes of npm packages (${packages.length} packages, compressed)`);
