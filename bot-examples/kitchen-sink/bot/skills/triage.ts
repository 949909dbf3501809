import { prompt } from "bdk";
import { defineSkill } from "bdk/skills";

export default defineSkill({
  description: "Triage an incoming support ticket: severity, owner, next step.",
  markdown: prompt`
    # Ticket triage

    1. Read the ticket and find the order it mentions (use lookup_order).
    2. Pick a severity from severity.md.
    3. Reply with: severity, owner team, next step.
  `,
  files: {
    "severity.md": prompt`
      - sev1: checkout is down for everyone
      - sev2: one customer cannot pay or receive an order
      - sev3: everything else
    `,
  },
});
