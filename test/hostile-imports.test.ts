/**
 * Bot code whose import never settles, calls process.exit or never yields:
 * `bdk validate` and `bdk serve` end with a message naming the file instead
 * of exiting 13 without a word, exiting as if all were well, or hanging.
 */
import { afterAll, describe, expect, it } from "vitest";
import { removeTempProjects, tempProject } from "../server/load/testing/temp-project.ts";
import { startServer } from "./support/bdk-server.ts";
import { freshStateRoot } from "./support/field.ts";
import { runBdk } from "./support/run-process.ts";

afterAll(removeTempProjects);

const TOOL = 'export default { description: "Fine.", async execute() { return 1; } };\n';
const FAST_DEADLINE = { BDK_MODEL: "scripted", BDK_IMPORT_TIMEOUT_MS: "1000" };

function project(hostile: string): string {
  return tempProject({ "bot/instructions.md": "You help.", "bot/tools/fine.ts": TOOL, "bot/tools/hostile.ts": hostile });
}

const validate = (dir: string, env: Record<string, string> = FAST_DEADLINE) => runBdk(["validate", "--dir", dir], env);
const serve = (dir: string, env: Record<string, string> = FAST_DEADLINE) =>
  runBdk(["serve", "--dir", dir, "--port", "0", "--state-root", freshStateRoot()], env);

describe("an import that never settles", () => {
  const dir = project("await new Promise(() => {});\nexport default {};\n");
  // 3 s, not 1: the deadline counts Babel's first load (a top-level await is Babel's to transpile), which took about
  // 2 s once on a loaded machine, and the watchdog ends the process 2 s after the deadline.
  const deadline = { BDK_MODEL: "scripted", BDK_IMPORT_TIMEOUT_MS: "3000" };
  const expected = "bot/tools/hostile.ts  failed to load: its import did not finish within 3 s (a top-level await that never settles?); the project's other modules were not loaded";

  it("validate reports it on the file and exits 1", async () => {
    const result = await validate(dir, deadline);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`error    ${expected}`);
  });

  it("serve refuses to start, naming the file", async () => {
    const result = await serve(dir, deadline);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(expected);
  });
});

describe("process.exit at import", () => {
  const dir = project('console.log("setting up");\nprocess.exit(0);\n');
  const expected = "bot/tools/hostile.ts:2  failed to load: it called process.exit(0) while being imported; a module must not end the process when it loads";

  it("validate reports it instead of exiting 0 as if the project were valid", async () => {
    const result = await validate(dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`error    ${expected}`);
    expect(result.stdout).toContain("invalid (1 error, 0 warnings)");
  });

  it("serve refuses to start, naming the file", async () => {
    const result = await serve(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(expected);
  });
});

describe("an import that never yields", () => {
  const dir = project("while (true) {}\n");

  for (const [command, run] of [["validate", validate], ["serve", serve]] as const) {
    it(`${command} ends, naming the file`, async () => {
      const result = await run(dir);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(
        "hostile.ts  its import has kept the process busy for over 1 s (an endless loop at the top level?); stopping.",
      );
    });
  }
});

describe("process.exit from a timer set at import", () => {
  it("validate reports the import's failure on the file, without a stack trace", async () => {
    const dir = project("setTimeout(() => process.exit(3), 10);\nawait new Promise((resolve) => setTimeout(resolve, 300));\nexport default {};\n");
    // The default deadline, not the 1 s one: the 10 ms timer must fire within it, after Babel's first load (see above).
    const result = await validate(dir, { BDK_MODEL: "scripted" });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("error    bot/tools/hostile.ts:1  failed to load: it called process.exit(3) while being imported");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("process.exit from bot code in a running server", () => {
  const dir = tempProject({
    "bot/instructions.md": "You help.",
    "bot/tools/quit.ts": 'export default { description: "Quits.", async execute() {\n  process.exit(1);\n} };\n',
    "bot/tools/later.ts": 'setTimeout(() => process.exit(2), 300);\nexport default { description: "Fine.", async execute() { return "still here"; } };\n',
  });

  it("is a tool error naming the file, and a timer's call is reported; the server keeps serving", async () => {
    const server = await startServer({ dir });
    try {
      const post = (tool: string) =>
        fetch(`${server.url}/v1/tools/${tool}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ input: {} }) });
      const quit = await post("quit");
      const body = (await quit.json()) as Record<string, unknown>;
      expect(JSON.stringify(body)).toContain("bot/tools/quit.ts:2: it called process.exit(1)");
      expect(JSON.stringify(body)).not.toMatch(/\n\s+at /);
      // The timer set at import fires 300 ms after loading: by now it has, and the server is still up.
      await expect.poll(() => server.output(), { timeout: 20_000 }).toContain("bot/tools/later.ts:1: it called process.exit(2)");
      expect(server.output()).not.toMatch(/\n\s+at /);
      const later = await post("later");
      expect(await later.json()).toMatchObject({ ok: true, result: "still here" });
    } finally {
      await server.stop();
    }
  });
});
