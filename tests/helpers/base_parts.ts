/** The fixture base's parts the base shortcut cases address, seeded where the emulator's generic handler finds them. */
import { type Emulator, fixtures } from "./emulator.ts";

/** A field, a grid view, a form (a form view), a role, a workflow of the fixture base's table. */
export function seedBaseParts(emu: Emulator): void {
  const app = `/open-apis/bitable/v1/apps/${fixtures.BASE.app}`;
  const table = `${app}/tables/${fixtures.BASE.table}`;
  fixtures.seedPath(emu.db, `${table}/fields/fldA`, { field_id: "fldA", field_name: "Owner", type: 1 });
  fixtures.seedPath(emu.db, `${table}/views/vewA`, { view_id: "vewA", view_name: "Open", view_type: "grid" });
  fixtures.seedPath(emu.db, `${table}/views/vewF`, {
    view_id: "vewF",
    view_name: "Intake",
    view_type: "form",
  });
  fixtures.seedPath(emu.db, `${table}/forms/vewF`, { name: "Intake", shared: false });
  fixtures.seedPath(emu.db, `${table}/forms/vewF/fields/fldA`, {
    field_id: "fldA",
    title: "Owner",
    required: false,
  });
  fixtures.seedPath(emu.db, `${app}/roles/rolA`, { role_id: "rolA", role_name: "Readers", table_roles: [] });
  fixtures.seedPath(emu.db, `${app}/workflows/wkfA`, {
    workflow_id: "wkfA",
    title: "Notify",
    status: "Enable",
  });
}
