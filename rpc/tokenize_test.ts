import assert from "node:assert/strict";
import { tokenize } from "./tokenize.ts";

Deno.test("quotes and escapes group words; a leading larkit is dropped; nothing is expanded", () => {
  assert.deepEqual(tokenize(`larkit im +messages-send --text "hi there" --chat 'oc_1' a\\ b *.md ~`), {
    ok: true,
    argv: ["im", "+messages-send", "--text", "hi there", "--chat", "oc_1", "a b", "*.md", "~"],
  });
  assert.deepEqual(tokenize(`api POST /x --data '{"a": "$HOME"}' --name "say \\"hi\\""`), {
    ok: true,
    argv: ["api", "POST", "/x", "--data", '{"a": "$HOME"}', "--name", 'say "hi"'],
  });
  assert.deepEqual(tokenize(`--text ""`), { ok: true, argv: ["--text", ""] });
});

Deno.test("shell syntax is refused, not passed on literally", () => {
  for (
    const text of [
      "a | b",
      "a; b",
      "a && b",
      "a > f",
      "$(id)",
      "a `id`",
      'a "$(id)"',
      "a $HOME",
      "a\nb",
      "(a)",
    ]
  ) {
    const t = tokenize(text);
    assert.equal(t.ok, false, text);
  }
  assert.equal(tokenize("'open").ok, false);
  assert.equal(tokenize('"open').ok, false);
  assert.equal(tokenize("larkit").ok, false);
  assert.equal(tokenize("   ").ok, false);
});
