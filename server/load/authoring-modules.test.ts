import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUTHORING_SUBPATHS, authoringVirtualModules } from "./authoring-modules.ts";
import { KIT_ROOT } from "./testing/temp-project.ts";

describe("authoring modules", () => {
  it("mirror every authoring entry of package.json exports (compiled to dist/, with types beside)", async () => {
    const pkg = JSON.parse(readFileSync(path.join(KIT_ROOT, "package.json"), "utf8")) as {
      exports: Record<string, string | { types: string; default: string }>;
    };
    const authoring = Object.entries(pkg.exports).flatMap(([subpath, target]) =>
      typeof target === "object" && target.default.startsWith("./dist/server/authoring/") ? [[subpath, target] as const] : [],
    );
    expect(authoring.map(([subpath]) => subpath.replace(/^\.\/?/, "")).sort()).toEqual(Object.keys(AUTHORING_SUBPATHS).sort());
    for (const [subpath, target] of authoring) {
      expect(target.types, subpath).toBe(target.default.replace(/\.js$/, ".d.ts"));
      const source = target.default.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts");
      const module = await import(path.join(KIT_ROOT, source));
      expect(AUTHORING_SUBPATHS[subpath.replace(/^\.\/?/, "")], subpath).toBe(module);
    }
  });

  it("are reachable under our name and every alias", () => {
    const modules = authoringVirtualModules();
    for (const name of ["bdk", "@cursor/bdk", "@cursor/july", "@grok/agent-sdk"]) {
      expect(modules[name]).toBe(AUTHORING_SUBPATHS[""]);
      expect(modules[`${name}/tools`]).toBe(AUTHORING_SUBPATHS.tools);
      expect(modules[`${name}/extensions/cursor-cloud-agents`]).toBe(AUTHORING_SUBPATHS["extensions/cursor-cloud-agents"]);
    }
  });
});
