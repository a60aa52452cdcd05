/**
 * Turns the text of a turn into an argv without a shell: quotes and backslash escapes group words, and
 * nothing else is interpreted -- no globbing, no variables, no pipes. Anything a shell would treat as a second
 * program or an expansion is refused instead of passed on literally, so a client can never believe it ran a
 * pipeline. A leading `larkit` word is dropped: the text always runs larkit itself.
 */

export type Tokenized = { ok: true; argv: string[] } | { ok: false; reason: string };

/** Characters that would start another command, a redirection or a subshell in a POSIX shell. */
const OPERATORS = new Set(["|", ";", "&", "<", ">", "(", ")", "`", "\n", "\r"]);

export function tokenize(text: string): Tokenized {
  const argv: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  const refuse = (what: string): Tokenized => ({
    ok: false,
    reason: `${what} at offset ${i} is not supported: a turn runs one larkit command, without a shell`,
  });

  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\t") {
      if (inWord) argv.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) return { ok: false, reason: `unterminated single quote at offset ${i}` };
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      const start = i;
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === "\\" && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1])) {
          word += text[i + 1];
          i += 2;
        } else if (text[i] === "`" || (text[i] === "$" && /[({A-Za-z_0-9@*#?$!-]/.test(text[i + 1] ?? ""))) {
          return refuse(text[i] === "`" ? "command substitution (`)" : `expansion "$${text[i + 1]}"`);
        } else {
          word += text[i++];
        }
      }
      if (i >= text.length) return { ok: false, reason: `unterminated double quote at offset ${start}` };
      inWord = true;
      i++;
    } else if (c === "\\") {
      if (i + 1 >= text.length) return { ok: false, reason: "trailing backslash" };
      word += text[i + 1];
      inWord = true;
      i += 2;
    } else if (OPERATORS.has(c)) {
      return refuse(c === "\n" || c === "\r" ? "a line break" : `shell operator "${c}"`);
    } else if (c === "$" && /[({A-Za-z_0-9@*#?$!-]/.test(text[i + 1] ?? "")) {
      return refuse(`expansion "$${text[i + 1]}"`);
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) argv.push(word);
  if (argv[0] === "larkit") argv.shift();
  if (argv.length === 0) return { ok: false, reason: "the command line is empty" };
  return { ok: true, argv };
}
