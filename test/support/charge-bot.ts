/**
 * A project whose one tool, `charge_card` (a write), leaves a line in
 * `CHARGE_LOG` (its side effect) and then never returns: a server killed
 * while it runs leaves a call that took effect and never finished. With
 * `approved`, the call waits for a person's approval first and returns once
 * it has charged: a turn parked on a node that then goes away.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { tempProject } from "../../server/load/testing/temp-project.ts";

export interface ChargeBot {
  dir: string;
  /** The path to give the server as `CHARGE_LOG`. */
  chargeLog: string;
  /** What the tool has charged so far, a line per run. */
  charges(): string;
  /** Resolves once the tool has taken its effect (it then hangs until the kill). */
  chargeTaken(): Promise<void>;
}

export function chargeBot(name: string, options: { approved?: boolean } = {}): ChargeBot {
  const dir = tempProject({
    "package.json": `{ "name": "${name}", "type": "module" }`,
    "bot/instructions.md": "You take payments.",
    "bot/tools/charge_card.ts": `import { appendFileSync } from "node:fs";
import { defineTool } from "bdk/tools";
import { z } from "zod";
export default defineTool({
  description: "Charge the card.",
  effect: "write",${options.approved ? "\n  needsApproval: true," : ""}
  inputSchema: z.object({ amount: z.number() }),
  execute: ({ amount }) => {
    appendFileSync(process.env.CHARGE_LOG!, "charged " + amount + "\\n");
    return ${options.approved ? '{ charged: amount }' : "new Promise(() => {})"};
  },
});
`,
  });
  const chargeLog = path.join(dir, "charges.log");
  const charges = () => (existsSync(chargeLog) ? readFileSync(chargeLog, "utf8") : "");
  return {
    dir,
    chargeLog,
    charges,
    async chargeTaken() {
      while (!charges()) await new Promise((resolve) => setTimeout(resolve, 50));
    },
  };
}
