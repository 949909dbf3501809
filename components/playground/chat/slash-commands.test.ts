import Ajv from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { AgentInfo } from "../../api/types.ts";
import { commandBody, commandUsage, parseSlash, slashCommandsFromInfo } from "./slash-commands.ts";

const bodySchema = {
  type: "object",
  properties: { count: { type: "number" }, prUrl: { type: "string", format: "uri" }, note: { type: "string" } },
  required: ["count", "prUrl"],
};

const info: AgentInfo = {
  channels: [
    { id: "driver", routes: [{ method: "POST", path: "/drive", description: "Drive a PR", bodySchema }, { method: "POST", path: "/runs/:id" }] },
    { id: "slack", pack: "slack", routes: [{ method: "POST", path: "/v1/channels/slack", description: "slack webhook" }] },
    { id: "github", pack: "github", routes: [{ method: "POST", path: "/v1/channels/github", description: "github webhook" }] },
    { id: "support", pack: "slack", routes: [{ method: "POST", path: "/v1/channels/support", description: "slack webhook" }] },
    { id: "a", routes: [{ method: "POST", path: "/ping" }] },
    { id: "b", routes: [{ method: "POST", path: "/ping" }] },
  ],
};

describe("slash commands", () => {
  it("turns parameter-free custom routes into commands, without Slack and GitHub packs whatever their file name", () => {
    const names = slashCommandsFromInfo(info).map((command) => command.name);
    expect(names).toEqual(["help", "drive", "a-ping", "b-ping"]);
  });

  it("fills the first required string field and keeps the schema's other required fields", () => {
    const drive = slashCommandsFromInfo(info).find((command) => command.name === "drive")!;
    expect(drive.route).toMatchObject({ channelId: "driver", method: "POST", path: "/drive", field: "prUrl" });
    expect(commandBody(drive, "https://github.com/acme/checkout/pull/42")).toEqual({ count: 0, prUrl: "https://github.com/acme/checkout/pull/42" });
    expect(commandBody(drive, '{"prUrl":"x","count":2}')).toEqual({ prUrl: "x", count: 2 });
  });

  it("sends a body the route's schema accepts, its minimums met, when only the hinted field is typed", () => {
    const strict = {
      type: "object",
      properties: {
        ticket: { type: "string", minLength: 3 },
        reason: { type: "string", minLength: 10 },
        severity: { enum: ["sev1", "sev2"] },
        assignees: { type: "array", items: { type: "string", minLength: 2 }, minItems: 1 },
        meta: { type: "object", properties: { source: { type: "string" }, attempts: { type: "integer", minimum: 1 } }, required: ["source", "attempts"] },
      },
      required: ["ticket", "reason", "severity", "assignees", "meta"],
      additionalProperties: false,
    };
    const [, escalate] = slashCommandsFromInfo({ channels: [{ id: "ops", routes: [{ method: "POST", path: "/escalate", bodySchema: strict }] }] });
    expect(commandUsage(escalate)).toBe("/escalate <ticket>");
    const body = commandBody(escalate, "OPS-42");
    const validate = addFormats(new Ajv({ strict: false })).compile(strict);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body).toMatchObject({ ticket: "OPS-42", severity: "sev1", meta: { attempts: 1 } });
  });

  it("parses the command name and its argument", () => {
    expect(parseSlash("/drive  https://x/y ")).toEqual({ name: "drive", rest: "https://x/y" });
    expect(parseSlash("/help")).toEqual({ name: "help", rest: "" });
    expect(parseSlash("/etc/hosts is a file")).toBeUndefined();
    expect(parseSlash("hello")).toBeUndefined();
  });
});

describe("routes without a body schema", () => {
  it("send the text as { message }", () => {
    const [, ping] = slashCommandsFromInfo({ channels: [{ id: "hook", routes: [{ method: "POST", path: "/v1/channels/hook/ping" }] }] });
    expect(ping.name).toBe("ping");
    expect(commandBody(ping, "hello")).toEqual({ message: "hello" });
  });
});
