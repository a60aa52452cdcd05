/**
 * multipart/form-data as the suite reads it. The WHATWG parser (`Request.formData()`) turns a part without
 * `filename=` into a string, decoding its bytes as UTF-8, but the suite takes such a part as the file when it
 * carries bytes (the official SDK sends a Buffer that way: `Content-Type: application/octet-stream`, no file
 * name). Here a part with a file name, or with a Content-Type other than text/plain, is a File holding its exact
 * bytes (named "" when it had no name); any other part is a string field.
 */

const CRLF = Uint8Array.of(13, 10);
const enc = new TextEncoder();
const dec = new TextDecoder();

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  const last = hay.length - needle.length;
  for (let i = hay.indexOf(first, from); i !== -1 && i <= last; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/** The value of `key` in a header's parameters (`name="file"; filename="a.png"`); quoted or bare. */
function param(header: string, key: string): string | undefined {
  const m = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(header);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2];
}

/** Parses `bytes` sent with `contentType`; throws when it is not well-formed multipart/form-data. */
export function parseMultipart(contentType: string, bytes: Uint8Array): FormData {
  const boundary = /^multipart\/form-data\b/i.test(contentType.trim()) ? param(contentType, "boundary") : "";
  if (!boundary) throw new Error("not multipart/form-data with a boundary");
  const delimiter = enc.encode(`--${boundary}`);
  const form = new FormData();
  let at = indexOf(bytes, delimiter, 0);
  if (at === -1) throw new Error("no opening boundary");
  for (;;) {
    at += delimiter.length;
    // `--` after a delimiter closes the body.
    if (bytes[at] === 45 && bytes[at + 1] === 45) return form;
    if (bytes[at] !== 13 || bytes[at + 1] !== 10) throw new Error("a boundary is not followed by CRLF");
    at += 2;
    const headEnd = indexOf(bytes, Uint8Array.of(13, 10, 13, 10), at);
    if (headEnd === -1) throw new Error("a part has no end of headers");
    const headers = new Map<string, string>();
    for (const line of dec.decode(bytes.subarray(at, headEnd)).split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const next = indexOf(bytes, Uint8Array.from([...CRLF, ...delimiter]), headEnd + 4);
    if (next === -1) throw new Error("a part has no closing boundary");
    const body = bytes.slice(headEnd + 4, next);
    const disposition = headers.get("content-disposition") ?? "";
    const name = param(disposition, "name");
    if (!/^\s*form-data\b/i.test(disposition) || name === undefined) {
      throw new Error("a part has no form-data name");
    }
    const filename = param(disposition, "filename");
    const type = headers.get("content-type");
    if (filename !== undefined || (type !== undefined && !/^text\/plain\b/i.test(type))) {
      form.append(name, new File([body], filename ?? "", { type: type ?? "application/octet-stream" }));
    } else {
      form.append(name, dec.decode(body));
    }
    at = next + 2;
  }
}
