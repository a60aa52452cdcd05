/**
 * The long connection's frame: a small protobuf message (proto2, package `pbbp2` in the suite's SDKs).
 *
 *   1 SeqID uint64 · 2 LogID uint64 · 3 service int32 · 4 method int32 (0 control, 1 data)
 *   5 headers repeated {1 key string, 2 value string} · 6 payload_encoding string · 7 payload_type string
 *   8 payload bytes · 9 LogIDNew string
 *
 * A hand-written codec for these nine fields instead of a protobuf library: the schema is fixed, tiny and
 * never grows on our side, and a codec of ~120 lines tested field by field is less to trust than a generated
 * one plus its runtime. Unknown fields are skipped (forward compatible); a truncated or malformed buffer is a
 * `FrameError`, never a partial frame.
 */

export const FRAME_CONTROL = 0;
export const FRAME_DATA = 1;

export interface FrameHeader {
  key: string;
  value: string;
}

export interface Frame {
  seqId: bigint;
  logId: bigint;
  service: number;
  method: number;
  headers: FrameHeader[];
  payloadEncoding?: string;
  payloadType?: string;
  payload?: Uint8Array;
  logIdNew?: string;
}

export class FrameError extends Error {}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { fatal: true });

class Writer {
  #bytes: number[] = [];
  varint(value: bigint): void {
    // Negative int32 values are written as their 64-bit two's complement, as protobuf does.
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      this.#bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.#bytes.push(Number(v));
  }
  tag(field: number, wireType: number): void {
    this.varint(BigInt((field << 3) | wireType));
  }
  bytes(field: number, data: Uint8Array): void {
    this.tag(field, 2);
    this.varint(BigInt(data.length));
    for (const b of data) this.#bytes.push(b);
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.#bytes);
  }
}

class Reader {
  at = 0;
  constructor(readonly buf: Uint8Array, readonly end = buf.length) {}
  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.at >= this.end) throw new FrameError("truncated varint");
      const b = this.buf[this.at++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asUintN(64, result);
    }
    throw new FrameError("varint longer than 10 bytes");
  }
  lengthDelimited(): Uint8Array {
    const len = Number(this.varint());
    if (this.at + len > this.end) throw new FrameError("length-delimited field runs past the end");
    const out = this.buf.subarray(this.at, this.at + len);
    this.at += len;
    return out;
  }
  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 2) this.lengthDelimited();
    else if (wireType === 1 || wireType === 5) {
      const n = wireType === 1 ? 8 : 4;
      if (this.at + n > this.end) throw new FrameError("truncated fixed-width field");
      this.at += n;
    } else throw new FrameError(`unsupported wire type ${wireType}`);
  }
}

function text(bytes: Uint8Array): string {
  try {
    return fromUtf8.decode(bytes);
  } catch {
    throw new FrameError("a string field is not valid UTF-8");
  }
}

function int32(v: bigint): number {
  return Number(BigInt.asIntN(32, v));
}

export function encodeFrame(f: Frame): Uint8Array {
  const w = new Writer();
  w.tag(1, 0);
  w.varint(f.seqId);
  w.tag(2, 0);
  w.varint(f.logId);
  w.tag(3, 0);
  w.varint(BigInt(f.service));
  w.tag(4, 0);
  w.varint(BigInt(f.method));
  for (const h of f.headers) {
    const hw = new Writer();
    hw.bytes(1, utf8.encode(h.key));
    hw.bytes(2, utf8.encode(h.value));
    w.bytes(5, hw.finish());
  }
  if (f.payloadEncoding !== undefined) w.bytes(6, utf8.encode(f.payloadEncoding));
  if (f.payloadType !== undefined) w.bytes(7, utf8.encode(f.payloadType));
  if (f.payload !== undefined) w.bytes(8, f.payload);
  if (f.logIdNew !== undefined) w.bytes(9, utf8.encode(f.logIdNew));
  return w.finish();
}

function decodeHeader(bytes: Uint8Array): FrameHeader {
  const r = new Reader(bytes);
  let key: string | undefined;
  let value: string | undefined;
  while (r.at < r.end) {
    const tag = Number(r.varint());
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === 2) key = text(r.lengthDelimited());
    else if (field === 2 && (tag & 7) === 2) value = text(r.lengthDelimited());
    else r.skip(tag & 7);
  }
  if (key === undefined || value === undefined) throw new FrameError("a header lacks its key or value");
  return { key, value };
}

export function decodeFrame(buf: Uint8Array): Frame {
  const r = new Reader(buf);
  const f: Frame = { seqId: 0n, logId: 0n, service: 0, method: 0, headers: [] };
  const seen = new Set<number>();
  while (r.at < r.end) {
    const tag = Number(r.varint());
    const field = tag >>> 3;
    const wire = tag & 7;
    const expected = field >= 1 && field <= 4 ? 0 : field >= 5 && field <= 9 ? 2 : -1;
    if (expected === -1 || wire !== expected) {
      r.skip(wire);
      continue;
    }
    seen.add(field);
    switch (field) {
      case 1:
        f.seqId = r.varint();
        break;
      case 2:
        f.logId = r.varint();
        break;
      case 3:
        f.service = int32(r.varint());
        break;
      case 4:
        f.method = int32(r.varint());
        break;
      case 5:
        f.headers.push(decodeHeader(r.lengthDelimited()));
        break;
      case 6:
        f.payloadEncoding = text(r.lengthDelimited());
        break;
      case 7:
        f.payloadType = text(r.lengthDelimited());
        break;
      case 8:
        f.payload = r.lengthDelimited().slice();
        break;
      case 9:
        f.logIdNew = text(r.lengthDelimited());
        break;
    }
  }
  for (const required of [1, 2, 3, 4]) {
    if (!seen.has(required)) throw new FrameError(`required field ${required} is missing`);
  }
  return f;
}

/** The value of a header, or undefined. */
export function header(f: Frame, key: string): string | undefined {
  return f.headers.find((h) => h.key === key)?.value;
}
