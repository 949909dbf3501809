/**
 * `bdk init` end to end: every template scaffolds a project that validates,
 * type-checks (and reports a tool reading an input field its schema lacks),
 * answers with the scripted model and passes its own evals. Projects sit in a
 * folder whose node_modules links `@cursor/bdk` to this kit (its compiled
 * types in dist/: `npm run build`) and zod, typescript and @types/node to the
 * kit's, instead of an install, except in the one test that runs the real
 * (offline) `npm install`.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTemplates } from "../templates/scaffold.ts";
import { BIN, KIT_DIR } from "./support/bdk-server.ts";
import { runProcess } from "./support/run-process.ts";

const run = runProcess;

const bdk = (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) => run(process.execPath, [BIN, ...args], options);
const tsc = (dir: string) => run(process.execPath, [path.join(KIT_DIR, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", dir]);

const workDir = mkdtempSync(path.join(os.tmpdir(), "bdk-init-"));
const installDir = mkdtempSync(path.join(os.tmpdir(), "bdk-init-install-"));
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  rmSync(installDir, { recursive: true, force: true });
});

beforeAll(() => {
  if (!existsSync(path.join(KIT_DIR, "dist", "server", "authoring", "index.d.ts"))) {
    throw new Error("The kit's compiled types are missing: run `npm run build` first.");
  }
  // Resolution walks up from each project to this folder, as from a project inside an installed one.
  const modules = path.join(workDir, "node_modules");
  mkdirSync(path.join(modules, "@cursor"), { recursive: true });
  mkdirSync(path.join(modules, "@types"));
  symlinkSync(KIT_DIR, path.join(modules, "@cursor", "bdk"), "dir");
  for (const name of ["zod", "typescript", "@types/node"]) symlinkSync(path.join(KIT_DIR, "node_modules", name), path.join(modules, name), "dir");
});

/** A project from `bdk init --no-install` in the work folder. */
async function scaffold(template: string, folder = template): Promise<string> {
  const dir = path.join(workDir, folder);
  const result = await bdk(["init", dir, "--template", template, "--no-install"]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return dir;
}

function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(dir, relative) : [relative];
  });
}

const templates = listTemplates();

