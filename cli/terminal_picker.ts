/**
 * A multiple-choice question at a real terminal (the `auth login` domain picker), through `@inquirer/checkbox`:
 * arrow keys, space, `a` for all, Enter, a page that scrolls; key handling larkit does not write itself. Part of
 * the provider's stdin edge (`main.ts` offers it only when stdin is a terminal), loaded only when asked (the
 * library costs ~200 ms to load), so no other run pays for it.
 */
import checkbox from "@inquirer/checkbox";
import process from "node:process";

export interface Choice {
  value: string;
  name: string;
  description?: string;
}

export async function pickMany(message: string, choices: Choice[]): Promise<string[]> {
  return await checkbox(
    { message, choices, pageSize: 12, required: true, loop: false },
    // The question and its answer go to stderr: stdout stays the command's result.
    { input: process.stdin, output: process.stderr },
  );
}
