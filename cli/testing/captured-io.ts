/** A CommandIO whose output the test reads back, for running commands in-process. */
import { PassThrough } from "node:stream";
import type { CommandIO } from "../command.ts";

export function capturedIO(cwd: string): { io: CommandIO; stdout(): string; stderr(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => (out += chunk));
  stderr.on("data", (chunk) => (err += chunk));
  return { io: { stdout, stderr, env: { ...process.env, NO_COLOR: "1" }, cwd }, stdout: () => out, stderr: () => err };
}
