import { messageOf } from "../protocol/errors.ts";
import type { ModelSetting } from "../authoring/types.ts";
import { resolveModelChain } from "./resolve.ts";
import type { ResolveModelOptions } from "./types.ts";

/**
 * The model a turn would use right now (after `--model`, `BDK_MODEL`,
 * fallbacks and the dev scripted fallback), or why none can run. `info` and
 * the playground header show it next to the configured model.
 */
export function effectiveModel(
  config: { model?: ModelSetting; modelFallbacks?: ModelSetting[] },
  options: Omit<ResolveModelOptions, "agentName"> & { agentName?: string },
): { effective: string | null; unavailable?: string } {
  try {
    const [first] = resolveModelChain(config.model, config.modelFallbacks ?? [], { agentName: "", ...options });
    return { effective: first?.id ?? null };
  } catch (error) {
    return { effective: null, unavailable: messageOf(error) };
  }
}
