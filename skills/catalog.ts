/**
 * The embedded skills as data: each SKILL.md's front matter (name, description, required scopes) parsed, and
 * the markdown itself. The front matter is a small YAML subset — `key: value` and `key:` followed by
 * `  - item` lines — which is all a skill needs; `catalog_test.ts` proves every embedded file parses.
 */
import * as z from "zod";
import { SKILL_FILES } from "./index.ts";

const FrontMatter = z.object({
  name: z.string().check(z.minLength(1)),
  description: z.string().check(z.minLength(1)),
  required_scopes: z._default(z.array(z.string()), []),
});

export interface Skill {
  domain: string;
  name: string;
  description: string;
  required_scopes: string[];
  /** The whole SKILL.md, front matter included. */
  text: string;
}

export function parseFrontMatter(text: string): Record<string, string | string[]> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) throw new Error("SKILL.md must start with a --- front matter block ---");
  const fields: Record<string, string | string[]> = {};
  let list: string[] | undefined;
  for (const line of match[1].split("\n")) {
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item && list) {
      list.push(item[1].trim());
      continue;
    }
    const pair = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (!pair) throw new Error(`unreadable front matter line: ${line}`);
    if (pair[2] === "") fields[pair[1]] = list = [];
    else {
      fields[pair[1]] = pair[2].trim();
      list = undefined;
    }
  }
  return fields;
}

export function skillOf(domain: string, text: string): Skill {
  const front = FrontMatter.parse(parseFrontMatter(text));
  return { domain, ...front, text };
}

/** Every embedded skill, by domain name. */
export function allSkills(): Skill[] {
  return Object.entries(SKILL_FILES).map(([domain, text]) => skillOf(domain, text))
    .sort((a, b) => a.domain.localeCompare(b.domain));
}
