import type { ReactNode } from "react";
import { docsHref, listPages } from "./library.ts";
import "./docs.css";

/** The frame of every /docs page: title bar with the search box, page list, content. */
export function DocsShell({ current, query, children }: { current?: string; query?: string; children: ReactNode }) {
  const pages = listPages();
  return (
    <div className="min-h-dvh">
      <header className="border-b border-line">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-3 px-4 py-3">
          <a href="/docs" className="flex items-center gap-2">
            <span className="flex size-7 items-center justify-center rounded-lg bg-gradient-to-br from-brand-from to-brand-to text-xs font-bold text-fg-on-accent shadow-sm">
              B
            </span>
            <span className="text-sm font-semibold tracking-tight">BDK docs</span>
          </a>
          <form action="/docs" method="get" role="search" className="ml-auto flex w-full max-w-sm gap-2 sm:w-auto">
            <input
              type="search"
              name="q"
              defaultValue={query}
              placeholder="Search the docs"
              aria-label="Search the docs"
              className="h-9 w-full rounded-md border border-line-strong bg-surface-raised px-3 text-sm placeholder:text-fg-faint focus-visible:border-accent-bright focus-visible:outline-none"
            />
            <button type="submit" className="h-9 rounded-md bg-accent-solid px-3 text-sm font-medium text-fg-on-accent hover:bg-accent-bright">
              Search
            </button>
          </form>
        </div>
      </header>
      <div className="mx-auto flex max-w-6xl gap-8 px-4 py-8">
        <nav aria-label="Pages" className="hidden w-52 shrink-0 md:block">
          <ul className="sticky top-6 space-y-0.5 text-sm">
            {pages.map((page) => (
              <li key={page.slug}>
                <a
                  href={docsHref(page.slug)}
                  aria-current={page.slug === current ? "page" : undefined}
                  className={
                    page.slug === current
                      ? "block rounded-md bg-accent-soft px-2 py-1 font-medium text-accent-fg"
                      : "block rounded-md px-2 py-1 text-fg-muted hover:bg-surface-inset hover:text-fg"
                  }
                >
                  {page.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main className="min-w-0 flex-1">{children}</main>
      </div>
    </div>
  );
}
