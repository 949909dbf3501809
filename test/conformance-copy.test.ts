import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { CONFORMANCE_DIR, SHARED_CONFORMANCE_DIR } from "./support/conformance.ts";

function files(root: string, dir = ""): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    return statSync(path.join(root, relative)).isDirectory() ? files(root, relative) : [relative];
  });
}

it.runIf(existsSync(SHARED_CONFORMANCE_DIR))("the vendored conformance bots equal the shared reference", () => {
  const shared = files(SHARED_CONFORMANCE_DIR).sort();
  expect(files(CONFORMANCE_DIR).sort()).toEqual(shared);
  for (const file of shared) {
    expect(readFileSync(path.join(CONFORMANCE_DIR, file), "utf8"), file).toBe(
      readFileSync(path.join(SHARED_CONFORMANCE_DIR, file), "utf8"),
    );
  }
});
