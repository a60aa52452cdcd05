/**
 * The skills embedded in the binary, one per domain (`skills/<domain>/SKILL.md`). Imported as text so they
 * are part of the module graph: `deno compile`/`deno bundle` carry them without extra files. Adding a skill =
 * one folder with its SKILL.md and one line here.
 */
import calendar from "./calendar/SKILL.md" with { type: "text" };
import im from "./im/SKILL.md" with { type: "text" };
import docs from "./docs/SKILL.md" with { type: "text" };
import drive from "./drive/SKILL.md" with { type: "text" };
import sheets from "./sheets/SKILL.md" with { type: "text" };
import base from "./base/SKILL.md" with { type: "text" };
import task from "./task/SKILL.md" with { type: "text" };
import contact from "./contact/SKILL.md" with { type: "text" };
import mail from "./mail/SKILL.md" with { type: "text" };
import event from "./event/SKILL.md" with { type: "text" };
import application from "./application/SKILL.md" with { type: "text" };
import note from "./note/SKILL.md" with { type: "text" };
import vc from "./vc/SKILL.md" with { type: "text" };
import minutes from "./minutes/SKILL.md" with { type: "text" };
import okr from "./okr/SKILL.md" with { type: "text" };
import wiki from "./wiki/SKILL.md" with { type: "text" };
import markdown from "./markdown/SKILL.md" with { type: "text" };
import whiteboard from "./whiteboard/SKILL.md" with { type: "text" };
import slides from "./slides/SKILL.md" with { type: "text" };

export const SKILL_FILES: Record<string, string> = {
  calendar,
  im,
  docs,
  drive,
  sheets,
  base,
  task,
  contact,
  mail,
  event,
  application,
  note,
  vc,
  minutes,
  okr,
  wiki,
  markdown,
  whiteboard,
  slides,
};
