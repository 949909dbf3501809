/** `schedules/<name>.md` with `cron:` frontmatter becomes a markdown schedule. */
import { defineSchedule, type ScheduleDefinition } from "../authoring/schedules.ts";
import { parseFrontmatter } from "../discover/frontmatter.ts";
import { readProjectFile, type LoadContext } from "./context.ts";

export function loadMarkdownSchedule(ctx: LoadContext, file: string): ScheduleDefinition | undefined {
  let cron: unknown;
  let body: string;
  try {
    const frontmatter = parseFrontmatter(readProjectFile(ctx, file));
    cron = frontmatter.data.cron;
    body = frontmatter.body.trim();
  } catch (error) {
    ctx.diagnostics.error("invalid_frontmatter", `invalid frontmatter: ${(error as Error).message}`, { file, line: 1 });
    return undefined;
  }
  if (cron === undefined) {
    ctx.diagnostics.error("invalid_cron", "a markdown schedule needs cron: frontmatter", {
      file,
      line: 1,
      hint: '---\ncron: "0 9 * * 1-5"\n---\nThe prompt for each run.',
    });
    return undefined;
  }
  return defineSchedule({ cron: String(cron), markdown: body });
}
