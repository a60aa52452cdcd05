/**
 * wiki shortcuts end to end against the emulator (the generic handler serves their registry and supplementary
 * methods): per shortcut its main path (exit 0, the requests it names sent), its dry run (nothing sent, the
 * plan fits the registry's request schemas) and one bad input (exit 2, validation, nothing sent).
 */
import assert from "node:assert/strict";
import { type ShortcutCase, shortcutCaseTests } from "./helpers/shortcut_cases.ts";
import { suiteCalls, withSuite } from "./helpers/suite_session.ts";
import { type Emulator, fixtures } from "./helpers/emulator.ts";

const SPACE = "7034502641455497244";
const NODE = "wikcnKQ1k3p";

/** The team space these cases use, with one page (a docx) in it. */
function seedWiki(emu: Emulator): void {
  const spaces = "/open-apis/wiki/v2/spaces";
  fixtures.seedPath(emu.db, `${spaces}/${SPACE}`, { space_id: SPACE, name: "Team", space_type: "team" });
  fixtures.seedPath(emu.db, `${spaces}/7034502641455497245`, {
    space_id: "7034502641455497245",
    name: "Archive",
  });
  fixtures.seedPath(emu.db, `${spaces}/${SPACE}/nodes/${NODE}`, {
    space_id: SPACE,
    node_token: NODE,
    obj_token: "doxcnWikiPage0001",
    obj_type: "docx",
    node_type: "origin",
    title: "Onboarding",
    has_child: false,
  });
  fixtures.seedPath(emu.db, `${spaces}/${SPACE}/members/ou_1`, { member_id: "ou_1", member_type: "openid" });
}

const CASES: Record<string, ShortcutCase> = {
  "wiki +space-list": {
    argv: ["--page-all"],
    sends: ["GET /wiki/v2/spaces"],
    bad: ["--page-size", "0"],
    says: /page-size/,
  },
  "wiki +space-create": {
    argv: ["--name", "Handbook"],
    asUser: true,
    sends: ["POST /wiki/v2/spaces"],
    bad: [],
    says: /name/,
  },
  "wiki +delete-space": {
    argv: ["--space-id", SPACE, "--yes"],
    sends: [`DELETE /wiki/v2/spaces/${SPACE}`],
    bad: ["--space-id", "../x", "--yes"],
    says: /not an ID/,
  },
  "wiki +node-list": {
    argv: ["--space-id", "my_library"],
    asUser: true,
    sends: ["GET /wiki/v2/spaces/my_library"],
    bad: ["--space-id", "a/b"],
    says: /not an ID/,
  },
  "wiki +node-get": {
    argv: ["--node-token", `https://x.feishu.cn/wiki/${NODE}?from=a`],
    sends: ["GET /wiki/v2/spaces/get_node"],
    bad: ["--node-token", NODE, "--token", "doxcn1"],
    says: /exactly one/,
  },
  "wiki +node-create": {
    argv: ["--space-id", SPACE, "--title", "Onboarding"],
    sends: [`POST /wiki/v2/spaces/${SPACE}/nodes`],
    bad: ["--space-id", SPACE, "--origin-node-token", NODE],
    says: /--node-type shortcut/,
  },
  "wiki +node-copy": {
    argv: ["--space-id", SPACE, "--node-token", NODE, "--target-space-id", "7034502641455497245", "--yes"],
    sends: [`POST /wiki/v2/spaces/${SPACE}/nodes/${NODE}/copy`],
    bad: ["--space-id", SPACE, "--node-token", NODE, "--yes"],
    says: /target/,
  },
  "wiki +node-delete": {
    argv: ["--node-token", NODE, "--space-id", SPACE, "--include-children", "--yes"],
    sends: ["GET /wiki/v2/spaces/get_node", `DELETE /wiki/v2/spaces/${SPACE}/nodes/${NODE}`],
    bad: ["--node-token", "a b", "--yes"],
    says: /not a token/,
  },
  "wiki +move": {
    argv: ["--node-token", NODE, "--target-parent-token", "wikcnX9"],
    sends: ["GET /wiki/v2/spaces/get_node"],
    bad: ["--node-token", NODE],
    says: /target/,
  },
  "wiki +move-to-drive": {
    argv: ["--node-token", NODE],
    sends: [`POST /wiki/v2/nodes/${NODE}/move_wiki_to_docs`],
    bad: ["--node-token", "x/y"],
    says: /not an ID/,
  },
  "wiki +member-list": {
    argv: ["--space-id", SPACE],
    sends: [`GET /wiki/v2/spaces/${SPACE}/members`],
    bad: ["--space-id", SPACE, "--page-all", "--page-token", "t"],
    says: /page-token/,
  },
  "wiki +member-add": {
    argv: ["--space-id", SPACE, "--member-id", "ou_1", "--member-type", "openid", "--member-role", "member"],
    sends: [`POST /wiki/v2/spaces/${SPACE}/members`],
    bad: ["--space-id", SPACE, "--member-id", "ou_1", "--member-type", "nobody", "--member-role", "member"],
    says: /member-type/,
  },
  "wiki +member-remove": {
    argv: ["--space-id", SPACE, "--member-id", "ou_1", "--member-type", "openid", "--member-role", "admin"],
    sends: [`DELETE /wiki/v2/spaces/${SPACE}/members/ou_1`],
    bad: ["--space-id", SPACE, "--member-id", "a/b", "--member-type", "openid", "--member-role", "admin"],
    says: /not an ID/,
  },
};

shortcutCaseTests(CASES, {
  coverage: { title: "every wiki shortcut has a case here", services: ["wiki"] },
  setup: seedWiki,
});

Deno.test("wiki +node-create as bot grants the logged-in user full access to the new page", async () => {
  await withSuite(async (emu, larkit) => {
    seedWiki(emu);
    const r = await larkit(["wiki", "+node-create", "--space-id", SPACE, "--title", "Bot page"], {
      asUser: true,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!("permission_grant" in r.json<{ data: object }>().data), "as the user, nothing to grant");
    emu.clearRequests();
    const b = await larkit([
      "wiki",
      "+node-create",
      "--space-id",
      SPACE,
      "--title",
      "Bot page",
      "--as",
      "bot",
    ]);
    assert.equal(b.code, 0, b.stderr);
    const data = b.json<
      { data: { node: { node_token: string }; permission_grant: { status: string; message: string } } }
    >().data;
    const grants = suiteCalls(emu).filter((q) => q.path.includes("/drive/v1/permissions/"));
    if (data.permission_grant.status === "granted") {
      assert.equal(grants.length, 1);
      assert.ok(grants[0].path.includes(data.node.node_token));
    } else {
      assert.equal(data.permission_grant.status, "skipped");
      assert.match(data.permission_grant.message, /no logged-in user/);
      assert.equal(grants.length, 0);
    }
  });
});
