/** Canned work items so the bot runs offline; replace with your tracker's API. */
export interface WorkItem {
  id: string;
  title: string;
  owner: string;
  daysSinceUpdate: number;
  stale: boolean;
}

const ITEMS = [
  { id: "OPS-12", title: "Rotate the staging database password", owner: "ana", updatedDaysAgo: 5 },
  { id: "OPS-15", title: "Upgrade the load balancer certificates", owner: "ben", updatedDaysAgo: 1 },
  { id: "WEB-88", title: "Fix the flaky checkout test", owner: "chen", updatedDaysAgo: 3 },
];

export function openItems(_now: Date): WorkItem[] {
  return ITEMS.map(({ updatedDaysAgo, ...item }) => ({ ...item, daysSinceUpdate: updatedDaysAgo, stale: updatedDaysAgo >= 3 }));
}
