/**
 * The emulator's own codec for the long connection's protobuf frame (fields 1-4 varints, 5 headers, 8 payload;
 * the rest are skipped). Written apart from larkit's client codec on purpose: the emulator speaks only the
 * suite's wire format, and two independent codecs talking to each other is what the tests exercise.
 */

export interface WireFrame {
  seqId: bigint;
  logId: bigint;
  service: number;
  method: number;
  headers: [string, string][];
  payload: Uint8Array;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function pushVarint(out: number[], v: bigint): void {
  let x = BigInt.asUintN(64, v);
  do {
    const low = Number(x & 127n);
    x >>= 7n;
    out.push(x > 0n ? low | 128 : low);
  } while (x > 0n);
}

function pushBytes(out: number[], field: number, bytes: Uint8Array): void {
  pushVarint(out, BigInt(field * 8 + 2));
  pushVarint(out, BigInt(bytes.length));
  for (const b of bytes) out.push(b);
}

export function encodeWire(f: WireFrame): Uint8Array {
  const out: number[] = [];
  const fields: [number, bigint][] = [[1, f.seqId], [2, f.logId], [3, BigInt(f.service)], [
    4,
    BigInt(f.method),
  ]];
  for (const [n, v] of fields) {
    pushVarint(out, BigInt(n * 8));
    pushVarint(out, v);
  }
  for (const [k, v] of f.headers) {
    const h: number[] = [];
    pushBytes(h, 1, enc.encode(k));
    pushBytes(h, 2, enc.encode(v));
    pushBytes(out, 5, Uint8Array.from(h));
  }
  pushBytes(out, 8, f.payload);
  return Uint8Array.from(out);
}

function reader(buf: Uint8Array) {
  let at = 0;
  const varint = (): bigint => {
    let v = 0n;
    for (let shift = 0n;; shift += 7n) {
      if (at >= buf.length || shift > 63n) throw new Error("bad varint");
      const b = buf[at++];
      v |= BigInt(b & 127) << shift;
      if (b < 128) return v;
    }
  };
  const bytes = (): Uint8Array => {
    const n = Number(varint());
    if (at + n > buf.length) throw new Error("field runs past the end");
    return buf.subarray((at += n) - n, at);
  };
  return {
    varint,
    bytes,
    more: () => at < buf.length,
    skip: (wire: number) => wire === 0 ? varint() : bytes(),
  };
}

export function decodeWire(buf: Uint8Array): WireFrame {
  const r = reader(buf);
  const f: WireFrame = {
    seqId: 0n,
    logId: 0n,
    service: 0,
    method: 0,
    headers: [],
    payload: new Uint8Array(),
  };
  while (r.more()) {
    const tag = Number(r.varint());
    const field = tag >> 3;
    if (field === 1) f.seqId = r.varint();
    else if (field === 2) f.logId = r.varint();
    else if (field === 3) f.service = Number(BigInt.asIntN(32, r.varint()));
    else if (field === 4) f.method = Number(BigInt.asIntN(32, r.varint()));
    else if (field === 5) {
      const h = reader(r.bytes());
      let key = "";
      let value = "";
      while (h.more()) {
        const t = Number(h.varint());
        if (t >> 3 === 1) key = dec.decode(h.bytes());
        else if (t >> 3 === 2) value = dec.decode(h.bytes());
        else h.skip(t & 7);
      }
      f.headers.push([key, value]);
    } else if (field === 8) f.payload = r.bytes();
    else r.skip(tag & 7);
  }
  return f;
}

export function wireHeader(f: WireFrame, key: string): string | undefined {
  return f.headers.find(([k]) => k === key)?.[1];
}
