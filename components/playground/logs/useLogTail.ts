"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { LogLine } from "../../api/types.ts";
import { useApi } from "../api-context.tsx";
import { keepPerLevel } from "./log-lines.ts";

/** Kept per level, so a flood of debug lines never pushes out a warning. */
const MAX_LINES_PER_LEVEL = 2000;

const keyOf = (line: LogLine) => (line.id !== undefined ? `#${line.id}` : `${line.at}|${line.level}|${line.msg}`);

/**
 * Polls GET /v1/logs?since=<last seen> every 2 s and keeps the recent lines of each level.
 * `since` is inclusive on the server, so lines are de-duplicated by id.
 */
export function useLogTail() {
  const api = useApi();
  const since = useRef<string | undefined>(undefined);
  const seen = useRef(new Set<string>());
  const [lines, setLines] = useState<LogLine[]>([]);

  const query = useQuery({
    queryKey: ["logs", api.base],
    queryFn: async ({ signal }) => (await api.logs(since.current, signal)).logs ?? [],
    refetchInterval: 2000,
    staleTime: 0,
    gcTime: 0,
  });

  useEffect(() => {
    const batch = query.data;
    if (!batch?.length) return;
    const fresh = batch.filter((line) => {
      const key = keyOf(line);
      if (seen.current.has(key)) return false;
      seen.current.add(key);
      return true;
    });
    const newest = batch.reduce((max, line) => (line.at > max ? line.at : max), since.current ?? "");
    if (newest) since.current = newest;
    if (fresh.length) setLines((current) => keepPerLevel(current, fresh, MAX_LINES_PER_LEVEL));
  }, [query.data, query.dataUpdatedAt]);

  return { lines, query };
}