describe("bdk init --list", () => {
  it("shows every template with one line each, the default marked", async () => {
    const result = await bdk(["init", "--list"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n").slice(1);
    expect(lines.map((line) => line.trim().split(/\s+/)[0])).toEqual(["pr-approver", "webhook", "scheduled-digest", "slack", "minimal"]);
    expect(lines[0]).toMatch(/\(default\)$/);
  });
});

describe.each(templates.map((template) => [template.id, template] as const))("template %s", (id, template) => {
  let dir: string;
  beforeAll(async () => {
    dir = await scaffold(id);
  }, 60_000);

  it("writes a complete project", () => {
    const files = filesUnder(dir);
    expect(files).toEqual(expect.arrayContaining([".gitignore", "README.md", "package.json", "tsconfig.json", "bot/instructions.md", "evals/evals.config.ts"]));
    expect(files.some((file) => file.startsWith("evals/") && file.endsWith(".eval.ts"))).toBe(true);
    expect(files).not.toContain("template.json");

    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    const kitPkg = JSON.parse(readFileSync(path.join(KIT_DIR, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ name: id, private: true, type: "module", scripts: { dev: "bdk dev", eval: "bdk eval" } });
    expect(realpathSync(path.resolve(dir, pkg.dependencies["@cursor/bdk"].replace(/^file:/, "")))).toBe(realpathSync(KIT_DIR));
    expect(pkg.dependencies.zod).toBe(kitPkg.dependencies.zod);

    const tsconfig = JSON.parse(readFileSync(path.join(dir, "tsconfig.json"), "utf8"));
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, module: "NodeNext", moduleResolution: "NodeNext", noEmit: true });
    expect(tsconfig.compilerOptions.paths).toBeUndefined();
    expect(readFileSync(path.join(dir, ".gitignore"), "utf8").split("\n")).toEqual(expect.arrayContaining([".bdk/", ".env.local"]));

    const readme = readFileSync(path.join(dir, "README.md"), "utf8");
    expect(readme.startsWith(`# ${id}\n`)).toBe(true);
    for (const command of ["npx bdk dev", "npx bdk run --message", "npx bdk eval"]) expect(readme).toContain(command);
    expect(readme).not.toMatch(/\{\{[a-z-]+\}\}/);
  });

  it("imports the kit as @cursor/bdk, like the published docs", () => {
    const sources = filesUnder(dir).filter((file) => /^(bot|evals)\/.*\.ts$/.test(file));
    const imports = sources.flatMap((file) => [...readFileSync(path.join(dir, file), "utf8").matchAll(/from "([^".][^"]*)"/g)].map((match) => match[1]));
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((specifier) => specifier !== "zod" && !specifier.startsWith("@cursor/bdk"))).toEqual([]);
  });

  it("validates without diagnostics, and info shows its surface", async () => {
    const validate = await bdk(["validate", "--dir", dir, "--json"]);
    expect(JSON.parse(validate.stdout)).toEqual({ ok: true, diagnostics: [] });
    expect(validate.code).toBe(0);

    const info = await bdk(["info", "--dir", dir, "--json"]);
    expect(info.code).toBe(0);
    const parsed = JSON.parse(info.stdout);
    expect(parsed.name).toBe(id);
    expect(parsed.evals.length).toBeGreaterThan(0);
  });

  it("type-checks with tsc --noEmit", async () => {
    const result = await tsc(dir);
    expect(result.stdout + result.stderr).toBe("");
    expect(result.code).toBe(0);
  }, 60_000);

  it("answers its README's message with the scripted model", async () => {
    const result = await bdk(["run", "--dir", dir, "--json", "--message", template.tryMessage], { env: { BDK_MODEL: "scripted" } });
    expect(result.code).toBe(0);
    const trajectory = JSON.parse(result.stdout);
    expect(trajectory.reply.length).toBeGreaterThan(0);
    expect(trajectory.toolCalls.every((call: { isError: boolean }) => !call.isError)).toBe(true);
  });

  it("passes its evals with the scripted model", async () => {
    const result = await bdk(["eval", "--dir", dir, "--no-stream"], { env: { BDK_MODEL: "scripted" } });
    expect(result.stdout).toMatch(/[1-9]\d* passed, 0 failed/);
    expect(result.code).toBe(0);
  }, 60_000);
});

