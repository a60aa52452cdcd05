/**
 * File access as the provider hands it out. The real implementation is Deno's file system; writes are
 * atomic (temp file + rename) because half-written config or token files would lock a user out.
 */
import { errors } from "./output/errors.ts";

/**
 * `node:path`'s `join` for POSIX paths: the parts joined, `.`/`..`/repeated slashes resolved, a trailing
 * slash kept. Written here because loading `node:path` costs every run several milliseconds (issue 17).
 */
export function joinPath(...parts: string[]): string {
  const joined = parts.filter((p) => p !== "").join("/");
  if (joined === "") return ".";
  const absolute = joined.startsWith("/");
  const segments: string[] = [];
  for (const seg of joined.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg !== "..") segments.push(seg);
    else if (segments.length && segments.at(-1) !== "..") segments.pop();
    else if (!absolute) segments.push("..");
  }
  const path = (absolute ? "/" : "") + segments.join("/");
  if (path === "") return absolute ? "/" : ".";
  return joined.endsWith("/") && path !== "/" ? `${path}/` : path;
}

/** A `file:` URL as a path for `Files`: decoded, and on Windows without the `/` before `C:`. */
export const urlPath = (url: URL): string => decodeURIComponent(url.pathname).replace(/^\/([A-Za-z]:)/, "$1");

/** `node:path`'s `dirname` for POSIX paths (see `joinPath`). */
export function parentDir(path: string): string {
  const trimmed = path.replace(/(?<=.)\/+$/, "");
  const at = trimmed.lastIndexOf("/");
  if (at === -1) return ".";
  // As node does: `//a` -> `//`, `a//b` -> `a/`.
  return at === 1 && trimmed[0] === "/" ? "//" : trimmed.slice(0, at) || "/";
}

