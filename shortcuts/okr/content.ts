/**
 * OKR content: create or patch one objective or key result, create a cycle's OKRs in one go (rolled back on
 * failure), reorder them, set their weights, update an indicator's current value. All OKR v2.
 */
import * as z from "zod";
import { errors, LarkitError, toLarkitError } from "../../cli/output/errors.ts";
import { defineShortcut, flag, type FlagSpecs, type ShortcutContext } from "../declare.ts";
import {
  type Blocks,
  enc,
  itemPath,
  type Level,
  levelFlag,
  OKR,
  OkrPage,
  richText,
  styleFlag,
  unitNumber,
  WRITE,
} from "./common.ts";

const ID = /^[\w-]+$/;
function idFlag(name: string, value: string | undefined, level: string): string {
  if (value === undefined) throw errors.validation(`--${name} is required with --level ${level}`);
  if (!ID.test(value)) throw errors.validation(`--${name} "${value}" is not an ID`);
  return value;
}

/** Where a new item (or the list of items) of a level lives: a cycle's objectives, an objective's KRs. */
function parentPath(level: Level, cycle: string | undefined, objective: string | undefined): string {
  return level === "objective"
    ? `${OKR}/v2/cycles/${enc(idFlag("cycle-id", cycle, level))}/objectives`
    : `${OKR}/v2/objectives/${enc(idFlag("objective-id", objective, level))}/key_results`;
}

/** A key result has no notes and no category (the suite's key result methods take neither). */
function objectiveOnly(level: Level, given: Record<string, string | undefined>): void {
  const named = Object.keys(given).filter((k) => given[k] !== undefined);
  if (level === "key-result" && named.length) {
    throw errors.validation(`--${named[0]} is for objectives: a key result has none`);
  }
}

const Created = z.looseObject({
  objective_id: z.optional(z.string()),
  key_result_id: z.optional(z.string()),
});

async function createItem<F extends FlagSpecs>(
  ctx: ShortcutContext<F>,
  path: string,
  level: Level,
  body: { content: Blocks; notes?: Blocks; category_id?: string },
): Promise<string> {
  const made = await ctx.api({
    method: "POST",
    path,
    params: { user_id_type: "open_id" },
    body,
    response: Created,
    planned: level === "objective"
      ? { objective_id: "<objective_id>" }
      : { key_result_id: "<key_result_id>" },
  });
  const id = level === "objective" ? made.objective_id : made.key_result_id;
  if (!id) throw errors.api(`the suite created the ${level} but returned no ID`);
  return id;
}

