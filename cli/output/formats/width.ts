/**
 * string-width behind a module of its own: cells.ts loads it only when a table or a pretty summary is drawn,
 * so the JSON runs agents make never load the package (or, on a cold cache, download it).
 */
import stringWidth from "string-width";

export { stringWidth };
