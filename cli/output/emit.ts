/**
 * The single exit for results and errors. Commands hand a value here; this module decides the bytes.
 */
import type { RunContext } from "../context.ts";
import { errorEnvelope, type Meta, successEnvelope, toJsonDocument } from "./envelope.ts";
import type { LarkitError } from "./errors.ts";

/** Writes the success envelope as the run's one result document. */
export async function emitSuccess(ctx: RunContext, parts: { data?: unknown; meta?: Meta }): Promise<void> {
  await ctx.p.stdout.write(toJsonDocument(successEnvelope({ identity: ctx.state.identity, ...parts })));
}

/** Writes a non-envelope result document (help text, `--version`, rendered formats). */
export async function emitText(ctx: RunContext, text: string): Promise<void> {
  await ctx.p.stdout.write(text.endsWith("\n") ? text : text + "\n");
}

/** The error envelope goes to stderr, so a pipe never receives an error as data. */
export async function emitError(ctx: Pick<RunContext, "p" | "state">, err: LarkitError): Promise<void> {
  await ctx.p.stderr.write(toJsonDocument(errorEnvelope(err, { identity: ctx.state.identity })));
}
