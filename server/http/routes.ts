import { type AgentRouteHandler, sessionRoutes } from "./agent-routes.ts";
import { devRoutes } from "./dev-routes.ts";
import { evalRoutes } from "./eval-routes.ts";

/**
 * Every named `/v1` route of an agent. Each capability keeps its routes in
 * its own module; app/ route files refer to them by name.
 */
export const agentRoutes = {
  ...sessionRoutes,
  ...evalRoutes,
  ...devRoutes,
} satisfies Record<string, AgentRouteHandler>;

export type AgentRouteName = keyof typeof agentRoutes;
