/**
 * The Unix socket transport: the daemon's local endpoint, newline-delimited JSON, one connection per client.
 * A socket file left by a killed server makes a new listen fail with "address in use"; it is probed with a
 * connect first and removed only if nobody answers, so a live server is never unplugged.
 */
import { listenPrivateUnix } from "../../cli/files.ts";
import { errors } from "../../cli/output/errors.ts";
import type { LarkitAppServer } from "../server.ts";
import { serveNdjson } from "./ndjson.ts";

export interface UnixListener {
  readonly path: string;
  /** Stops accepting, ends every connection served here, removes the socket file. */
  close(): Promise<void>;
  /** Settles when the accept loop ended. */
  readonly done: Promise<void>;
}

/** What a path holds: nothing, a live server, or a stale socket file. */
export async function probeSocket(path: string): Promise<"absent" | "live" | "stale"> {
  try {
    const info = await Deno.lstat(path);
    if (!info.isSocket) return "live";
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return "absent";
    throw e;
  }
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    conn.close();
    return "live";
  } catch {
    return "stale";
  }
}

export async function listenUnix(
  server: LarkitAppServer,
  path: string,
  opts: { maxLineBytes?: number; log?: (event: string, fields: Record<string, unknown>) => void } = {},
): Promise<UnixListener> {
  const state = await probeSocket(path);
  if (state === "live") {
    throw errors.config(`${path} is in use (another server answers there, or it is not a socket)`, {
      hint: "stop that server or choose another path: --listen unix:/other/path.sock",
    });
  }
  if (state === "stale") {
    await Deno.remove(path);
    opts.log?.("stale_socket_removed", { path });
  }
  // 0600 whatever the umask or the directory: anyone who can connect runs turns with this user's credentials.
  const listener = listenPrivateUnix(path);
  const conns = new Set<Deno.UnixConn>();
  const served = new Set<Promise<void>>();
  const done = (async () => {
    try {
      for await (const conn of listener) {
        conns.add(conn);
        const serving = serveNdjson(server, conn.readable, {
          write: async (text) => {
            const bytes = new TextEncoder().encode(text);
            for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
          },
          close: () => {
            try {
              conn.close();
            } catch {
              // Already closed by the peer.
            }
          },
        }, { origin: "Stdio", label: `unix:${path}`, maxLineBytes: opts.maxLineBytes })
          .finally(() => {
            conns.delete(conn);
            served.delete(serving);
          });
        served.add(serving);
      }
    } catch (e) {
      if (!(e instanceof Deno.errors.BadResource)) throw e;
    }
  })();
  return {
    path,
    done,
    async close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // Already closed by the peer.
        }
      }
      await done;
      await Promise.all(served);
      await Deno.remove(path).catch(() => {/* Deno already removed it on close */});
    },
  };
}