/**
 * Chunks read one after another (a stream, a response body, a frame's fragments) as one array. A single chunk
 * is handed back as it is, not copied.
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

/** What `op` answers, or undefined when the path it reads or removes does not exist; other failures throw. */
export async function unlessMissing<T>(op: () => Promise<T>): Promise<T | undefined> {
  try {
    return await op();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtimeMs?: number;
  /** Hard links to the file (1 for an ordinary file); absent where the platform does not say. */
  links?: number;
}

export interface Files {
  readFile(path: string): Promise<Uint8Array>;
  /** The file's bytes `[start, end)` (the whole file without a range) as a stream: uploads in constant memory. */
  readStream(path: string, range?: [number, number]): Promise<ReadableStream<Uint8Array>>;
  readTextFile(path: string): Promise<string>;
  /** Writes via a temp file in the same directory and renames it into place; creates parent dirs (0700). */
  writeFileAtomic(path: string, data: string | Uint8Array, opts?: { mode?: number }): Promise<void>;
  /**
   * `writeFileAtomic` for a body too large to hold: the chunks go to the temp file as they arrive. Returns
   * the number of bytes written; on failure the temp file is removed and the target left as it was.
   */
  writeStreamAtomic(
    path: string,
    chunks: ReadableStream<Uint8Array>,
    opts?: { mode?: number },
  ): Promise<number>;
  /** Appends to a private file (logs, recordings): created 0600, and tightened to 0600 if it was looser. */
  appendTextFile(path: string, text: string): Promise<void>;
  /**
   * Creates the file only if it does not exist yet, for lock files and keys; false when it already exists. It
   * appears whole: written to a temporary file first and hard-linked into place (exclusive, like O_EXCL), so no
   * reader ever sees it empty or half-written -- an unreadable lock is garbage, never one being written.
   */
  createNew(path: string, data: string, opts?: { mode?: number }): Promise<boolean>;
  /** null when the path does not exist. */
  stat(path: string): Promise<FileInfo | null>;
  mkdir(path: string, opts?: { mode?: number }): Promise<void>;
  /** See `makePrivate` below: larkit's own state (config, secrets, state, logs) readable by this user only. */
  makePrivate(path: string, kind: "dir" | "file"): Promise<void>;
  remove(path: string): Promise<void>;
  realPath(path: string): Promise<string>;
}

/**
 * Makes `path` private to this user whatever the umask: a directory 0700 (created with its missing parents if
 * absent), a file 0600 (created empty if absent). One left looser by an older larkit or another tool is
 * tightened. This is the one place that decides the modes of larkit's state: the config and secrets
 * directories, the state directory and `state.db`, logs and recordings. Synchronous, so a database opener
 * (SQLite creates the file itself, with the umask's mode) can call it just before opening.
 */
export function makePrivate(path: string, kind: "dir" | "file"): void {
  const want = kind === "dir" ? 0o700 : 0o600;
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.statSync(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw notPrivate(path, kind, e);
  }
  if (!info) {
    try {
      if (kind === "dir") Deno.mkdirSync(path, { recursive: true, mode: want });
      else {
        Deno.mkdirSync(parentDir(path), { recursive: true, mode: 0o700 });
        Deno.openSync(path, { append: true, create: true, mode: want }).close();
      }
    } catch (e) {
      throw notPrivate(path, kind, e);
    }
    info = Deno.statSync(path);
  }
  if (kind === "dir" ? !info.isDirectory : !info.isFile) {
    throw errors.config(`${path} is not a ${kind === "dir" ? "directory" : "regular file"}`, {
      hint: "larkit keeps its configuration and state there: move what is in the way, or point " +
        "LARKIT_CONFIG_DIR / LARKIT_STATE_DIR elsewhere",
    });
  }
  // Another user's file would be this user's state in name only; a hard link is the same bytes under a second
  // name somewhere else, readable (or planted) there whatever mode this name gets.
  const uid = Deno.uid();
  if (info.uid !== null && uid !== null && info.uid !== uid) {
    throw errors.config(`${path} belongs to another user (uid ${info.uid}); larkit does not use it`, {
      hint: "larkit keeps this user's configuration and state there: remove it, or point " +
        "LARKIT_CONFIG_DIR / LARKIT_STATE_DIR elsewhere",
    });
  }
  if (kind === "file" && (info.nlink ?? 1) > 1) {
    throw errors.config(
      `${path} has ${info.nlink} hard links; larkit does not use a file that has other names`,
      {
        hint:
          `its bytes are reachable elsewhere: replace it with a copy (cp ${path} ${path}.copy && mv ${path}.copy ${path})`,
      },
    );
  }
  // The umask may have narrowed the mode asked for at creation, and an older one may be looser.
  if (((info.mode ?? 0) & 0o777) !== want) {
    try {
      Deno.chmodSync(path, want);
    } catch (e) {
      throw notPrivate(path, kind, e);
    }
  }
}

/**
 * Listens on a Unix socket at `path` that only this user can connect to, whatever the umask. The socket is bound
 * inside a fresh 0700 directory next to `path`, made 0600 and checked there, and only then renamed into place,
 * so it is never reachable under a looser mode, not even between bind and chmod. Anything that cannot be made
 * and checked private fails closed: no listener is returned. The caller removes a stale file at `path` first.
 */
export function listenPrivateUnix(path: string): Deno.UnixListener {
  const fail = (why: string) =>
    errors.config(`cannot listen on ${path} privately: ${why}`, {
      hint: "the socket must be this user's and 0600: check the directory's owner and permissions",
    });
  let dir: string;
  try {
    dir = Deno.makeTempDirSync({ dir: parentDir(path), prefix: ".larkit-sock-" });
    Deno.chmodSync(dir, 0o700);
  } catch (e) {
    throw fail(e instanceof Error ? e.message : String(e));
  }
  const bound = joinPath(dir, "s");
  let listener: Deno.UnixListener | undefined;
  try {
    listener = Deno.listen({ transport: "unix", path: bound });
    Deno.chmodSync(bound, 0o600);
    const info = Deno.lstatSync(bound);
    const uid = Deno.uid();
    if (!info.isSocket || ((info.mode ?? 0) & 0o777) !== 0o600 || (uid !== null && info.uid !== uid)) {
      throw new Error(`the socket is mode ${((info.mode ?? 0) & 0o777).toString(8)}, owner ${info.uid}`);
    }
    Deno.renameSync(bound, path);
    return listener;
  } catch (e) {
    listener?.close();
    throw fail(e instanceof Error ? e.message : String(e));
  } finally {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // Already empty and gone.
    }
  }
}

