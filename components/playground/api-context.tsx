"use client";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { createApi, type Api } from "../api/api.ts";

const ApiContext = createContext<Api | null>(null);

export function ApiProvider({ base, children }: { base: string; children: ReactNode }) {
  const api = useMemo(() => createApi(base), [base]);
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (!api) throw new Error("useApi outside ApiProvider");
  return api;
}
