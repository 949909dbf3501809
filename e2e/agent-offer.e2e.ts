/**
 * The Agent tab shows what the model is offered, and Compare diffs eval
 * cases (a `bdk dev` of a copy of kitchen-sink, scripted model): the tab's
 * tools are the tools the model listed in its own reply, a saved bot file
 * brings a notice naming the new version, a chat saved as an eval case runs
 * from the Evals tab at once, an eval file written while the tab is open shows
 * in it, an eval edited between two runs shows its assertion that flipped, and
 * a case the newer run did not select compares as "not run".
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { type BdkClient, bdkClient } from "./browser.ts";
import { expect, openTab, sendMessage, test } from "./harness.ts";
import { KIT_DIR } from "./main-server.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../docs/screenshots");

let project: string;
let server: ServerProcess;
let client: BdkClient;

test.beforeAll(async ({ browser }) => {
  project = mkdtempSync(path.join(tmpdir(), "bdk-e2e-offer-"));
  cpSync(path.join(KIT_DIR, "bot-examples/kitchen-sink"), project, { recursive: true });
  symlinkSync(path.join(KIT_DIR, "node_modules"), path.join(project, "node_modules"), "dir");
  server = await startServer(KIT_DIR, project, path.join(import.meta.dirname, ".work"), ["--dev"], "offer-dev");
  client = bdkClient(server, browser);
});

test.afterAll(async () => {
  await server?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Starts a session over HTTP and resolves with its first reply once the turn completed. */
async function replyTo(message: string): Promise<{ sessionId: string; reply: string }> {
  const { sessionId } = await client.api<{ sessionId: string }>("/v1/session", { method: "POST", body: JSON.stringify({ message }) });
  await expect
    .poll(async () => (await client.api<{ session: { status: string } }>(`/v1/session/${sessionId}`)).session.status, { message: "the turn settled" })
    .toBe("waiting");
  const res = await fetch(`${server.baseUrl}/v1/session/${sessionId}/events`, { headers: { Authorization: `Bearer ${server.token}` } });
  const events = (await res.text())
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; data: { result?: string } });
  return { sessionId, reply: events.find((event) => event.type === "turn.completed")?.data.result ?? "" };
}

const toolNames = (page: Page) => page.getByTestId("agent-tool").evaluateAll((cards) => cards.map((card) => card.getAttribute("data-tool")));

test("the Agent tab lists the tools the model was given, with their sources, and the prompt part by part", async () => {
  // The scripted model introduces itself with the names of the tools it received.
  const { sessionId, reply } = await replyTo("hello");
  const given = /My tools: (.*?)\. Mention/.exec(reply)?.[1]?.split(", ");
  expect(given, "the scripted model listed its tools").toBeTruthy();

  const { page, context } = await client.newPage();
  try {
    await page.goto(`/playground?sessionId=${sessionId}&tab=agent`);
    await expect(page.getByTestId("agent-tool"), "one card per tool the model received").toHaveCount(given!.length);
    expect(await toolNames(page), "in the model's order").toEqual(given);
    for (const [tool, source] of [
      ["lookup_order", "bot"],
      ["read", "built-in"],
      ["reminders_create", "reminders"],
      ["tag_artifact", "artifacts"],
      ["task", "subagents"],
    ]) {
      await expect(page.locator(`[data-testid=agent-tool][data-tool=${tool}]`), `${tool} says where it comes from`).toHaveAttribute("data-source", source);
    }
    await expect(page.locator("[data-testid=agent-tool][data-source='mcp · warehouse']").first(), "MCP tools name their connection").toBeVisible();
    await expect(page.locator("[data-testid=agent-tool][data-source=extension]").first(), "extension tools are marked").toBeVisible();
    const parts = page.getByTestId("prompt-part");
    await expect(parts.first()).toHaveAttribute("data-source", "instructions");
    await expect(page.locator("[data-testid=prompt-part][data-source=skills]"), "the skills catalogue is marked").toContainText("skills catalogue");
    await expect(page.getByRole("heading", { name: /Reminders/ }), "dev lists reminders").toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, "agent-offer-1280.png") });
    await page.getByRole("heading", { name: /Tools the model is offered/ }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, "agent-offer-tools-1280.png") });
  } finally {
    await context.close();
  }
});

