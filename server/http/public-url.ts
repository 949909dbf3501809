/**
 * The URL a client used. The HTTP front (web/start-web-server.ts) rewrites
 * paths before Next.js sees them (single mode adds the agent's slug, a
 * trailing slash is dropped) and Next.js fills in its own host, so the front
 * records the original, scheme, `Host`, path and query, in this header
 * (replacing any client-sent value). Channel handlers get it as `request.url`.
 */
export const PUBLIC_URL_HEADER = "x-bdk-public-url";

export function clientUrl(request: Request): string {
  const recorded = request.headers.get(PUBLIC_URL_HEADER);
  return recorded && URL.canParse(recorded) ? recorded : request.url;
}