export const create = defineShortcut({
  service: "okr",
  command: "+create",
  description: "Create one objective (in a cycle) or key result (under an objective)",
  examples: [
    'larkit okr +create --level objective --cycle-id 7012345678901234567 --content "Grow weekly users 20%"',
    'larkit okr +create --level key-result --objective-id 7012345678901234568 --content "Ship onboarding v2"',
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: false,
  flags: {
    level: levelFlag,
    "cycle-id": flag.string("cycle ID (with --level objective)"),
    "objective-id": flag.string("objective ID (with --level key-result)"),
    content: flag.requiredString("the objective or key result text", { input: ["file", "stdin"] }),
    notes: flag.string("notes", { input: ["file", "stdin"] }),
    "category-id": flag.string("objective category ID"),
    style: styleFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    objectiveOnly(f.level, { notes: f.notes, "category-id": f["category-id"] });
    const path = parentPath(f.level, f["cycle-id"], f["objective-id"]);
    const id = await createItem(ctx, path, f.level, {
      content: richText("content", f.content, f.style),
      ...(f.notes !== undefined ? { notes: richText("notes", f.notes, f.style) } : {}),
      ...(f["category-id"] !== undefined ? { category_id: f["category-id"] } : {}),
    });
    await ctx.out({ level: f.level, id });
  },
});

export const patch = defineShortcut({
  service: "okr",
  command: "+patch",
  description: "Change an objective's or key result's text, notes, score or deadline",
  examples: [
    "larkit okr +patch --level key-result --target-id 7012345678901234569 --score 0.7",
    'larkit okr +patch --level objective --target-id 7012345678901234568 --content "Grow weekly users 25%"',
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: false,
  flags: {
    level: levelFlag,
    "target-id": flag.requiredString("objective or key result ID"),
    content: flag.string("new text", { input: ["file", "stdin"] }),
    notes: flag.string("new notes", { input: ["file", "stdin"] }),
    score: flag.string("score from 0 to 1"),
    deadline: flag.string("deadline date (YYYY-MM-DD)"),
    style: styleFlag,
  },
  async run(ctx) {
    const f = ctx.flags;
    const id = idFlag("target-id", f["target-id"], f.level);
    objectiveOnly(f.level, { notes: f.notes });
    if (f.deadline !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(f.deadline)) {
      throw errors.validation(`--deadline must be a date (YYYY-MM-DD), got "${f.deadline}"`);
    }
    const body = {
      ...(f.content !== undefined ? { content: richText("content", f.content, f.style) } : {}),
      ...(f.notes !== undefined ? { notes: richText("notes", f.notes, f.style) } : {}),
      ...(f.score !== undefined ? { score: unitNumber("score", f.score) } : {}),
      ...(f.deadline !== undefined ? { deadline: String(Date.parse(`${f.deadline}T00:00:00Z`)) } : {}),
    };
    if (Object.keys(body).length === 0) {
      throw errors.validation("nothing to change: give --content, --notes, --score or --deadline");
    }
    await ctx.api({
      method: "PATCH",
      path: itemPath(f.level, id),
      params: { user_id_type: "open_id" },
      body,
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ level: f.level, id, changed: Object.keys(body) });
  },
});

const BatchInput = z.array(
  z.strictObject({
    content: z.string().check(z.minLength(1)),
    notes: z.optional(z.string()),
    key_results: z._default(
      z.array(z.object({ content: z.string().check(z.minLength(1)) })).check(z.maxLength(10)),
      [],
    ),
  }),
).check(z.minLength(1), z.maxLength(10));

export const batchCreate = defineShortcut({
  service: "okr",
  command: "+batch-create",
  description:
    "Create objectives with their key results in a cycle; on a failure the objectives made are removed",
  examples: [
    'larkit okr +batch-create --cycle-id 7012345678901234567 --input \'[{"content":"Grow users","key_results":[{"content":"Ship onboarding v2"}]}]\'',
    "larkit okr +batch-create --cycle-id 7012345678901234567 --input @okrs.json",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: false,
  flags: {
    "cycle-id": flag.requiredString("cycle ID"),
    input: flag.json(
      'objectives as JSON: [{"content", "notes"?, "key_results": [{"content"}]}] (at most 10)',
      {
        input: ["file", "stdin"],
      },
    ),
    "category-id": flag.string("category of every objective"),
  },
  async run(ctx) {
    const f = ctx.flags;
    if (f.input === undefined) throw errors.validation("--input is required");
    const parsed = BatchInput.safeParse(f.input);
    if (!parsed.success) {
      throw errors.validation(
        `--input: ${parsed.error.issues[0].path.join(".")} ${parsed.error.issues[0].message}`,
      );
    }
    const path = parentPath("objective", f["cycle-id"], undefined);
    const made: { objective_id: string; key_result_ids: string[] }[] = [];
    try {
      for (const o of parsed.data) {
        const objectiveId = await createItem(ctx, path, "objective", {
          content: richText("content", o.content, "simple"),
          ...(o.notes ? { notes: richText("notes", o.notes, "simple") } : {}),
          ...(f["category-id"] ? { category_id: f["category-id"] } : {}),
        });
        const entry = { objective_id: objectiveId, key_result_ids: [] as string[] };
        made.push(entry);
        for (const k of o.key_results) {
          entry.key_result_ids.push(
            await createItem(ctx, `${OKR}/v2/objectives/${enc(objectiveId)}/key_results`, "key-result", {
              content: richText("content", k.content, "simple"),
            }),
          );
        }
      }
    } catch (e) {
      throw await rolledBack(ctx, toLarkitError(e), made.map((m) => m.objective_id));
    }
    await ctx.out({ cycle_id: f["cycle-id"], created: made }, { count: made.length });
  },
});

/** Deletes what a failed batch made (deleting an objective deletes its key results) and says what is left. */
async function rolledBack<F extends FlagSpecs>(ctx: ShortcutContext<F>, cause: LarkitError, ids: string[]) {
  const left: string[] = [];
  for (const id of ids) {
    try {
      await ctx.api({
        method: "DELETE",
        path: itemPath("objective", id),
        description: "roll back an objective this run created",
        response: z.unknown(),
        planned: {},
      });
    } catch {
      left.push(id);
    }
  }
  return new LarkitError(
    cause.subtype,
    `${cause.message} (batch rolled back: ${ids.length - left.length} of ${ids.length} objectives removed${
      left.length ? `; still present: ${left.join(", ")}` : ""
    })`,
    {
      hint: cause.hint,
      code: cause.body.code,
      log_id: cause.body.log_id,
      detail: { cause: cause.body.detail ?? null, rolled_back: ids.filter((i) => !left.includes(i)), left },
    },
  );
}

/** The current items of a level, to check that a reorder or weights name each of them exactly once. */
async function currentIds<F extends FlagSpecs>(ctx: ShortcutContext<F>, path: string): Promise<string[]> {
  const pages = await ctx.paginate({
    method: "GET",
    path,
    params: { page_size: 100, user_id_type: "open_id" },
    description: "the current items, to check the request names each exactly once",
    response: OkrPage,
    planned: { items: [], has_more: false },
  }, { maxPages: 20 });
  return pages.flatMap((p) => p.items ?? []).map((i) => i.id);
}

function sameSet(given: string[], current: string[], what: string): void {
  // In the plan the list is not known (nothing was read), so only a real run can compare.
  if (current.length === 0) return;
  const missing = current.filter((id) => !given.includes(id));
  const unknown = given.filter((id) => !current.includes(id));
  if (missing.length || unknown.length) {
    throw errors.validation(
      `${what} must name every current item once` +
        (missing.length ? `; missing: ${missing.join(", ")}` : "") +
        (unknown.length ? `; not there: ${unknown.join(", ")}` : ""),
    );
  }
}

const scopeFlags = {
  level: levelFlag,
  "cycle-id": flag.string("cycle ID (with --level objective)"),
  "objective-id": flag.string("objective ID (with --level key-result)"),
};

export const reorder = defineShortcut({
  service: "okr",
  command: "+reorder",
  description: "Put a cycle's objectives or an objective's key results in a new order",
  examples: ["larkit okr +reorder --level objective --cycle-id 7012345678901234567 --ids 702,701,703"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: false,
  flags: { ...scopeFlags, ids: flag.requiredString("every item's ID in the new order, comma-separated") },
  async run(ctx) {
    const f = ctx.flags;
    const ids = f.ids.split(",").map((s) => s.trim()).filter(Boolean);
    if (new Set(ids).size !== ids.length) throw errors.validation("--ids names an item twice");
    const list = parentPath(f.level, f["cycle-id"], f["objective-id"]);
    sameSet(ids, await currentIds(ctx, list), "--ids");
    await ctx.api({
      method: "PUT",
      path: `${list}_position`,
      body: f.level === "objective" ? { objective_ids: ids } : { key_result_ids: ids },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ level: f.level, order: ids });
  },
});

/** `id=0.5,id2=0.5` -> weights; they must add up to 1 (within rounding). */
export function weightsOf(text: string): { id: string; weight: number }[] {
  const weights = text.split(",").map((pair) => {
    const [id, w] = pair.split("=").map((s) => s?.trim());
    if (!id || w === undefined) throw errors.validation(`--weights: "${pair}" is not id=weight`);
    return { id, weight: unitNumber("weights", w) };
  });
  const sum = weights.reduce((a, w) => a + w.weight, 0);
  if (Math.abs(sum - 1) > 1e-6) throw errors.validation(`--weights must add up to 1, they add up to ${sum}`);
  return weights;
}

export const weight = defineShortcut({
  service: "okr",
  command: "+weight",
  description: "Set the weights of a cycle's objectives or an objective's key results (they add up to 1)",
  examples: [
    "larkit okr +weight --level key-result --objective-id 7012345678901234568 --weights 801=0.6,802=0.4",
  ],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: false,
  flags: { ...scopeFlags, weights: flag.requiredString("id=weight pairs, comma-separated, adding up to 1") },
  async run(ctx) {
    const f = ctx.flags;
    const weights = weightsOf(f.weights);
    const list = parentPath(f.level, f["cycle-id"], f["objective-id"]);
    sameSet(weights.map((w) => w.id), await currentIds(ctx, list), "--weights");
    await ctx.api({
      method: "PUT",
      path: `${list}_weight`,
      body: f.level === "objective"
        ? { objective_weights: weights.map((w) => ({ objective_id: w.id, weight: w.weight })) }
        : { key_result_weights: weights.map((w) => ({ key_result_id: w.id, weight: w.weight })) },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({ level: f.level, weights });
  },
});

const Indicators = z.object({
  items: z.nullish(z.array(z.looseObject({ id: z.string(), current_value: z.optional(z.number()) }))),
});

export const indicatorUpdate = defineShortcut({
  service: "okr",
  command: "+indicator-update",
  description: "Set the current value of an objective's or key result's indicator",
  examples: ["larkit okr +indicator-update --level key-result --id 7012345678901234569 --value 42"],
  risk: "write",
  authTypes: ["user", "bot"],
  scopes: WRITE,
  hasFormat: false,
  flags: {
    level: levelFlag,
    id: flag.requiredString("objective or key result ID"),
    value: flag.requiredString("the indicator's current value (a number)"),
  },
  async run(ctx) {
    const f = ctx.flags;
    const id = idFlag("id", f.id, f.level);
    const value = Number(f.value);
    if (!/^-?\d*\.?\d+$/.test(f.value) || !Number.isFinite(value)) {
      throw errors.validation(`--value must be a number, got "${f.value}"`);
    }
    const { items } = await ctx.api({
      method: "GET",
      path: `${itemPath(f.level, id)}/indicators`,
      description: "the indicator to update",
      response: Indicators,
      planned: { items: [{ id: "<indicator_id>" }] },
    });
    const indicator = items?.[0];
    if (!indicator) throw errors.notFound(`the ${f.level} ${id} has no indicator`);
    await ctx.api({
      method: "PATCH",
      path: `${OKR}/v2/indicators/${enc(indicator.id)}`,
      body: { current_value: value },
      response: z.unknown(),
      planned: {},
    });
    await ctx.out({
      level: f.level,
      id,
      indicator_id: indicator.id,
      previous: indicator.current_value ?? null,
      value,
    });
  },
});