test("under dev an armed reminder is listed with Fire now, which wakes its conversation; recalled memory is marked in the prompt", async () => {
  const prompt = "Re-check order A-1001 now";
  const { sessionId, reply } = await replyTo(`reminders_create ${JSON.stringify({ delay: "1h", prompt, purpose: "order_recheck" })}`);
  expect(reply, "the model armed the reminder").toContain("reminders_create");
  const { page, context } = await client.newPage();
  try {
    // A new session's prompt recalls this principal's earlier conversations (a session's own notes are in its history instead).
    await page.goto("/playground?tab=agent");
    await expect(page.getByText("for a new session")).toBeVisible();
    const memory = page.locator("[data-testid=prompt-part][data-source=memory]");
    await expect(memory, "recalled memory is marked as such").toContainText("recalled memory");
    await expect(memory, "and holds what was remembered").toContainText("reminders_create");
    const reminder = page.getByTestId("reminder").filter({ hasText: "order_recheck" });
    await expect(reminder, "the armed reminder, with its timing and prompt").toContainText("after 1h");
    await expect(reminder).toContainText(prompt);
    await memory.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, "agent-memory-reminders-1280.png") });
    await reminder.getByRole("button", { name: "Fire now" }).click();
    await expect(page.getByTestId("reminder").filter({ hasText: "order_recheck" }), "a one-off reminder is gone once fired").toHaveCount(0);
    const received = async () => {
      const res = await fetch(`${server.baseUrl}/v1/session/${sessionId}/events`, { headers: { Authorization: `Bearer ${server.token}` } });
      return (await res.text()).split("\n").filter(Boolean).map((line) => JSON.parse(line) as { type: string; data: { message?: string } })
        .filter((event) => event.type === "message.received").map((event) => event.data.message);
    };
    await expect.poll(received, { message: "the reminder's prompt reached its conversation" }).toContainEqual(expect.stringContaining(prompt));
  } finally {
    await context.close();
  }
});

test("after a bot file is saved under dev, the tab updates by itself and names the new version", async () => {
  const { page, context } = await client.newPage();
  try {
    await page.goto("/playground?tab=agent");
    await expect(page.getByTestId("agent-tool").first()).toBeVisible();
    const before = await page.getByTestId("agent-tool").count();
    const oldVersion = await page.getByTestId("bot-version").textContent();

    writeFileSync(
      path.join(project, "bot/tools/shout.ts"),
      'import { defineTool } from "bdk/tools";\nimport { z } from "zod";\n\nexport default defineTool({\n  description: "Shout a text back.",\n  effect: "read",\n  inputSchema: z.object({ text: z.string() }),\n  async execute({ text }) {\n    return text.toUpperCase();\n  },\n});\n',
    );
    const notice = page.getByTestId("reload-notice");
    await expect(notice, "a notice says what changed").toContainText("added shout", { timeout: 60_000 });
    const newVersion = (await page.getByTestId("bot-version").textContent())!;
    expect(newVersion).not.toBe(oldVersion);
    await expect(notice, "the notice names the new version").toContainText(newVersion);
    await expect(page.getByTestId("agent-tool"), "the new tool is listed").toHaveCount(before + 1);
    await expect(page.locator("[data-testid=agent-tool][data-tool=shout]")).toHaveAttribute("data-source", "bot");
    await page.screenshot({ path: path.join(SCREENSHOTS, "agent-reload-notice-1280.png") });
  } finally {
    await context.close();
  }
});

const flipEval = (description: string, message: string) =>
  `import { defineEval } from "bdk/evals";\n\nexport default defineEval({\n  description: ${JSON.stringify(description)},\n  async test(t) {\n    await t.send(${JSON.stringify(message)});\n    t.succeeded();\n    t.calledTool("lookup_order");\n  },\n});\n`;

/** Saves `evals/flip.eval.ts` and waits until dev lists the case with its new description. */
async function saveFlipEval(description: string, message: string): Promise<void> {
  writeFileSync(path.join(project, "evals/flip.eval.ts"), flipEval(description, message));
  const described = async () =>
    (await client.api<{ cases: { id: string; description: string | null }[] }>("/v1/evals")).cases.find((c) => c.id === "flip")?.description;
  await expect.poll(described, { message: "dev loaded the edited eval", timeout: 60_000 }).toBe(description);
}

/** Starts a named run of these cases and waits until it finished. */
async function runCases(ids: string[], name: string): Promise<string> {
  const { runId } = await client.api<{ runId: string }>("/v1/evals/runs", { method: "POST", body: JSON.stringify({ ids, name }) });
  await expect
    .poll(async () => (await client.api<{ run: { status: string } }>(`/v1/evals/runs/${runId}`)).run.status, { message: `run ${name} finished` })
    .toBe("completed");
  return runId;
}

