import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireDocsEnabled } from "../enabled.ts";
import { readPage, renderPage } from "../library.ts";
import { DocsShell } from "../shell.tsx";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata(props: Props): Promise<Metadata> {
  const page = readPage((await props.params).slug);
  return { title: page ? `${page.title} · BDK docs` : "BDK docs" };
}

/** `/docs/<page>`: one Markdown file of docs/, rendered on the server. */
export default async function DocsPage(props: Props) {
  requireDocsEnabled();
  const page = readPage((await props.params).slug);
  if (!page) notFound();
  const rendered = renderPage(page);
  return (
    <DocsShell current={page.slug}>
      <article className="bdk-doc" dangerouslySetInnerHTML={{ __html: rendered.html }} />
    </DocsShell>
  );
}
