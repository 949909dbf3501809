import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { scanImports } from "./import-graph.ts";
import { removeTempProjects, tempProject } from "./testing/temp-project.ts";

afterAll(removeTempProjects);

/** Commands of this process's live children, from /proc (the kernel's own list). */
function childCommands(): string[] {
  const commands: string[] = [];
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    for (const pid of readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) {
      try {
        commands.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]!);
      } catch {
        // Exited meanwhile.
      }
    }
  }
  return commands;
}

it("finds a project's imports and missing exports, and leaves no esbuild service process running afterwards", async () => {
  const dir = tempProject({
    "bot/tools/a.ts": 'import { helper, nope } from "../lib/helper.js";\nexport default { description: "a", execute: () => helper() + String(nope) };\n',
    "bot/lib/helper.ts": "export const helper = () => 1;\n",
  });
  const files = [path.join(dir, "bot/tools/a.ts")];
  const [first, second] = await Promise.all([scanImports(dir, files), scanImports(dir, files)]);
  for (const scan of [first, second]) {
    expect([...(scan?.imports.get(files[0]!) ?? [])]).toEqual([path.join(dir, "bot/lib/helper.ts")]);
    expect(scan?.missingExports.map((missing) => missing.name)).toEqual(["nope"]);
  }
  expect(childCommands().filter((command) => path.basename(command).startsWith("esbuild"))).toEqual([]);
});
