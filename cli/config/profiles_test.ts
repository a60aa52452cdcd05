import assert from "node:assert/strict";
import { LarkitError } from "../output/errors.ts";
import type { LarkitConfig, Profile } from "./config_file.ts";
import {
  removeProfile,
  renameProfile,
  selectProfile,
  upsertProfile,
  useProfile,
  validateProfileName,
} from "./profiles.ts";

const profile = (name: string, appId: string): Profile => ({ name, appId, brand: "feishu", users: [] });
const config: LarkitConfig = {
  currentProfile: "b",
  profiles: [profile("a", "cli_a"), profile("b", "cli_b")],
};

const type = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof LarkitError ? e.type : "other";
  }
  return "none";
};

Deno.test("selection: requested by name or app id, else current, else first", () => {
  assert.equal(selectProfile(config, "a")?.name, "a");
  assert.equal(selectProfile(config, "cli_a")?.name, "a");
  assert.equal(selectProfile(config)?.name, "b");
  assert.equal(selectProfile({ profiles: config.profiles })?.name, "a");
  assert.equal(selectProfile(undefined), undefined);
  assert.equal(type(() => selectProfile(config, "zz")), "config");
});

Deno.test("names with spaces, quotes or shell characters are refused", () => {
  for (const bad of ["a b", "x/y", "$HOME", "a'b", "", "x".repeat(65)]) {
    assert.equal(type(() => validateProfileName(bad)), "validation", bad);
  }
  assert.equal(validateProfileName("工作-1.prod_x"), "工作-1.prod_x");
});

Deno.test("use, use -, rename and remove keep current/previous consistent", () => {
  const used = useProfile(config, "a");
  assert.deepEqual([used.currentProfile, used.previousProfile], ["a", "b"]);
  const back = useProfile(used, "-");
  assert.deepEqual([back.currentProfile, back.previousProfile], ["b", "a"]);
  const renamed = renameProfile(back, "b", "c");
  assert.deepEqual([renamed.currentProfile, renamed.profiles[1].name], ["c", "c"]);
  const { config: left, removed } = removeProfile(renamed, "c");
  assert.equal(removed.appId, "cli_b");
  assert.equal(left.currentProfile, "a");
  assert.equal(type(() => removeProfile(left, "a")), "validation");
  assert.equal(type(() => upsertProfile(config, profile("z", "cli_a"))), "validation");
});
