/** Canned service health so the bot runs offline; replace with your monitoring API. */
export interface ServiceHealth {
  service: string;
  status: "healthy" | "degraded" | "down";
  errorRate: number;
  p95Ms: number;
  lastDeploy: string;
}

const SERVICES: ServiceHealth[] = [
  { service: "checkout", status: "degraded", errorRate: 0.042, p95Ms: 2300, lastDeploy: "2025-01-14T09:12:00Z" },
  { service: "search", status: "healthy", errorRate: 0.001, p95Ms: 180, lastDeploy: "2025-01-13T16:40:00Z" },
];

export function findService(name: string): ServiceHealth | undefined {
  return SERVICES.find((candidate) => candidate.service === name.trim().toLowerCase());
}
