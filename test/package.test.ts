/**
 * The kit as a user adopts it: packed with `npm pack` (from a staged copy of
 * this tree, so the build that prepack runs cannot disturb the other tests),
 * installed from the tarball under the alias `@cursor/bdk` into a project
 * written like the published docs (its own zod@^3.25 and typescript from the
 * registry), and driven with `npx` from the project's folder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFORMANCE_DIR } from "./support/conformance.ts";
import { freePort, KIT_DIR, readNdjson } from "./support/bdk-server.ts";
import { type ProcessOptions, runProcess } from "./support/run-process.ts";

/** What `npm pack` needs from the tree: the sources it compiles and builds, and what `files` ships. */
const STAGED = [
  "package.json",
  "README.md",
  "tsconfig.json",
  "tsconfig.build.json",
  "next.config.mjs",
  "postcss.config.mjs",
  "tailwind.config.ts",
  "bin",
  "cli",
  "server",
  "web",
  "templates",
  "docs",
  "app",
  "components",
  ".next",
];
const TYPESCRIPT_5 = "5.9.3";
const TYPESCRIPT_6 = "6.0.3";
const TEAM_TOOL = [
  'import { defineTool } from "@cursor/bdk/tools";',
  "",
  "export default defineTool({",
  '  description: "The team this bot works for, from the environment.",',
  "  async execute() {",
  "    return { team: process.env.TEAM_NAME, kitOnly: process.env.KIT_ONLY };",
  "  },",
  "});",
  "",
].join("\n");
const TSCONFIG = {
  compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: ["node"] },
  include: ["bot", "evals"],
};

interface PackedFile {
  path: string;
}
interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: PackedFile[];
}

const work = mkdtempSync(path.join(os.tmpdir(), "bdk-package-"));
const project = path.join(work, "pr-reviewer");
const servers: ChildProcess[] = [];
let packed: PackResult;
let installSeconds: number;

/** npm without its notifier, in the user's project unless told otherwise. */
const npmEnv = { npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };
const run = (command: string, args: string[], options: ProcessOptions = {}) =>
  runProcess(command, args, { cwd: project, ...options, env: { ...npmEnv, BDK_MODEL: "scripted", ...options.env } });
/** `npx <command> ...` with nothing fetched: `--` keeps npm from reading the command's flags as its own. */
const NPX = ["--no", "--"];
const npx = (args: string[], options: ProcessOptions = {}) => run("npx", [...NPX, ...args], options);

function stageKit(dir: string): void {
  for (const entry of STAGED) {
    cpSync(path.join(KIT_DIR, entry), path.join(dir, entry), {
      recursive: true,
      filter: (source) => !source.startsWith(path.join(KIT_DIR, ".next", "cache")),
    });
  }
  symlinkSync(path.join(KIT_DIR, "node_modules"), path.join(dir, "node_modules"), "dir");
}

async function pack(): Promise<PackResult> {
  const staged = path.join(work, "kit");
  mkdirSync(staged);
  stageKit(staged);
  const result = await run("npm", ["pack", "--json", "--pack-destination", project], { cwd: staged });
  expect(result.code, result.stderr).toBe(0);
  // prepack's build prints its progress to stdout before npm's JSON.
  return (JSON.parse(result.stdout.slice(result.stdout.indexOf("\n[") + 1)) as PackResult[])[0];
}

