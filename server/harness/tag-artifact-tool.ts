import { z } from "zod";
import type { ArtifactsDefinition } from "../authoring/artifacts.ts";
import type { LoadedTool } from "../load/types.ts";

const input = z.object({
  kind: z.string(),
  key: z.string().min(1).describe("Stable identity within the kind: tagging the same kind + key updates the record."),
  title: z.string().min(1),
  data: z.unknown().optional().describe("Structured data, checked against the kind's schema."),
  contents: z.string().optional().describe("Text contents, downloadable later."),
});

/** `agentTool: true` in artifacts.ts: the model may tag artifacts of the declared kinds. */
export function createTagArtifactTool(registry: ArtifactsDefinition): LoadedTool {
  const kinds = Object.entries(registry.kinds)
    .map(([kind, spec]) => `- ${kind}: ${spec.description}`)
    .join("\n");
  return {
    name: "tag_artifact",
    description: `Record a durable artifact of this session. Kinds:\n${kinds}`,
    inputJsonSchema: z.toJSONSchema(input) as Record<string, unknown>,
    parseInput(raw) {
      const parsed = input.safeParse(raw);
      if (parsed.success) return { ok: true, value: parsed.data };
      return { ok: false, message: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
    },
    async execute(raw, ctx) {
      return ctx.artifacts.tag(raw as z.output<typeof input>);
    },
    execution: "server",
    source: "builtin",
    effect: () => "write",
    effectLabel: "write",
    needsApproval: async () => false,
    needsApprovalLabel: false,
  };
}
