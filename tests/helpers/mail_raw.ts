/**
 * A mail request's message read back: the `{"raw": <RFC 5322, base64url>}` body larkit posts to the drafts
 * endpoints, parsed with postal-mime, so a test asserts on headers and parts rather than on bytes.
 */
import PostalMime, { type Email } from "postal-mime";

export async function messageOf(body: unknown): Promise<Email> {
  const raw = (body as { raw?: unknown } | undefined)?.raw;
  if (typeof raw !== "string") throw new Error(`not a raw mail body: ${JSON.stringify(body)}`);
  return await PostalMime.parse(
    Uint8Array.fromBase64(raw, { alphabet: "base64url", lastChunkHandling: "loose" }),
  );
}
