import { notFound } from "next/navigation";
import { httpHost } from "../../web/route-adapter.ts";

/** `bdk serve --no-docs` removes the pages: they answer 404 like any unknown path. */
export function requireDocsEnabled(): void {
  if (httpHost()?.options.docs === false) notFound();
}
