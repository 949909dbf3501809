/** `bdk chat` with its input piped in: every line is a turn, in order, and the end of the input ends the chat. */
import path from "node:path";
import { expect, it } from "vitest";
import { BIN, KIT_DIR } from "./support/bdk-server.ts";
import { runProcess } from "./support/run-process.ts";

it("answers each piped line in turn and exits 0 at the end of the input", async () => {
  const result = await runProcess(process.execPath, [BIN, "chat", "--dir", path.join(KIT_DIR, "bot-examples", "hello")], {
    env: { BDK_MODEL: "scripted" },
    input: 'Hello there\nread {"path":"missing.txt"}\n',
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("introducing myself");
  expect(result.stdout).toContain("read failed:");
  expect(result.stdout.match(/\(session ses_/g)).toHaveLength(2);
});
