/**
 * The bytes of stored files (Drive files, media, IM images and files) and of a chunked upload's parts live in
 * files on disk, not in SQLite: a value there is capped at 10^9 bytes and is read whole into memory, while a
 * file streams. SQLite keeps each file's metadata and size. The directory is `<dataDir>/files` for an on-disk
 * emulator, else a temporary directory removed when the emulator stops.
 */
import type { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { hasColumn } from "./db.ts";

export interface FileStore {
  readonly dir: string;
  /** Stores `bytes` under `key`, replacing what was there. */
  put(key: string, bytes: Uint8Array): void;
  /** Stores part `seq` of upload `uploadId`, replacing an earlier copy (a retried part is stored once). */
  putPart(uploadId: string, seq: number, bytes: Uint8Array): void;
  /** Concatenates parts `0..count-1` of `uploadId` into `key` in constant memory, then drops the parts. */
  assemble(uploadId: string, count: number, key: string): Promise<number>;
  dropParts(uploadId: string): void;
  /** The stored bytes as a stream (served straight from the file), or undefined when nothing is stored. */
  open(key: string): Promise<{ body: ReadableStream<Uint8Array>; size: number } | undefined>;
  /** The stored bytes whole, for small files and tests; undefined when nothing is stored. */
  read(key: string): Uint8Array | undefined;
  /** Removes a temporary store's directory. */
  close(): void;
}

/** Keys and upload ids are made by the emulator; anything else must never become a path. */
function safe(name: string): string {
  if (!/^[\w-]+$/.test(name)) throw new Error(`emulator: ${JSON.stringify(name)} cannot name a stored file`);
  return name;
}

export function openFileStore(dataDir?: string): FileStore {
  const temporary = !dataDir;
  const dir = dataDir ? join(dataDir, "files") : Deno.makeTempDirSync({ prefix: "larkit-emulator-files-" });
  Deno.mkdirSync(join(dir, "parts"), { recursive: true });
  const pathOf = (key: string) => join(dir, safe(key));
  const partsOf = (uploadId: string) => join(dir, "parts", safe(uploadId));
  /** Written beside and renamed, so a reader never sees half a file. */
  const writeAtomic = (path: string, bytes: Uint8Array) => {
    const tmp = `${path}.tmp`;
    Deno.writeFileSync(tmp, bytes);
    Deno.renameSync(tmp, path);
  };
  const dropParts = (uploadId: string) => {
    try {
      Deno.removeSync(partsOf(uploadId), { recursive: true });
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  };
  return {
    dir,
    put: (key, bytes) => writeAtomic(pathOf(key), bytes),
    putPart(uploadId, seq, bytes) {
      Deno.mkdirSync(partsOf(uploadId), { recursive: true });
      writeAtomic(join(partsOf(uploadId), String(seq)), bytes);
    },
    async assemble(uploadId, count, key) {
      const tmp = `${pathOf(key)}.tmp`;
      const out = await Deno.open(tmp, { write: true, create: true, truncate: true });
      let size = 0;
      try {
        for (let seq = 0; seq < count; seq++) {
          using part = await Deno.open(join(partsOf(uploadId), String(seq)));
          size += (await part.stat()).size;
          // Both ends are files: the runtime copies between them without the bytes entering JavaScript.
          await part.readable.pipeTo(out.writable, { preventClose: true });
        }
      } finally {
        out.close();
      }
      Deno.renameSync(tmp, pathOf(key));
      dropParts(uploadId);
      return size;
    },
    dropParts,
    async open(key) {
      try {
        const file = await Deno.open(pathOf(key));
        return { body: file.readable, size: (await file.stat()).size };
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) return undefined;
        throw e;
      }
    },
    read(key) {
      try {
        return Deno.readFileSync(pathOf(key));
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) return undefined;
        throw e;
      }
    },
    close() {
      if (temporary) Deno.removeSync(dir, { recursive: true });
    },
  };
}

/** Adler-32 of `bytes` as the decimal string the suite's `checksum` form field carries. */
export function adler32(bytes: Uint8Array): string {
  let a = 1;
  let b = 0;
  // 5552 is the longest run before the sums can overflow 2^32 without a modulo.
  for (let at = 0; at < bytes.length; at += 5552) {
    const end = Math.min(bytes.length, at + 5552);
    for (let i = at; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return String(((b << 16) | a) >>> 0);
}

/**
 * A database written before bytes moved to disk keeps them in a `bytes` column of `blobs` and `upload_parts`:
 * they move to the store once, and the column makes way for `size`.
 */
export function migrateInlineBytes(db: DatabaseSync, store: FileStore): void {
  if (hasColumn(db, "blobs", "bytes")) {
    for (
      const row of db.prepare("SELECT key, bytes FROM blobs").all() as { key: string; bytes: Uint8Array }[]
    ) {
      store.put(row.key, row.bytes);
    }
    db.exec("ALTER TABLE blobs ADD COLUMN size INTEGER NOT NULL DEFAULT 0");
    db.exec("UPDATE blobs SET size = length(bytes)");
    db.exec("ALTER TABLE blobs DROP COLUMN bytes");
  }
  if (hasColumn(db, "upload_parts", "bytes")) {
    const parts = db.prepare("SELECT upload_id, seq, bytes FROM upload_parts").all() as {
      upload_id: string;
      seq: number;
      bytes: Uint8Array;
    }[];
    for (const p of parts) store.putPart(p.upload_id, p.seq, p.bytes);
    db.exec("ALTER TABLE upload_parts ADD COLUMN size INTEGER NOT NULL DEFAULT 0");
    db.exec("UPDATE upload_parts SET size = length(bytes)");
    db.exec("ALTER TABLE upload_parts DROP COLUMN bytes");
  }
}
