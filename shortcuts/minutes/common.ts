/** What the minutes shortcuts share: the minute-token flag, checked, and the minutes v1 paths. */
import { flag } from "../declare.ts";
import { token } from "../vc/common.ts";

export const minuteTokenFlag = flag.requiredString("minute token (the last segment of the minute's URL)");

export function minutePath(minuteToken: string, rest = ""): string {
  return `/open-apis/minutes/v1/minutes/${encodeURIComponent(token("minute-token", minuteToken))}${rest}`;
}
