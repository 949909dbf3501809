/**
 * `bdk dev` reloads on every save, atomic ones included (an editor writes a
 * temporary file and renames it over the old one), and survives an edit
 * whose import never yields: it reports the file and keeps serving the last
 * good version.
 */
import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { startServer } from "./support/bdk-server.ts";

afterAll(removeTempProjects);

const tool = (description: string) => `export default { description: ${JSON.stringify(description)}, async execute() { return 1; } };\n`;

/** What an editor does on save: write a temporary file beside the target, then rename it over the target. */
function atomicSave(file: string, text: string): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.hrtime.bigint()}.tmp`);
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

describe("bdk dev hot reload", () => {
  it("reloads on every atomic save, and a save whose import never yields is reported while the server keeps serving", async () => {
    const dir = tempProject({ "bot/instructions.md": "You help.", "bot/tools/greet.ts": tool("First version.") });
    const server = await startServer({ dir, args: ["--dev"], env: { BDK_IMPORT_TIMEOUT_MS: "1000" } });
    const toolsText = async () => JSON.stringify(await (await fetch(`${server.url}/v1/tools`)).json());
    const file = path.join(dir, "bot", "tools", "greet.ts");
    try {
      expect(await toolsText()).toContain("First version.");
      atomicSave(file, tool("Second version."));
      await expect.poll(toolsText, { timeout: 60_000, interval: 200 }).toContain("Second version.");
      // The save after the first rename: the file watched before is gone, its name holds a new file.
      atomicSave(file, tool("Third version."));
      await expect.poll(toolsText, { timeout: 60_000, interval: 200 }).toContain("Third version.");

      atomicSave(file, "while (true) {}\n");
      await expect.poll(() => server.output(), { timeout: 60_000, interval: 200 }).toContain("Reload failed");
      expect(server.output()).toContain("bot/tools/greet.ts");
      expect(server.output()).toContain("an endless loop at the top level?");
      expect(server.child.exitCode).toBeNull();
      expect(await toolsText()).toContain("Third version.");
    } finally {
      await server.stop();
    }
  }, 240_000);
});
