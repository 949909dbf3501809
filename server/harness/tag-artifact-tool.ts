import { z } from "zod";
import type { ArtifactsDefinition } from "../authoring/artifacts.ts";
import type { LoadedTool } from "../load/types.ts";
import { builtinTool } from "./builtin-tools/define.ts";

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
  return builtinTool(
    "tag_artifact",
    `Record a durable artifact of this session. Kinds:\n${kinds}`,
    input,
    (artifact, ctx) => ctx.artifacts.tag(artifact),
    { effect: "write", source: "artifacts" },
  );
}
