/** Roles (advanced permissions), forms and their questions, workflows and dashboards of a base (bitable v1). */
import { errors } from "../../cli/output/errors.ts";
import { flag } from "../declare.ts";
import { appPath, baseFlag, idOf, objectOf, simple, tableFlags, tablePath } from "./simple.ts";

const enc = encodeURIComponent;
const B = "bascnAbc123";
const T = "tblXyz";
const roleFlags = { ...baseFlag, "role-id": flag.requiredString("role ID (rol\u2026)") };
const rolePath = (f: { "base-token": string; "role-id": string }) =>
  `${appPath(f)}/roles/${enc(idOf("role-id", f["role-id"]))}`;
const formFlags = {
  ...tableFlags,
  "form-id": flag.requiredString("form ID (the form view's ID, vew\u2026)"),
};
const formPath = (f: { "base-token": string; "table-id": string; "form-id": string }) =>
  `${tablePath(f)}/forms/${enc(idOf("form-id", f["form-id"]))}`;
const roleJson = flag.json('the role as JSON: {"role_name": "Editors", "table_roles": [...]}', {
  input: ["file", "stdin"],
});
function role(json: unknown) {
  const r = objectOf("json", json);
  if (typeof r.role_name !== "string" || !Array.isArray(r.table_roles)) {
    throw errors.validation('--json needs "role_name" (text) and "table_roles" (a list)');
  }
  return r;
}

export const roleList = simple({
  command: "+role-list",
  columns: ["role_name", "role_id"],
  description: "List a base's custom roles (advanced permissions)",
  examples: [`larkit base +role-list --base-token ${B}`],
  risk: "read",
  scopes: ["base:role:read"],
  flags: baseFlag,
  method: "GET",
  path: (f) => `${appPath(f)}/roles`,
  list: "items",
});

export const roleCreate = simple({
  command: "+role-create",
  description: "Create a custom role",
  examples: [
    `larkit base +role-create --base-token ${B} --json '{"role_name":"Readers","table_roles":[{"table_name":"Tasks","table_perm":1}]}'`,
    `larkit base +role-create --base-token ${B} --json @role.json`,
  ],
  risk: "write",
  scopes: ["base:role:create"],
  flags: { ...baseFlag, json: roleJson },
  method: "POST",
  path: (f) => `${appPath(f)}/roles`,
  body: (f) => role(f.json),
});

export const roleUpdate = simple({
  command: "+role-update",
  description: "Replace a custom role's permissions (asks for confirmation)",
  examples: [
    `larkit base +role-update --base-token ${B} --role-id rolAbc --json '{"role_name":"Readers","table_roles":[]}' --yes`,
    `larkit base +role-update --base-token ${B} --role-id rolAbc --json @role.json --yes`,
  ],
  risk: "high-risk-write",
  scopes: ["base:role:update"],
  flags: { ...roleFlags, json: roleJson },
  method: "PUT",
  path: rolePath,
  body: (f) => role(f.json),
});

export const roleDelete = simple({
  command: "+role-delete",
  description: "Delete a custom role; its members lose its access (asks for confirmation)",
  examples: [`larkit base +role-delete --base-token ${B} --role-id rolAbc --yes`],
  risk: "high-risk-write",
  scopes: ["base:role:delete"],
  flags: roleFlags,
  method: "DELETE",
  path: rolePath,
  echo: (f) => ({ role_id: f["role-id"], deleted: true }),
});

export const formGet = simple({
  command: "+form-get",
  description: "Show a form: name, description, sharing and submission settings",
  examples: [`larkit base +form-get --base-token ${B} --table-id ${T} --form-id vewForm1`],
  risk: "read",
  scopes: ["base:form:read"],
  flags: formFlags,
  method: "GET",
  path: formPath,
});

export const formUpdate = simple({
  command: "+form-update",
  description: "Change a form's name, description or sharing",
  examples: [
    `larkit base +form-update --base-token ${B} --table-id ${T} --form-id vewForm1 --name "Feedback" --shared true`,
  ],
  risk: "write",
  scopes: ["base:form:update"],
  flags: {
    ...formFlags,
    name: flag.string("form name"),
    description: flag.string("form description"),
    shared: flag.string("true: anyone with the link can fill it in; false: not shared"),
  },
  method: "PATCH",
  path: formPath,
  body: (f) => {
    if (f.shared !== undefined && f.shared !== "true" && f.shared !== "false") {
      throw errors.validation(`--shared must be true or false, got "${f.shared}"`);
    }
    const body = {
      ...(f.name ? { name: f.name } : {}),
      ...(f.description ? { description: f.description } : {}),
      ...(f.shared ? { shared: f.shared === "true" } : {}),
    };
    if (!Object.keys(body).length) {
      throw errors.validation("nothing to change: give --name, --description or --shared");
    }
    return body;
  },
});

