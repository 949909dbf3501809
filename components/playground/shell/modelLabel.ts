import type { AgentInfo } from "../../api/types.ts";

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

export function isScripted(info: AgentInfo | undefined): boolean {
  return describeModel(info).id === "scripted";
}
