/**
 * The suite's answer for an id that names nothing, per service and (where the service has several) per kind
 * of id: the codes the hand-written routes use and the suite documents. A service or id kind the emulator has
 * no code for answers HTTP 404 with code 404 and `not found: <id>`, the emulator's generic not-found.
 */
import { raise } from "./reply.ts";

interface NotFound {
  status: number;
  code: number;
  what: string;
}

/** `service` -> id parameter (or `*`) -> the failure. The first parameter that names an absent object wins. */
const CODES: Record<string, Record<string, NotFound>> = {
  im: {
    chat_id: { status: 400, code: 232011, what: "The chat does not exist" },
    message_id: { status: 400, code: 230011, what: "The message was not found" },
    "*": { status: 400, code: 230001, what: "Your request contains an invalid request parameter: not found" },
  },
  calendar: {
    calendar_id: { status: 400, code: 191001, what: "invalid calendar_id" },
    event_id: { status: 404, code: 193001, what: "event not found" },
  },
  docx: { "*": { status: 404, code: 1770002, what: "not found" } },
  drive: { "*": { status: 404, code: 1061007, what: "file not found" } },
  sheets: {
    spreadsheet_token: { status: 404, code: 1310214, what: "spreadsheet not found" },
    sheet_id: { status: 400, code: 90215, what: "sheet not found" },
  },
  bitable: {
    app_token: { status: 404, code: 1254040, what: "BaseTokenNotFound" },
    table_id: { status: 404, code: 1254041, what: "TableIdNotFound" },
    view_id: { status: 404, code: 1254042, what: "ViewIdNotFound" },
    record_id: { status: 404, code: 1254043, what: "RecordIdNotFound" },
    field_id: { status: 404, code: 1254044, what: "FieldIdNotFound" },
  },
  task: { "*": { status: 404, code: 1470404, what: "task not found" } },
  contact: {
    user_id: { status: 400, code: 41050, what: "no user authority error: user not found" },
    department_id: { status: 400, code: 40011, what: "department not found" },
  },
  wiki: { "*": { status: 404, code: 131005, what: "not found" } },
};

const GENERIC: NotFound = { status: 404, code: 404, what: "not found" };

/** Raises the suite's not-found for `id` (named by path parameter `param`) of `service`. */
export function notFoundOf(service: string, param: string, id: string): never {
  const byParam = CODES[service] ?? {};
  const f = byParam[param] ?? byParam["*"] ?? GENERIC;
  return raise(f.status, f.code, `${f.what}: ${id}`);
}
