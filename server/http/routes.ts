import { type AgentRouteHandler, sessionRoutes } from "./agent-routes.ts";
import { artifactRoutes } from "./artifact-routes.ts";
import { devRoutes } from "./dev-routes.ts";
import { evalRoutes } from "./eval-routes.ts";
import { forkRoutes } from "./fork-routes.ts";
import { memoryRoutes } from "./memory-routes.ts";
import { mcpRoutes } from "./mcp-routes.ts";

/**
 * Every named `/v1` route of an agent. Each capability keeps its routes in
 * its own module; app/ route files refer to them by name.
 */
export const agentRoutes = {
  ...sessionRoutes,
  ...forkRoutes,
  ...evalRoutes,
  ...devRoutes,
  ...mcpRoutes,
  ...artifactRoutes,
  ...memoryRoutes,
} satisfies Record<string, AgentRouteHandler>;

export type AgentRouteName = keyof typeof agentRoutes;
