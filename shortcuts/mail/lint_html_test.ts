import assert from "node:assert/strict";
import { lintHtml } from "./lint_html.ts";

Deno.test("lintHtml: clean HTML passes unchanged", () => {
  const html = '<p>Hi <a href="https://example.com">there</a></p><img src="https://x/y.png" alt="y">';
  assert.deepEqual(lintHtml(html), { findings: [], cleaned_html: html });
});

Deno.test("lintHtml: scripts, handlers, javascript: links and frames are errors, and removed", () => {
  const r = lintHtml(
    '<p onclick="steal()">Hi</p><script>alert(1)</script><a href="javascript:go()">x</a><iframe src="https://e"></iframe>',
  );
  assert.deepEqual(r.findings.map((f) => f.rule), [
    "no-script",
    "no-event-handler",
    "no-javascript-url",
    "no-embed",
  ]);
  assert.ok(r.findings.every((f) => f.level === "error"));
  assert.equal(r.cleaned_html, '<p>Hi</p><a href="#">x</a>');
});

Deno.test("lintHtml: local images and missing alt are warnings, left in place", () => {
  const r = lintHtml('<img src="./chart.png">');
  assert.deepEqual(r.findings.map((f) => [f.rule, f.level]), [["local-image", "warning"], [
    "img-alt",
    "warning",
  ]]);
  assert.equal(r.cleaned_html, '<img src="./chart.png">');
});