function notPrivate(path: string, kind: "dir" | "file", e: unknown) {
  const why = e instanceof Error ? e.message : String(e);
  return errors.config(`cannot make ${path} a private ${kind === "dir" ? "directory" : "file"}: ${why}`, {
    hint: `it must belong to you and be ${kind === "dir" ? "0700" : "0600"}: chmod ${
      kind === "dir" ? "700" : "600"
    } ${path}, or point LARKIT_CONFIG_DIR / LARKIT_STATE_DIR elsewhere`,
  });
}

export function denoFiles(): Files {
  return {
    readFile: (path) => Deno.readFile(path),
    async readStream(path, range) {
      const file = await Deno.open(path, { read: true });
      if (!range) return file.readable;
      await file.seek(range[0], Deno.SeekMode.Start);
      let left = range[1] - range[0];
      const reader = file.readable.getReader();
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = left > 0 ? await reader.read() : { done: true as const, value: undefined };
          if (done) {
            await reader.cancel();
            controller.close();
            return;
          }
          const part = value.length > left ? value.subarray(0, left) : value;
          left -= part.length;
          controller.enqueue(part);
        },
        cancel: (reason) => reader.cancel(reason),
      });
    },
    readTextFile: (path) => Deno.readTextFile(path),
    async writeFileAtomic(path, data, opts = {}) {
      await Deno.mkdir(parentDir(path), { recursive: true, mode: 0o700 });
      const tmp = `${path}.${crypto.randomUUID()}.tmp`;
      try {
        if (typeof data === "string") await Deno.writeTextFile(tmp, data, { mode: opts.mode ?? 0o600 });
        else await Deno.writeFile(tmp, data, { mode: opts.mode ?? 0o600 });
        await Deno.rename(tmp, path);
      } catch (e) {
        await Deno.remove(tmp).catch(() => {});
        throw e;
      }
    },
    async writeStreamAtomic(path, chunks, opts = {}) {
      await Deno.mkdir(parentDir(path), { recursive: true, mode: 0o700 });
      const tmp = `${path}.${crypto.randomUUID()}.tmp`;
      let size = 0;
      const counted = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          size += chunk.length;
          out.enqueue(chunk);
        },
      });
      try {
        const file = await Deno.open(tmp, { write: true, createNew: true, mode: opts.mode ?? 0o600 });
        await chunks.pipeThrough(counted).pipeTo(file.writable);
        // The umask may have narrowed the mode asked for at creation.
        await Deno.chmod(tmp, opts.mode ?? 0o600);
        await Deno.rename(tmp, path);
        return size;
      } catch (e) {
        await Deno.remove(tmp).catch(() => {});
        throw e;
      }
    },
    async appendTextFile(path, text) {
      makePrivate(path, "file");
      await Deno.writeTextFile(path, text, { append: true, mode: 0o600 });
    },
    async createNew(path, data, opts = {}) {
      await Deno.mkdir(parentDir(path), { recursive: true, mode: 0o700 });
      const tmp = `${path}.${crypto.randomUUID()}.tmp`;
      try {
        await Deno.writeTextFile(tmp, data, { createNew: true, mode: opts.mode ?? 0o600 });
        await Deno.link(tmp, path);
        return true;
      } catch (e) {
        if (e instanceof Deno.errors.AlreadyExists) return false;
        throw e;
      } finally {
        await Deno.remove(tmp).catch(() => {});
      }
    },
    async stat(path) {
      try {
        const s = await Deno.stat(path);
        return {
          isFile: s.isFile,
          isDirectory: s.isDirectory,
          size: s.size,
          mtimeMs: s.mtime?.getTime(),
          links: s.nlink ?? undefined,
        };
      } catch (e) {
        // A path below a file does not exist either (LARKIT_CONFIG_DIR set to a file, say).
        if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) return null;
        throw e;
      }
    },
    mkdir: (path, opts = {}) => Deno.mkdir(path, { recursive: true, mode: opts.mode ?? 0o700 }),
    // deno-lint-ignore require-await
    makePrivate: async (path, kind) => makePrivate(path, kind),
    remove: (path) => Deno.remove(path, { recursive: true }),
    realPath: (path) => Deno.realPath(path),
  };
}
