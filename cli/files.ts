/**
 * File access as the provider hands it out. The real implementation is Deno's file system; writes are
 * atomic (temp file + rename) because half-written config or token files would lock a user out.
 */
import { dirname } from "node:path";

export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtimeMs?: number;
}

export interface Files {
  readFile(path: string): Promise<Uint8Array>;
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
  appendTextFile(path: string, text: string): Promise<void>;
  /** Creates the file only if it does not exist yet (O_EXCL), for lock files; false when it already exists. */
  createNew(path: string, data: string, opts?: { mode?: number }): Promise<boolean>;
  /** null when the path does not exist. */
  stat(path: string): Promise<FileInfo | null>;
  mkdir(path: string, opts?: { mode?: number }): Promise<void>;
  remove(path: string): Promise<void>;
  realPath(path: string): Promise<string>;
}

export function denoFiles(): Files {
  return {
    readFile: (path) => Deno.readFile(path),
    readTextFile: (path) => Deno.readTextFile(path),
    async writeFileAtomic(path, data, opts = {}) {
      await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
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
      await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
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
      await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await Deno.writeTextFile(path, text, { append: true, mode: 0o600 });
    },
    async createNew(path, data, opts = {}) {
      await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
      try {
        await Deno.writeTextFile(path, data, { createNew: true, mode: opts.mode ?? 0o600 });
        return true;
      } catch (e) {
        if (e instanceof Deno.errors.AlreadyExists) return false;
        throw e;
      }
    },
    async stat(path) {
      try {
        const s = await Deno.stat(path);
        return { isFile: s.isFile, isDirectory: s.isDirectory, size: s.size, mtimeMs: s.mtime?.getTime() };
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) return null;
        throw e;
      }
    },
    mkdir: (path, opts = {}) => Deno.mkdir(path, { recursive: true, mode: opts.mode ?? 0o700 }),
    remove: (path) => Deno.remove(path, { recursive: true }),
    realPath: (path) => Deno.realPath(path),
  };
}
