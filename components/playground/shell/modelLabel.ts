import type { AgentInfo, AnyBdkEvent } from "../../api/types.ts";

/** The model id and its params as short strings, whatever shape `info.model` has. */
export function describeModel(info: AgentInfo | undefined): { id: string | undefined; params: string[] } {
  const model = info?.model;
  if (!model) return { id: undefined, params: [] };
  if (typeof model === "string") return { id: model, params: [] };
  const params = Array.isArray(model.params)
    ? model.params.map((param) => `${param.id ?? "?"}=${String(param.value ?? "")}`)
    : model.params && typeof model.params === "object"
      ? Object.entries(model.params).map(([key, value]) => `${key}=${String(value)}`)
      : [];
  return { id: model.id, params };
}

/**
 * The model turns actually run on. `info` reports the configured model;
 * BDK_MODEL or the dev fallback can replace it, which `turn.started` reveals.
 */
export function modelInUse(info: AgentInfo | undefined, events: readonly AnyBdkEvent[] | undefined): string | undefined {
  for (let i = (events?.length ?? 0) - 1; i >= 0; i--) {
    const event = events![i];
    if (event.type === "turn.started" && event.data.model) return event.data.model;
  }
  const model = info?.model;
  if (model && typeof model === "object") {
    for (const key of ["effective", "effectiveId", "resolved", "inUse"]) {
      const value = model[key];
      if (typeof value === "string") return value;
      if (value && typeof value === "object" && typeof (value as { id?: unknown }).id === "string") return (value as { id: string }).id;
    }
  }
  for (const key of ["effectiveModel", "modelInUse"]) {
    const value = info?.[key];
    if (typeof value === "string") return value;
  }
  return describeModel(info).id;
}
