import type { Metadata } from "next";
import { requireDocsEnabled } from "./enabled.ts";
import { docsHref, readPage, renderPage, searchDocs } from "./library.ts";
import { DocsShell } from "./shell.tsx";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

async function queryOf(props: Props): Promise<string> {
  const q = (await props.searchParams).q;
  return (Array.isArray(q) ? q[0] : q)?.trim() ?? "";
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const query = await queryOf(props);
  return { title: query ? `“${query}” · BDK docs` : "BDK docs" };
}

/** `/docs`: the index page, or with `?q=` the pages matching the query, each with a snippet. */
export default async function DocsIndexPage(props: Props) {
  requireDocsEnabled();
  const query = await queryOf(props);
  if (!query) {
    const index = readPage("README");
    return (
      <DocsShell current="README">
        {index ? <article className="bdk-doc" dangerouslySetInnerHTML={{ __html: renderPage(index).html }} /> : <p>No documentation found.</p>}
      </DocsShell>
    );
  }
  const hits = searchDocs(query);
  return (
    <DocsShell query={query}>
      <h1 className="mb-1 text-2xl font-semibold tracking-tight">Search</h1>
      <p className="mb-6 text-sm text-fg-muted" data-testid="search-summary">
        {hits.length === 0 ? `No page mentions “${query}”.` : `${hits.length} page${hits.length === 1 ? "" : "s"} mention “${query}”.`}
      </p>
      <ol className="space-y-5" data-testid="search-results">
        {hits.map((hit) => (
          <li key={hit.slug}>
            <a href={docsHref(hit.slug)} className="text-base font-medium text-accent-fg hover:underline">
              {hit.title}
            </a>
            <p className="mt-1 text-sm leading-relaxed text-fg-muted">
              {hit.snippet.before}
              <mark className="rounded-sm bg-highlight px-0.5 text-inherit">{hit.snippet.match}</mark>
              {hit.snippet.after}
            </p>
          </li>
        ))}
      </ol>
    </DocsShell>
  );
}