test("Compare opens a case into its diff: the assertion that flipped, reply text, tool calls, tokens and duration of both runs", async () => {
  await saveFlipEval("asks for an order", 'Use lookup_order with {"orderId": "A-1001"}');
  await runCases(["flip"], "calls the tool");
  // The same case now asks for nothing a tool does: its calledTool assertion fails.
  await saveFlipEval("says hello", "Just say hello.");
  const second = await runCases(["flip"], "edited message");

  const { page, context } = await client.newPage();
  try {
    await page.goto(`/playground?tab=evals&evalRunId=${second}`);
    await page.locator("li", { hasText: "calls the tool" }).getByRole("button", { name: "Compare" }).click();
    const row = page.locator("[data-testid=compare-case][data-case=flip]");
    await expect(row, "the case regressed").toContainText("regressed");
    await row.getByRole("button", { name: "Diff" }).click();
    const diff = page.getByTestId("eval-case-diff");
    const flipped = diff.locator("[data-testid=assertion-diff][data-flipped=true]");
    await expect(flipped, "one assertion flipped").toHaveCount(1);
    await expect(flipped).toContainText("lookup_order");
    await expect(flipped).toContainText("passed");
    await expect(flipped).toContainText("failed");
    await expect(diff.getByTestId("run-diff"), "the two runs' turns side by side").toContainText("lookup_order");
    await expect(diff.getByTestId("diff-reply").nth(1), "the second run's reply").toContainText("scripted model");
    await expect(diff.getByRole("row", { name: /^duration/ }), "each run's duration").toHaveText(/^duration[\d.]+ m?s[\d.]+ m?s$/);
    await expect(diff.getByText(/^scripted · /), "each run's tokens").toHaveCount(2);
    for (const tokens of await diff.getByText(/^scripted · /).all()) await expect(tokens).toHaveText(/ [1-9][\d.]*k? in \/ [1-9][\d.]*k? out · /);
    await diff.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, "eval-case-diff-1280.png"), fullPage: true });
  } finally {
    await context.close();
  }
});

test("Save as eval case writes the chat as an eval that the Evals tab lists and runs, under a run name, without a restart", async () => {
  const { page, context } = await client.newPage();
  try {
    await page.goto("/playground");
    await sendMessage(page, 'Use lookup_order with {"orderId": "A-1001"}');
    await expect(page.locator("[data-testid=tool-call][data-tool=lookup_order]")).toHaveAttribute("data-status", "done");
    await expect(page.locator('[data-testid=turn][data-status="completed"]')).toHaveCount(1);

    await page.getByRole("button", { name: "Save as eval" }).click();
    const dialog = page.getByTestId("save-eval-dialog");
    await dialog.getByTestId("save-eval-name").fill("saved/lookup");
    await page.getByTestId("save-eval-submit").click();
    await expect(dialog.getByRole("status"), "the file it wrote").toContainText("evals/saved/lookup.eval.ts");
    const source = readFileSync(path.join(project, "evals/saved/lookup.eval.ts"), "utf8");
    expect(source, "the message, replayed").toContain('await t.send("Use lookup_order with {\\"orderId\\": \\"A-1001\\"}");');
    expect(source, "the observed tool call, as an assertion").toContain('t.calledTool("lookup_order"');

    await page.getByRole("button", { name: "Open Evals" }).click();
    await expect(page.getByRole("tab", { name: /^Evals/, selected: true })).toBeVisible();
    await page.locator('[id="eval-saved/lookup"]').check();
    await page.getByRole("textbox", { name: "Run name" }).fill("saved from the chat");
    await page.getByRole("button", { name: "Run selected" }).click();
    const run = page.getByTestId("eval-run");
    await expect(run, "the run carries its name").toContainText("saved from the chat");
    await expect(run, "the saved case passes against the agent it was recorded on").toContainText("1/1 passed");
    await expect(run.getByTestId("eval-case")).toContainText("saved/lookup");
    await page.screenshot({ path: path.join(SCREENSHOTS, "save-eval-run-1280.png") });
  } finally {
    await context.close();
  }
});

test("an eval file written while the Evals tab is open shows in its list by itself", async () => {
  const { page, context } = await client.newPage();
  try {
    await page.goto("/playground");
    await openTab(page, "Evals");
    await expect(page.getByRole("checkbox").first()).toBeVisible();
    await expect(page.locator('[id="eval-handmade"]')).toHaveCount(0);
    writeFileSync(path.join(project, "evals/handmade.eval.ts"), flipEval("written by hand", "Just say hello."));
    await expect(page.locator('[id="eval-handmade"]'), "the new case, without a reload").toHaveCount(1, { timeout: 60_000 });
    await expect(page.getByText("written by hand")).toBeVisible();
  } finally {
    await context.close();
  }
});

test("Compare says 'not run' for a case the newer run did not select, not 'removed'", async () => {
  await runCases(["smoke", "orders/known"], "two cases");
  const one = await runCases(["orders/known"], "one case");
  const { page, context } = await client.newPage();
  try {
    await page.goto(`/playground?tab=evals&evalRunId=${one}`);
    await page.locator("li", { hasText: "two cases" }).getByRole("button", { name: "Compare" }).click();
    const smoke = page.locator("[data-testid=compare-case][data-case=smoke]");
    await expect(smoke).toContainText("not run");
    await expect(smoke).not.toContainText("removed");
    await expect(page.locator("[data-testid=compare-case][data-case='orders/known']")).toContainText("unchanged");
  } finally {
    await context.close();
  }
});
