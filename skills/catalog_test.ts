import assert from "node:assert/strict";
import { allSkills, parseFrontMatter } from "./catalog.ts";

Deno.test("every embedded skill has a name, a description and its required scopes", () => {
  const skills = allSkills();
  assert.deepEqual(skills.map((s) => s.domain), [
    "application",
    "base",
    "calendar",
    "contact",
    "docs",
    "drive",
    "event",
    "im",
    "mail",
    "markdown",
    "minutes",
    "note",
    "okr",
    "sheets",
    "slides",
    "task",
    "vc",
    "whiteboard",
    "wiki",
  ]);
  for (const s of skills) {
    assert.equal(s.name, s.domain);
    assert.ok(s.description.length > 20, s.domain);
    assert.ok(s.required_scopes.length > 0, s.domain);
    assert.match(
      s.text,
      /## Needs the user's confirmation/,
      `${s.domain} says which steps need confirmation`,
    );
  }
});

Deno.test("front matter: key/value pairs and lists; a file without it is refused", () => {
  assert.deepEqual(parseFrontMatter("---\nname: x\nscopes:\n  - a\n  - b\nlast: y\n---\nbody"), {
    name: "x",
    scopes: ["a", "b"],
    last: "y",
  });
  assert.throws(() => parseFrontMatter("# no front matter"), /front matter/);
});
