import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadAgent } from "./load-agent.ts";
import { esbuildChildren } from "./testing/esbuild-children.ts";
import { removeTempProjects, tempProject } from "./testing/temp-project.ts";

afterAll(removeTempProjects);

const INSTRUCTIONS = { "bot/instructions.md": "Be brief." };

describe("a project's TypeScript transpiled by esbuild, run as jiti runs Babel's output", () => {
  it("names the line the author wrote when a module throws, though the transpiled code has other lines", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/lib/settings.ts": [
        'import { z } from "zod";',
        "",
        "/** What the settings hold. */",
        "export interface Settings {",
        "  token: string;",
        "}",
        "type Maybe<T> = T | undefined;",
        "const token: Maybe<string> = process.env.NO_SUCH_TOKEN_FOR_THIS_TEST;",
        'if (!token) throw new Error("NO_SUCH_TOKEN_FOR_THIS_TEST is not set");',
        "export const settings: Settings = { token: z.string().parse(token) };",
      ].join("\n"),
      "bot/tools/uses_settings.ts": 'import { settings } from "../lib/settings.js";\nexport default { description: settings.token, execute: () => 1 };\n',
      "bot/tools/own_throw.ts": 'type Input = { id: string };\n\n\nconst input: Input = { id: "x" };\n\nexport default { description: input.id, execute: () => 1 };\nthrow new Error("thrown on line 7");\n',
    });
    const { diagnostics } = await loadAgent(dir);
    expect(diagnostics.find((diagnostic) => diagnostic.file === "bot/lib/settings.ts")).toMatchObject({ code: "import_failed", line: 9 });
    expect(diagnostics.find((diagnostic) => diagnostic.file === "bot/tools/own_throw.ts")).toMatchObject({ message: "failed to load: thrown on line 7", line: 7 });
  });

  it("names the line the author wrote in the error's own stack, as a tool's caller logs it", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/tools/fails_later.ts": [
        "interface Input {",
        "  id: string;",
        "}",
        "type Output = { ok: boolean };",
        "",
        "export default {",
        '  description: "fails when called",',
        "  execute(input: Input): Output {",
        "    throw new Error(`no record ${input.id}`);",
        "  },",
        "};",
      ].join("\n"),
    });
    const { agent } = await loadAgent(dir);
    const tool = agent?.tools.find((candidate) => candidate.name === "fails_later");
    const thrown = await Promise.resolve()
      .then(() => tool?.execute({ id: "x" }, {} as never))
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).stack).toContain(`${path.join(dir, "bot/tools/fails_later.ts")}:9:`);
  });

  it("gives default, namespace and re-exported imports, import.meta, a top-level await and a dynamic import what Babel gave them", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/lib/legacy.cjs": "module.exports = function legacy() { return 'cjs'; };\nmodule.exports.extra = 'extra';\n",
      "bot/lib/named.ts": "export const named = 'named';\nexport default 'default';\n",
      "bot/lib/index.ts": 'export * from "./named.js";\nexport { default as fallback } from "./named.js";\n',
      "bot/lib/late.ts": "export const late = await Promise.resolve('tla');\n",
      "bot/tools/mixed.ts": [
        'import legacy from "../lib/legacy.cjs";',
        'import * as lib from "../lib/index.js";',
        'import named, { named as alsoNamed } from "../lib/named.js";',
        'import { late } from "../lib/late.js";',
        'import type { Settings } from "../lib/none.js";',
        "const meta: Settings | undefined = undefined;",
        "const where = [import.meta.url, import.meta.filename, import.meta.dirname].map((value) => value.split(\"/bot/\")[1] ?? value);",
        "export default {",
        "  description: [legacy(), legacy.extra, lib.named, lib.fallback, named, alsoNamed, late, String(meta), ...where].join(\" \"),",
        '  execute: async () => (await import("../lib/named.js")).named,',
        "};",
      ].join("\n"),
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    const tool = agent?.tools.find((candidate) => candidate.name === "mixed");
    expect(tool?.description).toBe("cjs extra named default default named tla undefined tools/mixed.ts tools/mixed.ts tools");
    expect(await tool?.execute({}, {} as never)).toBe("named");
  });

  it("gives each file the copy of a package its own folder resolves to, and files of one folder the same copy", async () => {
    const pkg = (version: string) => ({
      "package.json": JSON.stringify({ name: "shared-pkg", version, main: "index.js" }),
      "index.js": `module.exports = { version: ${JSON.stringify(version)}, made: {} };\n`,
    });
    const under = (folder: string, files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([name, text]) => [`${folder}/${name}`, text]));
    const dir = tempProject({
      ...INSTRUCTIONS,
      ...under("bot/node_modules/shared-pkg", pkg("outer")),
      ...under("bot/lib/vendor/node_modules/shared-pkg", pkg("inner")),
      "bot/lib/vendor/inner.ts": 'import shared from "shared-pkg";\nexport const innerVersion: string = shared.version;\n',
      "bot/tools/first.ts": 'import shared from "shared-pkg";\nimport { innerVersion } from "../lib/vendor/inner.js";\nexport const made = shared.made;\nexport default { description: `${shared.version} ${innerVersion}`, execute: () => 1 };\n',
      "bot/tools/second.ts": 'import shared from "shared-pkg";\nimport { made } from "./first.js";\nexport default { description: `${shared.version} same ${shared.made === made}`, execute: () => 1 };\n',
    });
    const { agent, diagnostics } = await loadAgent(dir);
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === "error")).toEqual([]);
    expect(agent?.tools.map((tool) => tool.description)).toEqual(["outer inner", "outer same true"]);
  });

  it("names the default import that is not a function, as with Babel's bindings", async () => {
    const dir = tempProject({
      ...INSTRUCTIONS,
      "bot/lib/named-only.cjs": "module.exports = { helper: () => 1 };\n",
      "bot/tools/calls_default.ts": 'import helper from "../lib/named-only.cjs";\n\nconst value: number = helper();\nexport default { description: String(value), execute: () => value };\n',
    });
    const { diagnostics } = await loadAgent(dir);
    expect(diagnostics.find((diagnostic) => diagnostic.file === "bot/tools/calls_default.ts")).toMatchObject({
      line: 3,
      message: expect.stringMatching(/`helper` imported as default from `..\/lib\/named-only.cjs` is not a function/),
    });
  });

  it("leaves no esbuild service running after a load that transpiled", async () => {
    const before = new Set(esbuildChildren());
    const dir = tempProject({ ...INSTRUCTIONS, "bot/tools/plain.ts": 'const n: number = 1;\nexport default { description: `n ${n}`, execute: () => n };\n' });
    const { agent } = await loadAgent(dir);
    expect(agent?.tools.map((tool) => tool.description)).toEqual(["n 1"]);
    // The sync service's process ends when its worker thread does, just after the load.
    await expect.poll(() => esbuildChildren().filter((pid) => !before.has(pid))).toEqual([]);
  });
});
