/**
 * `bdk` reads the project's .env and .env.local before loading the agent
 * (the real CLI in a child process, run from the project's folder), and
 * `bdk serve` takes PORT and HOST from them when the flags are absent.
 */
import { spawn } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KIT_ROOT, removeTempProjects, tempProject, writeFiles } from "../server/load/testing/temp-project.ts";
import { BIN, freePort } from "./support/bdk-server.ts";
import { runBdk } from "./support/run-process.ts";

afterAll(removeTempProjects);

const PROJECT = {
  "bot/instructions.md": "# Env bot",
  "bot/tools/show_env.ts": [
    'import { defineTool } from "@cursor/bdk/tools";',
    "export default defineTool({",
    '  description: "Shows three variables.",',
    "  async execute() {",
    "    return { greeting: process.env.GREETING, target: process.env.TARGET, mode: process.env.MODE };",
    "  },",
    "});",
    "",
  ].join("\n"),
  ".env": "GREETING=hello from .env\nTARGET=.env\nMODE=.env\n",
  ".env.local": "TARGET=.env.local\nMODE=.env.local\n",
};

describe("the project's .env files", () => {
  it("bdk call sees .env, with .env.local winning and the environment winning over both", async () => {
    const dir = tempProject(PROJECT);
    const result = await runBdk(["call", "show_env"], { GREETING: undefined, TARGET: undefined, MODE: "from the shell" }, dir);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ isError: false, result: { greeting: "hello from .env", target: ".env.local", mode: "from the shell" } });
  });

  it("--dir names the project whose files are read", async () => {
    const dir = tempProject(PROJECT);
    const result = await runBdk(["call", "show_env", "--dir", dir], { GREETING: undefined, TARGET: undefined, MODE: undefined }, path.dirname(dir));
    expect(JSON.parse(result.stdout).result).toEqual({ greeting: "hello from .env", target: ".env.local", mode: ".env.local" });
  });

  it("with --slug in a folder of agents, the agent's own files win over the folder's", async () => {
    const folder = tempProject({ ".env": "GREETING=from the folder\nTARGET=from the folder\n" }, { nodeModules: false });
    const agentFiles = Object.fromEntries(Object.entries(PROJECT).map(([file, text]) => [`envbot/${file}`, text]));
    writeFiles(folder, { ...agentFiles, "envbot/.env": "TARGET=from the agent\n", "envbot/.env.local": "" });
    symlinkSync(path.join(KIT_ROOT, "node_modules"), path.join(folder, "node_modules"), "dir");
    const result = await runBdk(["call", "show_env", "--dir", folder, "--slug", "envbot"], { GREETING: undefined, TARGET: undefined, MODE: undefined });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout).result).toEqual({ greeting: "from the folder", target: "from the agent" });
  });

  it("bdk serve listens on PORT and HOST from .env when --port and --host are absent", async () => {
    const dir = tempProject(PROJECT);
    const port = await freePort();
    writeFileSync(path.join(dir, ".env"), `PORT=${port}\nHOST=127.0.0.1\n`);
    const child = spawn(process.execPath, [BIN, "serve", "--state-root", path.join(dir, ".state")], {
      cwd: dir,
      env: { ...process.env, PORT: undefined, HOST: undefined, BDK_MODEL: "scripted" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    try {
      let output = "";
      child.stderr.on("data", (chunk) => (output += chunk));
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk) => {
          output += chunk;
          const match = /Serving at (\S+)/.exec(output);
          if (match) resolve(match[1]);
        });
        child.once("exit", (code) => reject(new Error(`bdk serve exited ${code}: ${output}`)));
      });
      expect(url).toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`${url}/health`)).status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
  }, 120_000);

  it("a PORT that is not a port number is a usage error naming PORT", async () => {
    const dir = tempProject({ ...PROJECT, ".env": "PORT=eighty\n" });
    const result = await runBdk(["serve"], { PORT: undefined }, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PORT must be a port number (got "eighty")');
  });
});
