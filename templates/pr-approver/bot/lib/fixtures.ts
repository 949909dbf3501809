/** Canned pull requests so the bot runs offline; replace findPullRequest with a GitHub API call. */
export interface PullRequest {
  prUrl: string;
  title: string;
  author: string;
  draft: boolean;
  complexity: "trivial" | "moderate" | "large";
  checks: "passing" | "failing" | "pending";
  files: { path: string; additions: number; deletions: number }[];
}

const PULL_REQUESTS: PullRequest[] = [
  {
    prUrl: "https://github.com/acme/checkout/pull/42",
    title: "Fix typo in README",
    author: "octocat",
    draft: false,
    complexity: "trivial",
    checks: "passing",
    files: [{ path: "README.md", additions: 2, deletions: 1 }],
  },
  {
    prUrl: "https://github.com/acme/checkout/pull/43",
    title: "WIP: retry failed payments",
    author: "hubot",
    draft: true,
    complexity: "moderate",
    checks: "pending",
    files: [
      { path: "src/payments/retry.ts", additions: 88, deletions: 4 },
      { path: "src/payments/retry.test.ts", additions: 61, deletions: 0 },
    ],
  },
  {
    prUrl: "https://github.com/acme/payments/pull/7",
    title: "Migrate the ledger to the new schema",
    author: "monalisa",
    draft: false,
    complexity: "large",
    checks: "failing",
    files: [
      { path: "db/migrations/0042_ledger.sql", additions: 240, deletions: 12 },
      { path: "src/ledger/index.ts", additions: 410, deletions: 380 },
    ],
  },
];

export function findPullRequest(prUrl: string): PullRequest {
  const normalized = prUrl.replace(/\/+$/, "");
  const pr = PULL_REQUESTS.find((candidate) => candidate.prUrl === normalized);
  if (!pr) throw new Error(`No such pull request: ${prUrl}. Known: ${PULL_REQUESTS.map((candidate) => candidate.prUrl).join(", ")}`);
  return pr;
}
