/** The published kit's Cursor-account features, answered with one line naming each (see docs/migrating-from-cursor-bdk.md). */
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { main } from "./main.ts";
import { capturedIO } from "./testing/captured-io.ts";

afterAll(removeTempProjects);

async function bdk(argv: string[]) {
  const captured = capturedIO(process.cwd());
  const code = await main(argv, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe("Cursor account features", () => {
  it.each([
    [["login"], "bdk login: Cursor account sign-in is not part of the open kit"],
    [["logout"], "bdk logout: Cursor account sign-in is not part of the open kit"],
    [["deploy", "--prod"], "bdk deploy: deploying through a Cursor account is not part of the open kit"],
    [["run", "--message", "hi", "--cursor-events"], "bdk run: --cursor-events is a Cursor account feature"],
    [["serve", "--cursor-events=true"], "bdk serve: --cursor-events is a Cursor account feature"],
  ])("bdk %j answers with one line naming the feature, exit 2", async (argv, start) => {
    const result = await bdk(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.startsWith(start)).toBe(true);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("bdk docs migrating-from-cursor-bdk");
  });

  it("a cursorAccount field in agent.ts is an error naming it, so validate exits 1", async () => {
    const dir = tempProject({
      "bot/instructions.md": "# Bot",
      "bot/agent.ts": 'import { defineAgent } from "@cursor/bdk";\nexport default defineAgent({ model: "grok-4.5", cursorAccount: { team: "acme" } } as never);\n',
    });
    const result = await bdk(["validate", "--dir", dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/bot\/agent\.ts\s+cursorAccount is a Cursor account feature/);
  });
});
