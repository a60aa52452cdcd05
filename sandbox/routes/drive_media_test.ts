/**
 * `slides +media-upload` once sent `parent_type: slides_image`, which is not in drive media upload_all's enum:
 * the suite refuses it. The emulator refuses it at its request check (a multipart form's text fields are held
 * to the method's schema, enums included), in lenient mode too: lenient ignores unknown fields, not bad values.
 */
import assert from "node:assert/strict";
import { startEmulator } from "../server.ts";
import { manualClock, tenantToken } from "../../tests/helpers/emulator.ts";

async function upload(lenientFields: boolean, parentType: string) {
  const emu = await startEmulator({ clock: manualClock(), lenientFields });
  try {
    const bytes = new TextEncoder().encode("PNG");
    const form = new FormData();
    form.set("file_name", "chart.png");
    form.set("parent_type", parentType);
    form.set("parent_node", "sldcnAbc");
    form.set("size", String(bytes.length));
    form.set("file", new File([bytes], "chart.png"));
    const res = await fetch(`${emu.url}/open-apis/drive/v1/medias/upload_all`, {
      method: "POST",
      headers: { authorization: `Bearer ${await tenantToken(emu)}` },
      body: form,
    });
    return { status: res.status, body: await res.json() };
  } finally {
    await emu.stop();
  }
}

for (const lenient of [false, true]) {
  Deno.test(`drive media upload_all refuses parent_type slides_image, naming it${lenient ? " (lenient)" : ""}`, async () => {
    const r = await upload(lenient, "slides_image");
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 99992402);
    const fields = r.body.error.field_violations.map((v: { field: string }) => v.field);
    assert.deepEqual(fields, ["parent_type"]);
    const good = await upload(lenient, "slide_file");
    assert.equal(good.body.code, 0, good.body.msg);
    assert.match(good.body.data.file_token, /^boxcn/);
  });
}
