/**
 * Writes the suite de-duplicates on a key the client chooses (task `client_token`, base record `client_token`):
 * the first write with a key is applied, a repeat with the same key from the same caller answers with what the
 * first one created. Kept per emulator (per state object), like the rest of its state.
 */
const seen = new WeakMap<object, Map<string, string>>();

/** The id `create` returned for the first write with this key, creating it now when the key is new. */
export function createOnce(
  state: object,
  scope: string,
  key: string | undefined,
  create: () => string,
): string {
  if (!key) return create();
  let keys = seen.get(state);
  if (!keys) seen.set(state, keys = new Map());
  const id = `${scope}\n${key}`;
  const earlier = keys.get(id);
  if (earlier !== undefined) return earlier;
  const created = create();
  keys.set(id, created);
  return created;
}
