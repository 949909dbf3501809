import { z } from "zod";
import type { ToolContext } from "../../server/authoring/tools.ts";
import { loadTool } from "../../server/load/tool.ts";
import type { LoadedTool, ResolvedAgent } from "../../server/load/types.ts";

/** A LoadedTool from a zod schema, wrapped by the loader's own code, for tests that do not need files. */
export function zodTool<S extends z.ZodObject>(
  name: string,
  schema: S,
  execute: (input: z.output<S>, ctx: ToolContext) => unknown,
  extra: Partial<LoadedTool> = {},
): LoadedTool {
  return { ...loadTool(name, { description: `${name} tool`, inputSchema: schema, execute }), ...extra };
}

export function testAgent(tools: LoadedTool[], overrides: Partial<ResolvedAgent> = {}): ResolvedAgent {
  return {
    name: "test-agent",
    rootDir: "/nonexistent",
    botDir: "/nonexistent/bot",
    version: "v-test",
    config: {},
    instructions: "You are a test agent.",
    tools,
    skills: [],
    subagents: [],
    channels: new Map(),
    schedules: new Map(),
    reminders: new Map(),
    hooks: new Map(),
    connections: new Map(),
    ...overrides,
  };
}