function writeProject(tarball: string): void {
  mkdirSync(project, { recursive: true });
  cpSync(path.join(CONFORMANCE_DIR, "quickstart"), project, { recursive: true });
  const pkg = {
    name: "pr-reviewer",
    private: true,
    type: "module",
    dependencies: { "@cursor/bdk": `file:${tarball}`, zod: "^3.25.0" },
    devDependencies: { typescript: TYPESCRIPT_5, "@types/node": "^20.19.0" },
  };
  writeFileSync(path.join(project, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(path.join(project, "tsconfig.json"), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  writeFileSync(path.join(project, "bot", "tools", "team_name.ts"), TEAM_TOOL);
  writeFileSync(path.join(project, ".env"), "TEAM_NAME=platform\n");
}

/** Starts a server command in its own process group and waits for `/v1/info`; resolves with the seconds that took. */
async function startServing(command: string, args: string[], url: string): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: project,
    env: { ...process.env, ...npmEnv, BDK_MODEL: "scripted", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  servers.push(child);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited ${child.exitCode}:\n${output}`);
    const status = await fetch(`${url}/v1/info`).then(
      (response) => response.status,
      () => undefined,
    );
    if (status === 200) return (performance.now() - started) / 1000;
    if (status !== undefined && status !== 503) throw new Error(`GET /v1/info answered ${status}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stopServing(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid!, "SIGTERM");
  await exited;
}

beforeAll(async () => {
  mkdirSync(project, { recursive: true });
  packed = await pack();
  writeProject(`./${packed.filename}`);
  const started = performance.now();
  const install = await run("npm", ["install", "--prefer-offline"]);
  installSeconds = (performance.now() - started) / 1000;
  expect(install.code, install.stdout + install.stderr).toBe(0);
  // A .env inside the installed kit must never reach the project.
  writeFileSync(path.join(project, "node_modules", "@cursor", "bdk", ".env"), "KIT_ONLY=leaked\n");
}, 1_800_000);

afterAll(async () => {
  await Promise.all(servers.map(stopServing));
  // A whole installed project: tens of thousands of files.
  await rm(work, { recursive: true, force: true });
}, 300_000);

describe("the packed kit", () => {
  it("holds compiled JavaScript, types for every export, the playground build, docs and templates, and no sources", () => {
    const files = new Set(packed.files.map((file) => file.path));
    const manifest = JSON.parse(readFileSync(path.join(KIT_DIR, "package.json"), "utf8")) as {
      private?: boolean;
      exports: Record<string, string | { types: string; default: string }>;
    };
    expect(manifest.private).toBeUndefined();
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === "string") continue;
      expect(files, subpath).toContain(target.types.slice(2));
      expect(files, subpath).toContain(target.default.slice(2));
    }
    for (const file of ["bin/bdk.mjs", "dist/cli/main.js", ".next/BUILD_ID", "docs/cli.md", "docs/migrating-from-cursor-bdk.md", "templates/pr-approver/template.json"]) {
      expect(files).toContain(file);
    }
    const sources = [...files].filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts") && !file.startsWith("templates/"));
    expect(sources).toEqual([]);
    expect([...files].filter((file) => /\.test\.|^\.next\/cache\/|^test\//.test(file))).toEqual([]);
    console.log(
      `npm pack: ${(packed.size / 1024).toFixed(0)} kB packed, ${(packed.unpackedSize / 1024 / 1024).toFixed(1)} MB unpacked, ${packed.entryCount} files; npm install of it: ${installSeconds.toFixed(1)} s`,
    );
  });

  it("npx bdk validate", async () => {
    const result = await npx(["bdk", "validate"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("pr-reviewer: valid (0 errors, 0 warnings)\n");
    expect(result.code).toBe(0);
  });

  describe.each([
    ["TypeScript 5.9 (the project's own, npx tsc)", async () => (args: string[]) => npx(["tsc", ...args])],
    [
      "TypeScript 6",
      async () => {
        const dir = path.join(work, "typescript-6");
        mkdirSync(dir);
        const install = await run("npm", ["install", "--prefer-offline", `typescript@${TYPESCRIPT_6}`], { cwd: dir });
        expect(install.code, install.stderr).toBe(0);
        return (args: string[]) => run(path.join(dir, "node_modules", ".bin", "tsc"), args);
      },
    ],
  ])("%s", (_name, installCompiler) => {
    let tsc: (args: string[]) => ReturnType<typeof run>;
    beforeAll(async () => {
      tsc = await installCompiler();
    }, 300_000);

    it("type-checks the project (tsc --noEmit), and a wrong tool input field is a compile error", async () => {
      const clean = await tsc(["--noEmit"]);
      expect(clean.stdout + clean.stderr).toBe("");
      expect(clean.code).toBe(0);

      const file = path.join(project, "bot", "tools", "inspect_pr.ts");
      const source = readFileSync(file, "utf8");
      try {
        writeFileSync(file, source.replace("async execute({ prUrl })", "async execute({ prUrl, pullUrl })"));
        const typo = await tsc(["--noEmit"]);
        expect(typo.code).not.toBe(0);
        expect(typo.stdout).toContain("bot/tools/inspect_pr.ts");
        expect(typo.stdout).toContain("Property 'pullUrl' does not exist");
      } finally {
        writeFileSync(file, source);
      }
    }, 300_000);
  });

  it("npx bdk call runs a tool that reads the project's .env (and never the kit's own)", async () => {
    const result = await npx(["bdk", "call", "team_name"]);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ isError: false, result: { team: "platform" } });
  });

  it("npx bdk info, manifest, run, eval and chat work from the project's folder", async () => {
    const info = await npx(["bdk", "info", "--json"]);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ name: "pr-reviewer" });

    const manifest = await npx(["bdk", "manifest"]);
    expect(manifest.code).toBe(0);
    expect(JSON.parse(manifest.stdout)).toMatchObject({ model: expect.anything() });

    const turn = await npx(["bdk", "run", "--text", "--message", "Inspect https://github.com/acme/checkout/pull/42"]);
    expect(turn.code).toBe(0);
    expect(turn.stdout).toContain("inspect_pr returned:");

    const evals = await npx(["bdk", "eval", "--no-stream"]);
    expect(evals.stdout).toMatch(/[1-9]\d* passed, 0 failed/);
    expect(evals.code).toBe(0);

    const chat = await npx(["bdk", "chat"], { input: "Hello there\n/exit\n" });
    expect(chat.code).toBe(0);
    expect(chat.stdout).toContain("you> ");
  }, 300_000);

  it("npx bdk init scaffolds a project that depends on the kit the same way, validates and type-checks", async () => {
    const init = await npx(["bdk", "init", "second-bot", "--no-install", "--template", "webhook"]);
    expect(init.code, init.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(path.join(project, "second-bot", "package.json"), "utf8"));
    expect(pkg.dependencies["@cursor/bdk"]).toBe(`file:../${packed.filename}`);
    // Resolved through the enclosing project's node_modules, as an installed copy would be.
    expect((await npx(["bdk", "validate", "--dir", "second-bot"])).stdout).toBe("second-bot: valid (0 errors, 0 warnings)\n");
    const typecheck = await npx(["tsc", "--noEmit", "-p", "second-bot"]);
    expect(typecheck.stdout + typecheck.stderr).toBe("");
    expect(typecheck.code).toBe(0);
  }, 300_000);

  it.each(["serve", "dev"])("npx bdk %s: /v1/info and /playground answer 200, and a turn completes", async (command) => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const started = performance.now();
    await startServing("npx", [...NPX, "bdk", command, "--port", String(port), "--state-root", path.join(work, `state-${command}`)], url);
    const playground = await fetch(`${url}/playground`);
    expect(playground.status).toBe(200);
    expect(await playground.text()).toContain("<html");
    if (command === "serve") {
      const seconds = (performance.now() - started) / 1000;
      console.log(`npm install of the tarball + npx bdk serve → first /playground 200: ${(installSeconds + seconds).toFixed(1)} s (${installSeconds.toFixed(1)} s + ${seconds.toFixed(1)} s)`);
    }

    const tool = await fetch(`${url}/v1/tools/team_name`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(await tool.json()).toMatchObject({ ok: true, result: { team: "platform" } });

    const created = await fetch(`${url}/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ message: "Hello" }) });
    expect(created.status).toBe(202);
    const { sessionId } = (await created.json()) as { sessionId: string };
    const events = await readNdjson<{ type: string }>(await fetch(`${url}/v1/session/${sessionId}/stream?startIndex=0`), (event) => event.type === "turn.completed");
    expect(events.at(-1)?.type).toBe("turn.completed");
    await stopServing(servers.at(-1)!);
  }, 300_000);

  it("serves bot-examples/pr-approver from the package (cold start figure)", async () => {
    cpSync(path.join(KIT_DIR, "bot-examples", "pr-approver"), path.join(project, "pr-approver"), { recursive: true });
    const figures: string[] = [];
    for (const [label, bin] of [
      ["packed kit (dist/)", path.join(project, "node_modules", "@cursor", "bdk", "bin", "bdk.mjs")],
      ["checkout (sources through tsx)", path.join(KIT_DIR, "bin", "bdk.mjs")],
    ]) {
      const port = await freePort();
      const seconds = await startServing(process.execPath, [bin, "serve", "--dir", "pr-approver", "--port", String(port), "--state-root", path.join(work, `cold-${port}`)], `http://127.0.0.1:${port}`);
      figures.push(`${label} ${seconds.toFixed(2)} s`);
      await stopServing(servers.at(-1)!);
    }
    console.log(`bdk serve cold start → first /v1/info 200 (pr-approver): ${figures.join(", ")}`);
  }, 300_000);

  it("an execution: agent tool's workspace script runs on the package's compiled modules", async () => {
    writeFileSync(
      path.join(project, "bot", "tools", "echo_twice.ts"),
      [
        'import { defineTool } from "@cursor/bdk/tools";',
        'import { z } from "zod";',
        'export default defineTool({ description: "Echoes a word twice.", execution: "agent", inputSchema: z.object({ word: z.string() }), async execute({ word }) { return word + word; } });',
        "",
      ].join("\n"),
    );
    const stateRoot = path.join(work, "state-agent-tool");
    const turn = await npx(["bdk", "run", "--json", "--state-root", stateRoot, "--message", 'echo_twice {"word": "ab"}']);
    expect(turn.code, turn.stderr).toBe(0);
    const { sessionId, toolCalls } = JSON.parse(turn.stdout) as { sessionId: string; toolCalls: unknown[] };
    expect(toolCalls).toEqual([expect.objectContaining({ name: "echo_twice", output: "abab", isError: false })]);
    const workspace = path.join(stateRoot, "workspaces", sessionId);
    const script = await run(process.execPath, [path.join(".bdk", "tools", "echo_twice.mjs"), '{"word":"cd"}'], { cwd: workspace });
    expect(JSON.parse(script.stdout)).toEqual({ ok: true, result: "cdcd" });
  }, 300_000);
});