export const formQuestionsList = simple({
  command: "+form-questions-list",
  columns: ["title", "required", "field_id"],
  description: "List a form's questions (its fields: title, description, required, visible)",
  examples: [`larkit base +form-questions-list --base-token ${B} --table-id ${T} --form-id vewForm1`],
  risk: "read",
  scopes: ["base:form:read"],
  flags: formFlags,
  method: "GET",
  path: (f) => `${formPath(f)}/fields`,
  list: "items",
});

export const formQuestionsUpdate = simple({
  command: "+form-questions-update",
  description: "Change one form question: title, description, required or visible",
  examples: [
    `larkit base +form-questions-update --base-token ${B} --table-id ${T} --form-id vewForm1 --field-id fldA --required true`,
  ],
  risk: "write",
  scopes: ["base:form:update"],
  flags: {
    ...formFlags,
    "field-id": flag.requiredString("the question's field ID"),
    title: flag.string("question title"),
    description: flag.string("question description"),
    required: flag.string("true or false"),
    visible: flag.string("true or false"),
  },
  method: "PATCH",
  path: (f) => `${formPath(f)}/fields/${enc(idOf("field-id", f["field-id"]))}`,
  body: (f) => {
    const bool = (name: string, v: string | undefined) => {
      if (v === undefined) return undefined;
      if (v !== "true" && v !== "false") {
        throw errors.validation(`--${name} must be true or false, got "${v}"`);
      }
      return v === "true";
    };
    const body = {
      ...(f.title ? { title: f.title } : {}),
      ...(f.description ? { description: f.description } : {}),
      ...(f.required !== undefined ? { required: bool("required", f.required) } : {}),
      ...(f.visible !== undefined ? { visible: bool("visible", f.visible) } : {}),
    };
    if (!Object.keys(body).length) {
      throw errors.validation("nothing to change: give --title, --description, --required or --visible");
    }
    return body;
  },
});

export const workflowList = simple({
  command: "+workflow-list",
  columns: ["title", "status", "workflow_id"],
  description: "List a base's automation workflows and whether each is on",
  examples: [`larkit base +workflow-list --base-token ${B} --format table`],
  risk: "read",
  scopes: ["base:workflow:read"],
  flags: baseFlag,
  method: "GET",
  path: (f) => `${appPath(f)}/workflows`,
  list: "workflows",
  // The SDK's bitable.v1.appWorkflow.list takes no query: the suite answers every workflow at once.
  unpaged: true,
});

function workflowSwitch(command: "+workflow-enable" | "+workflow-disable", status: "Enable" | "Disable") {
  return simple({
    command,
    description: `${status === "Enable" ? "Turn on" : "Turn off"} an automation workflow`,
    examples: [`larkit base ${command} --base-token ${B} --workflow-id wkfAbc`],
    risk: "write",
    scopes: ["base:workflow:update"],
    flags: { ...baseFlag, "workflow-id": flag.requiredString("workflow ID") },
    method: "PUT",
    path: (f) => `${appPath(f)}/workflows/${enc(idOf("workflow-id", f["workflow-id"]))}`,
    body: () => ({ status }),
    echo: (f) => ({ workflow_id: f["workflow-id"], status }),
  });
}
export const workflowEnable = workflowSwitch("+workflow-enable", "Enable");
export const workflowDisable = workflowSwitch("+workflow-disable", "Disable");

export const dashboardList = simple({
  command: "+dashboard-list",
  columns: ["name", "block_id"],
  description: "List a base's dashboards",
  examples: [`larkit base +dashboard-list --base-token ${B}`],
  risk: "read",
  scopes: ["base:dashboard:read"],
  flags: baseFlag,
  method: "GET",
  path: (f) => `${appPath(f)}/dashboards`,
  list: "dashboards",
});

export const dashboardCopy = simple({
  command: "+dashboard-copy",
  description: "Copy a dashboard under a new name",
  examples: [`larkit base +dashboard-copy --base-token ${B} --dashboard-id blkAbc --name "Q4 (copy)"`],
  risk: "write",
  scopes: ["base:dashboard:create"],
  flags: {
    ...baseFlag,
    "dashboard-id": flag.requiredString("dashboard ID (blk\u2026)"),
    name: flag.requiredString("name of the copy"),
  },
  method: "POST",
  path: (f) => `${appPath(f)}/dashboards/${enc(idOf("dashboard-id", f["dashboard-id"]))}/copy`,
  body: (f) => ({ name: f.name }),
});