describe("type checking a tool", () => {
  it("reports a tool that reads an input field its schema does not have", async () => {
    const dir = await scaffold("pr-approver", "typo");
    const file = path.join(dir, "bot", "tools", "inspect_pr.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace("async execute({ prUrl })", "async execute({ prUrl, pullUrl })"));
    const result = await tsc(dir);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toContain("bot/tools/inspect_pr.ts");
    expect(result.stdout).toContain("Property 'pullUrl' does not exist");
  }, 60_000);
});

describe("refusing a non-empty directory", () => {
  const snapshot = (dir: string) => Object.fromEntries(filesUnder(dir).map((file) => [file, readFileSync(path.join(dir, file), "utf8")]));

  it("names the files it would overwrite and writes nothing", async () => {
    const dir = path.join(workDir, "occupied");
    mkdirSync(path.join(dir, "bot"), { recursive: true });
    writeFileSync(path.join(dir, "bot", "instructions.md"), "# Mine\n");
    writeFileSync(path.join(dir, "README.md"), "my notes\n");
    writeFileSync(path.join(dir, "data.csv"), "a,b\n");
    const before = snapshot(dir);

    const result = await bdk(["init", dir, "--no-install"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("bot/instructions.md");
    expect(result.stderr).toContain("README.md");
    expect(result.stderr).not.toContain("data.csv");
    expect(result.stderr).toContain("--force");
    expect(snapshot(dir)).toEqual(before);
  });

  it("names what is there when nothing would be overwritten", async () => {
    const dir = path.join(workDir, "has-notes");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "notes.txt"), "x");
    const result = await bdk(["init", dir, "--no-install"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("notes.txt");
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
  });

  it("with --force writes the template over its own files and keeps the others", async () => {
    const dir = path.join(workDir, "forced");
    mkdirSync(path.join(dir, "bot"), { recursive: true });
    writeFileSync(path.join(dir, "bot", "instructions.md"), "# Mine\n");
    writeFileSync(path.join(dir, "data.csv"), "a,b\n");
    const result = await bdk(["init", dir, "--no-install", "--force", "--template", "minimal"]);
    expect(result.code).toBe(0);
    expect(readFileSync(path.join(dir, "data.csv"), "utf8")).toBe("a,b\n");
    expect(readFileSync(path.join(dir, "bot", "instructions.md"), "utf8")).not.toBe("# Mine\n");
  });

  it("treats a directory holding only .git as empty", async () => {
    const dir = path.join(workDir, "fresh-repo");
    mkdirSync(path.join(dir, ".git"), { recursive: true });
    const result = await bdk(["init", dir, "--no-install", "--template", "minimal"]);
    expect(result.code).toBe(0);
    expect(existsSync(path.join(dir, "bot", "instructions.md"))).toBe(true);
  });
});

describe("usage errors", () => {
  it("exit 2 for a missing directory, an unknown template or an invalid name, and write nothing", async () => {
    expect((await bdk(["init"])).code).toBe(2);
    const unknown = await bdk(["init", path.join(workDir, "x1"), "--template", "nope", "--no-install"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("pr-approver, webhook, scheduled-digest, slack, minimal");
    const badName = await bdk(["init", path.join(workDir, "x2"), "--name", "My Bot", "--no-install"]);
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain("my-bot");
    expect(existsSync(path.join(workDir, "x1")) || existsSync(path.join(workDir, "x2"))).toBe(false);
  });

  it("derives a valid package name from the directory name", async () => {
    const dir = path.join(workDir, "My Support Bot");
    expect((await bdk(["init", dir, "--no-install", "--template", "minimal"])).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).name).toBe("my-support-bot");
  });
});

describe("the real install", () => {
  const hash = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

  it("npm install links the kit offline; the project then runs, type-checks and leaves the kit untouched", async () => {
    // Outside the work folder: nothing above it provides the kit.
    const dir = path.join(installDir, "installed");
    const kitLock = hash(path.join(KIT_DIR, "package-lock.json"));
    const started = performance.now();

    const init = await bdk(["init", dir]);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/Installing dependencies \(npm install\)\.\.\.\n/);
    expect(init.stdout).toMatch(/Installed dependencies in \d+\.\ds\./);
    expect(realpathSync(path.join(dir, "node_modules", "@cursor", "bdk"))).toBe(realpathSync(KIT_DIR));
    expect(existsSync(path.join(dir, "node_modules", "zod", "package.json"))).toBe(true);

    const npxBdk = path.join(dir, "node_modules", ".bin", "bdk");
    const reply = await run(npxBdk, ["run", "--text", "--message", "Inspect https://github.com/acme/checkout/pull/42"], {
      cwd: dir,
      env: { BDK_MODEL: "scripted" },
    });
    const seconds = (performance.now() - started) / 1000;
    expect(reply.code).toBe(0);
    expect(reply.stdout).toContain("inspect_pr returned:");
    expect(reply.stdout).toContain("Fix typo in README");
    console.log(`bdk init (with npm install) → first scripted reply: ${seconds.toFixed(1)} s`);

    const typecheck = await run(path.join(dir, "node_modules", ".bin", "tsc"), ["--noEmit"], { cwd: dir });
    expect(typecheck.stdout + typecheck.stderr).toBe("");
    expect(typecheck.code).toBe(0);
    expect(hash(path.join(KIT_DIR, "package-lock.json"))).toBe(kitLock);
  }, 180_000);
});
