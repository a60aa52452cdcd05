/**
 * The bookkeeping of the SDK conformance tests: every call goes through `call` (a successful answer) or
 * `refused` (an error the SDK surfaces). Each is matched, through the emulator's request log, to the registry
 * method it reached; a successful answer's `data` is validated against that method's declared response type
 * (registry/shapes/, generated from the SDK's own `types/index.d.ts`), and the methods and services reached
 * are counted.
 */
import assert from "node:assert/strict";
import { responseShapeOf } from "../../registry/shapes.ts";
import { validateValue } from "../../registry/validate.ts";
import type { ApiMethod } from "../../registry/method.ts";
import { findApiMethod } from "../../sandbox/generic.ts";
import type { Emulator } from "../helpers/emulator.ts";

/** What a plain SDK call resolves to: the suite's envelope. */
export interface Envelope {
  code?: number;
  msg?: string;
  data?: unknown;
}

/** Token endpoints the SDK calls on its own: not the method under test. */
const TOKEN_PATHS = /^\/open-apis\/auth\/v3\/(tenant|app)_access_token\//;

export class Conformance {
  readonly methods = new Set<string>();
  readonly services = new Set<string>();
  /** Requests to endpoints the SDK has but the registry does not know yet: neither counted nor validated. */
  readonly unregistered = new Set<string>();
  /** Answers outside their method's declared type, as `method: problem`. */
  readonly outside: string[] = [];
  validated = 0;
  readonly #emu: Emulator;

  constructor(emu: Emulator) {
    this.#emu = emu;
  }

  /** The registry methods of the API requests `run` made (in order), counted as exercised. */
  async #reached<T>(
    run: () => Promise<T>,
  ): Promise<{ value: T; methods: ApiMethod[] }> {
    const before = this.#emu.requests().length;
    let value: T;
    try {
      value = await run();
    } catch (e) {
      // The SDK's own error names no request: say which one failed and what the emulator answered.
      const last = this.#emu.requests().slice(before).at(-1);
      const body = (e as { response?: { data?: unknown } }).response?.data;
      throw new Error(`${last?.method} ${last?.path}: ${e} ${JSON.stringify(body ?? null).slice(0, 300)}`);
    }
    const methods: ApiMethod[] = [];
    const requests = this.#emu.requests().slice(before);
    // The SDK fetches its token on its own before a call: not the method under test, unless it is the call.
    const own = requests.filter((r) => !TOKEN_PATHS.test(r.path));
    const unregistered: string[] = [];
    for (const r of own.length ? own : requests.slice(-1)) {
      const { found } = await findApiMethod(r.method, r.path);
      if (found) methods.push(found.method);
      else {unregistered.push(
          `${r.method} ${r.path.replace(/\/[^/]*_v3_[^/]*$/, "/:key")}`,
        );}
    }
    for (const u of unregistered) this.unregistered.add(u);
    assert.ok(
      methods.length + unregistered.length > 0,
      "the SDK call reached no API method",
    );
    return { value, methods };
  }

  #count(methods: ApiMethod[]): void {
    for (const m of methods) {
      this.methods.add(m.id);
      this.services.add(m.service);
    }
  }

  /** A call that must succeed (code 0); its `data` must fit the declared response type. */
  async call<T extends Envelope>(
    label: string,
    run: () => Promise<T>,
  ): Promise<T> {
    const { value, methods } = await this.#reached(run);
    assert.equal(
      value?.code,
      0,
      `${label}: ${JSON.stringify(value).slice(0, 400)}`,
    );
    assert.ok(
      methods.length <= 1,
      `${label} made ${methods.length} API requests`,
    );
    if (methods.length) await this.#validate(methods[0], value.data);
    this.#count(methods);
    return value;
  }

  /** An upload: the SDK resolves to the answer's `data` itself (it unwraps the envelope of file uploads). */
  async upload<T>(label: string, run: () => Promise<T>): Promise<T> {
    const { value, methods } = await this.#reached(run);
    assert.ok(
      value && typeof value === "object",
      `${label}: ${JSON.stringify(value)}`,
    );
    if (methods.length) await this.#validate(methods[0], value);
    this.#count(methods);
    return value;
  }

  /** A call answering something other than the envelope (a download, an iterator): counted, not validated. */
  async reach<T>(run: () => Promise<T>): Promise<T> {
    const { value, methods } = await this.#reached(run);
    this.#count(methods);
    return value;
  }

  /** Every item of an SDK `...WithIterator` listing, page after page: counted like `reach`. */
  items<T>(run: () => Promise<AsyncIterable<{ items?: T[] } | null | undefined>>): Promise<T[]> {
    return this.reach(async () => {
      const items: T[] = [];
      for await (const page of await run()) items.push(...(page?.items ?? []));
      return items;
    });
  }

  /** A call the suite refuses: the SDK throws, carrying the suite's code in the HTTP response's body. */
  async refused(
    label: string,
    code: number,
    run: () => Promise<unknown>,
  ): Promise<void> {
    let thrown: unknown;
    const { methods } = await this.#reached(async () => {
      try {
        return await run();
      } catch (e) {
        thrown = e;
      }
    });
    assert.ok(thrown, `${label}: the SDK did not throw`);
    const body = (thrown as { response?: { data?: Envelope } }).response?.data;
    assert.equal(body?.code, code, `${label}: ${JSON.stringify(body)}`);
    this.#count(methods);
  }

  async #validate(m: ApiMethod, data: unknown): Promise<void> {
    const shape = await responseShapeOf(m);
    assert.ok(shape, `${m.id} has no declared response type`);
    this.validated++;
    for (const p of validateValue(shape, data ?? {})) {
      this.outside.push(`${m.id}: ${p}`);
    }
  }

  /** Prints the figures and fails below the floor or on any answer outside its type. */
  report(floor: { methods: number; services: number }): void {
    console.log(
      `SDK conformance: ${this.methods.size} methods across ${this.services.size} services ` +
        `(${this.validated} answers checked against their declared types, ${this.outside.length} outside)` +
        (this.unregistered.size
          ? `; not in the registry, so not counted: ${[...this.unregistered].join(", ")}`
          : ""),
    );
    assert.deepEqual(
      this.outside,
      [],
      "answers outside the SDK's declared types",
    );
    assert.ok(
      this.methods.size >= floor.methods,
      `only ${this.methods.size} methods exercised: ${[...this.methods].sort().join(", ")}`,
    );
    assert.ok(
      this.services.size >= floor.services,
      `only ${this.services.size} services: ${[...this.services].sort().join(", ")}`,
    );
  }
}
