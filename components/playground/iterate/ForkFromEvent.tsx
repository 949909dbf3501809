"use client";
import { useState } from "react";
import type { AnyBdkEvent } from "../../api/types.ts";
import { Button } from "../../ui/Button.tsx";
import { ForkDialog, type ForkTarget } from "./ForkDialog.tsx";
import { canForkAfter } from "../../../server/protocol/fork-points.ts";
import { stubsAfterCut } from "./fork-form.ts";

/** The fork dialog's target for a cut right after the event at `afterIndex`, with the stubs that cut can use. */
export function eventForkTarget(sessionId: string, events: readonly AnyBdkEvent[], afterIndex: number): ForkTarget {
  const { message, stubs, callStubs } = stubsAfterCut(events, afterIndex);
  const eventType = events.find((event) => event.index === afterIndex)?.type;
  return { sessionId, cut: { afterIndex }, message, mode: "event", eventType, stubs, callStubs };
}

/** *Fork from here* on an event of the Raw or Trace tab: shown where a fork can be cut (inside a turn, before its final answer), opens the fork dialog cut after it. */
export function ForkFromEvent({ sessionId, events, afterIndex }: { sessionId: string; events: readonly AnyBdkEvent[]; afterIndex: number }) {
  const [target, setTarget] = useState<ForkTarget | null>(null);
  if (!canForkAfter(events, afterIndex)) return null;
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        className="h-6 px-1.5"
        onClick={() => setTarget(eventForkTarget(sessionId, events, afterIndex))}
        title={`A new session with this one's events up to #${afterIndex}, picking its turn up from there`}
        data-testid="fork-from-event"
      >
        Fork from here
      </Button>
      {target ? <ForkDialog target={target} onClose={() => setTarget(null)} /> : null}
    </>
  );
}
