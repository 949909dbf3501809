/**
 * The quickstart path, timed end to end on this machine, offline: `bdk init`
 * (default template, real `npm install`), `bdk dev` in the new project, the
 * playground opened in Chromium, a message sent, the first streamed token
 * painted. The model is `scripted` (no credential), as `bdk dev` falls back.
 * Run: npx tsx bench/getting-started/run.ts
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../../e2e/browser.ts";
import { freePort } from "../../e2e/server-process.ts";

const KIT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const project = path.join(mkdtempSync(path.join(tmpdir(), "bdk-quickstart-")), "pr-reviewer");
const env = { ...process.env, NO_COLOR: "1", XAI_API_KEY: "", BDK_MODEL: "" };

const started = performance.now();
const init = spawnSync(process.execPath, [path.join(KIT_DIR, "bin", "bdk.mjs"), "init", project], { env, encoding: "utf8" });
if (init.status !== 0) throw new Error(`bdk init failed:\n${init.stdout}\n${init.stderr}`);
const initMs = performance.now() - started;

const port = await freePort();
const dev: ChildProcess = spawn("npx", ["bdk", "dev", "--port", String(port)], {
  cwd: project,
  env,
  detached: true,
  stdio: "ignore",
});
const url = `http://127.0.0.1:${port}`;
try {
  for (;;) {
    const ready = await fetch(`${url}/v1/info`).then((response) => response.ok).catch(() => false);
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const serveMs = performance.now() - started - initMs;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/playground`);
    const composer = page.getByRole("combobox", { name: "Message" });
    await composer.fill("Inspect https://github.com/acme/checkout/pull/42");
    await composer.press("Enter");
    await page.locator("[data-testid=assistant-text]").first().waitFor();
    const totalMs = performance.now() - started;
    console.log(
      `bdk init → streamed reply in the playground: ${(totalMs / 1000).toFixed(1)} s (init + npm install ${(initMs / 1000).toFixed(1)} s, bdk dev ready ${(serveMs / 1000).toFixed(1)} s, playground to first token ${((totalMs - initMs - serveMs) / 1000).toFixed(1)} s)`,
    );
  } finally {
    await browser.close();
  }
} finally {
  if (dev.pid) process.kill(-dev.pid, "SIGTERM");
}
