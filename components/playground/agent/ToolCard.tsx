"use client";
import { useState } from "react";
import type { ToolInfo } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { JsonBlock } from "../../ui/JsonBlock.tsx";
import { cardClass } from "../../ui/styles.ts";
import { SchemaFields } from "./SchemaFields.tsx";

/** A discovered tool: where it runs, its effect, whether it needs approval, its input. */
export function ToolCard({ tool }: { tool: ToolInfo }) {
  const [showSchema, setShowSchema] = useState(false);
  const approval = tool.needsApproval;
  return (
    <li className={`${cardClass} space-y-2 p-4`} data-testid="agent-tool">
      <div className="flex flex-wrap items-center gap-1.5">
        <span className="mr-1 font-mono text-sm font-semibold">{tool.name}</span>
        {tool.execution ? <Badge tone={tool.execution === "agent" ? "violet" : "sky"}>{tool.execution}</Badge> : null}
        {tool.effect ? (
          <Badge tone={tool.effect === "write" ? "amber" : tool.effect === "read" ? "green" : "neutral"}>
            {tool.effectDefault ? `${tool.effect} (default)` : tool.effect}
          </Badge>
        ) : null}
        {approval ? <Badge tone="red">{approval === true ? "needs approval" : `approval: ${String(approval)}`}</Badge> : null}
        {tool.source && tool.source !== "authored" ? <Badge>{tool.source}</Badge> : null}
      </div>
      {tool.description ? <p className="text-sm whitespace-pre-line text-zinc-600 dark:text-zinc-400">{tool.description.trim()}</p> : null}
      {tool.inputSchema ? (
        <div className="space-y-2">
          <SchemaFields schema={tool.inputSchema} />
          <button type="button" className="text-xs text-indigo-600 hover:underline dark:text-indigo-400" aria-expanded={showSchema} onClick={() => setShowSchema(!showSchema)}>
            {showSchema ? "Hide" : "Show"} JSON Schema
          </button>
          {showSchema ? <JsonBlock value={tool.inputSchema} /> : null}
        </div>
      ) : null}
    </li>
  );
}
