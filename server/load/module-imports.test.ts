import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../harness/builtin-tools/test-context.ts";
import { explainInteropError } from "./interop-errors.ts";
import { readImports } from "./module-imports.ts";

let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir("bdk-imports-");
});
afterEach(() => temp.remove());

const SOURCE = `// import fake from "commented-out";
import type { Only } from "types-only";
import main, * as everything from "./lib/main";
import {
  // what the model needs
  launch as start, type Shape,
  "quoted" as quoted,
} from "@cursor/bdk/tools";
const text = 'import bogus from "in-a-string"';
start();
`;

describe("readImports", () => {
  it("reads default, namespace and named value imports from the syntax tree, skipping comments, strings and types", () => {
    const file = path.join(temp.dir, "agent.ts");
    writeFileSync(file, SOURCE);
    expect(readImports(file)).toEqual([
      { local: "main", imported: "default", source: "./lib/main" },
      { local: "everything", imported: "*", source: "./lib/main" },
      { local: "start", imported: "launch", source: "@cursor/bdk/tools" },
      { local: "quoted", imported: "quoted", source: "@cursor/bdk/tools" },
    ]);
    expect(readImports(path.join(temp.dir, "missing.ts"))).toEqual([]);
  });
});

describe("explainInteropError", () => {
  it("names a named import written over several lines with a comment inside the braces", () => {
    const file = path.join(temp.dir, "agent.ts");
    writeFileSync(file, SOURCE);
    const error = new TypeError("(0 , _tools.launch) is not a function");
    error.stack = `TypeError: ${error.message}\n    at Object.<anonymous> (${file}:10:1)`;
    expect(explainInteropError(error, temp.dir)?.message).toMatch(/^`launch` imported from `@cursor\/bdk\/tools` is not a function: the module does not export it\./);
  });
});
