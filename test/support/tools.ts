import { z } from "zod";
import type { ToolContext } from "../../server/authoring/tools.ts";
import type { LoadedTool, ResolvedAgent } from "../../server/load/types.ts";

/** A LoadedTool from a zod schema, built the way the loader does, for tests that do not need files. */
export function zodTool<S extends z.ZodObject>(
  name: string,
  schema: S,
  execute: (input: z.output<S>, ctx: ToolContext) => unknown,
  extra: Partial<LoadedTool> = {},
): LoadedTool {
  return {
    name,
    description: `${name} tool`,
    inputJsonSchema: z.toJSONSchema(schema) as Record<string, unknown>,
    parseInput(input) {
      const parsed = schema.safeParse(input);
      if (parsed.success) return { ok: true, value: parsed.data };
      return { ok: false, message: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
    },
    execute: async (input, ctx) => execute(input as z.output<S>, ctx),
    execution: "server",
    source: "authored",
    effect: () => "read",
    effectLabel: "read",
    needsApproval: async () => false,
    needsApprovalLabel: false,
    ...extra,
  };
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
