"use client";
import { useState } from "react";
import type { ToolInfo } from "../../api/types.ts";
import { Badge } from "../../ui/Badge.tsx";
import { JsonBlock } from "../../ui/JsonBlock.tsx";
import { cardClass } from "../../ui/styles.ts";
import { SchemaFields } from "./SchemaFields.tsx";

/** A tool the model is offered: where it comes from and runs, its effect, whether it needs approval, its input. */
export function ToolCard({ tool }: { tool: ToolInfo }) {
  const [showSchema, setShowSchema] = useState(false);
  const approval = tool.needsApproval;
  return (
    <li className={`${cardClass} space-y-2 p-4`} data-testid="agent-tool" data-tool={tool.name} data-source={tool.source}>
      <div className="flex flex-wrap items-center gap-1.5">
        <span className="mr-1 font-mono text-sm font-semibold">{tool.name}</span>
        {tool.execution ? <Badge tone={tool.execution === "agent" ? "special" : "info"}>{tool.execution}</Badge> : null}
        {tool.effect ? (
          <Badge tone={tool.effect === "write" ? "warning" : tool.effect === "read" ? "success" : "neutral"}>
            {tool.effectDefault ? `${tool.effect} (default)` : tool.effect}
          </Badge>
        ) : null}
        {approval ? <Badge tone="danger">{approval === true ? "needs approval" : `approval: ${String(approval)}`}</Badge> : null}
        {tool.source ? <Badge tone="accent">{tool.source}</Badge> : null}
        {tool.stubbed ? <Badge tone="warning">stubbed</Badge> : null}
      </div>
      {tool.description ? <p className="text-sm whitespace-pre-line text-fg-muted">{tool.description.trim()}</p> : null}
      {tool.inputSchema ? (
        <div className="space-y-2">
          <SchemaFields schema={tool.inputSchema} />
          <button type="button" className="text-xs text-accent-fg hover:underline" aria-expanded={showSchema} onClick={() => setShowSchema(!showSchema)}>
            {showSchema ? "Hide" : "Show"} JSON Schema
          </button>
          {showSchema ? <JsonBlock value={tool.inputSchema} /> : null}
        </div>
      ) : null}
    </li>
  );
}
