/**
 * `mail +lint-html`: checks an HTML mail body locally (no request) for what mail clients drop or flag --
 * scripts, event handlers, `javascript:` links, forms and embedded frames, external stylesheets, local image
 * paths -- and returns the findings with a cleaned copy (the dangerous parts removed).
 */
import { defineShortcut, flag } from "../declare.ts";

export interface Finding {
  level: "error" | "warning";
  rule: string;
  message: string;
}

const RULES: {
  rule: string;
  level: Finding["level"];
  re: RegExp;
  message: string;
  fix?: (html: string) => string;
}[] = [
  {
    rule: "no-script",
    level: "error",
    re: /<script\b/i,
    message: "<script> is removed by mail clients",
    fix: (h) => h.replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "").replace(/<script\b[^>]*\/?>/gi, ""),
  },
  {
    rule: "no-event-handler",
    level: "error",
    re: /<[^>]+\son[a-z]+\s*=/i,
    message: "on* event handler attributes are stripped",
    fix: (h) => h.replace(/(<[^>]+?)\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, "$1"),
  },
  {
    rule: "no-javascript-url",
    level: "error",
    re: /\b(?:href|src)\s*=\s*["']?\s*javascript:/i,
    message: "javascript: URLs are blocked",
    fix: (h) => h.replace(/\b(href|src)\s*=\s*(["']?)\s*javascript:[^"'\s>]*\2/gi, '$1="#"'),
  },
  {
    rule: "no-embed",
    level: "error",
    re: /<(iframe|object|embed|form)\b/i,
    message: "<iframe>, <object>, <embed> and <form> do not work in mail",
    fix: (h) =>
      h.replace(/<(iframe|object|embed|form)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "").replace(
        /<(iframe|object|embed)\b[^>]*\/?>/gi,
        "",
      ),
  },
  {
    rule: "no-external-stylesheet",
    level: "warning",
    re: /<link\b[^>]*rel\s*=\s*["']?stylesheet/i,
    message: "external stylesheets are not loaded; use inline style attributes",
    fix: (h) => h.replace(/<link\b[^>]*rel\s*=\s*["']?stylesheet[^>]*>/gi, ""),
  },
  {
    rule: "local-image",
    level: "warning",
    re: /<img\b[^>]*src\s*=\s*["']?(?!https?:|cid:|data:)[^"'\s>]+/i,
    message: "an <img> names a local path: recipients cannot load it (send it as an attachment)",
  },
  {
    rule: "img-alt",
    level: "warning",
    re: /<img\b(?![^>]*\balt\s*=)[^>]*>/i,
    message: "an <img> has no alt text (shown when images are blocked)",
  },
];

export function lintHtml(html: string): { findings: Finding[]; cleaned_html: string } {
  const findings: Finding[] = [];
  let cleaned = html;
  for (const r of RULES) {
    if (!r.re.test(html)) continue;
    findings.push({ level: r.level, rule: r.rule, message: r.message });
    if (r.fix) cleaned = r.fix(cleaned);
  }
  return { findings, cleaned_html: cleaned };
}

export const lintHtmlShortcut = defineShortcut({
  service: "mail",
  command: "+lint-html",
  description:
    "Check an HTML mail body for what mail clients drop or block, and return a cleaned copy (local only)",
  examples: [
    "larkit mail +lint-html --body '<p onclick=\"x()\">Hi</p>'",
    "larkit mail +lint-html --body @newsletter.html --jq '.data.findings'",
  ],
  risk: "read",
  authTypes: ["user", "bot"],
  scopes: { user: [], bot: [] },
  hasFormat: true,
  flags: { body: flag.requiredString("the HTML body", { input: ["file", "stdin"] }) },
  async run(ctx) {
    const { findings, cleaned_html } = lintHtml(ctx.flags.body);
    const errors = findings.filter((f) => f.level === "error").length;
    await ctx.outFormat({ ok: errors === 0, findings, cleaned_html }, {
      errors,
      warnings: findings.length - errors,
    });
  },
});
