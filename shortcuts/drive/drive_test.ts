import assert from "node:assert/strict";
import { fileNameOf } from "./download.ts";
import { blocksOf, SINGLE_UPLOAD_MAX, uploadMethodFor } from "./upload.ts";

Deno.test("files up to 20 MB go in one request, larger ones in chunks", () => {
  assert.equal(uploadMethodFor(SINGLE_UPLOAD_MAX), "upload_all");
  assert.equal(uploadMethodFor(SINGLE_UPLOAD_MAX + 1), "chunked");
  assert.equal(uploadMethodFor(0), "upload_all");
});

Deno.test("blocks cover the file exactly; an inconsistent plan from the suite is refused", () => {
  assert.deepEqual(blocksOf(10, 4, 3), [[0, 4], [4, 8], [8, 10]]);
  assert.deepEqual(blocksOf(0, 4, 1), [[0, 0]]);
  assert.throws(() => blocksOf(10, 4, 2), /inconsistent plan/);
  assert.throws(() => blocksOf(10, 0, 1), /inconsistent plan/);
});

Deno.test("the download name comes from Content-Disposition, never with a folder", () => {
  assert.equal(
    fileNameOf(`attachment; filename="a.txt"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.pdf`),
    "报告.pdf",
  );
  assert.equal(fileNameOf('attachment; filename="report.pdf"'), "report.pdf");
  assert.equal(fileNameOf('attachment; filename="../../etc/passwd"'), "passwd");
  assert.equal(fileNameOf('attachment; filename=".."'), undefined);
  assert.equal(fileNameOf(null), undefined);
});
