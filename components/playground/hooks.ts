"use client";
import { useQuery } from "@tanstack/react-query";
import { isMissingRoute } from "../api/errors.ts";
import { useApi } from "./api-context.tsx";

/** Shared queries (one cache entry per key, whichever tab asks). */
export function useAgentInfo() {
  const api = useApi();
  return useQuery({ queryKey: ["info", api.base], queryFn: ({ signal }) => api.info(signal), staleTime: 30_000 });
}

/**
 * What the model is offered on a turn. Under `bdk dev` it is asked again
 * every few seconds, so a hot reload shows without a page reload.
 */
export function useModelOffer(sessionId: string | undefined, dev: boolean | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ["model-offer", api.base, sessionId ?? ""],
    queryFn: ({ signal }) => api.modelOffer(sessionId, signal),
    refetchInterval: dev ? 2000 : false,
    placeholderData: (previous) => previous,
  });
}

/** True under `--dev` / `bdk dev` (its dev routes answer), false otherwise, undefined while asking. */
export function useDevMode(): boolean | undefined {
  const api = useApi();
  const probe = useQuery({
    queryKey: ["dev-mode", api.base],
    queryFn: async ({ signal }) => {
      try {
        await api.devSchedules(signal);
        return true;
      } catch (error) {
        if (isMissingRoute(error)) return false;
        throw error;
      }
    },
    staleTime: Infinity,
  });
  return probe.data;
}

export function useApprovals(poll = true) {
  const api = useApi();
  return useQuery({
    queryKey: ["approvals", api.base],
    queryFn: ({ signal }) => api.approvals(signal),
    refetchInterval: poll ? 3000 : false,
  });
}

export function useSessions(q: string, limit: number, poll = true) {
  const api = useApi();
  return useQuery({
    queryKey: ["sessions", api.base, q, limit],
    queryFn: ({ signal }) => api.sessions({ q: q || undefined, limit }, signal),
    refetchInterval: poll ? 3000 : false,
    placeholderData: (previous) => previous,
  });
}

export function useEvalRuns(poll: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: ["eval-runs", api.base],
    queryFn: ({ signal }) => api.evalRuns(signal),
    refetchInterval: poll ? 2500 : false,
  });
}
