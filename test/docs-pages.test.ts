/**
 * The /docs pages: the Markdown renderer (safe by construction), the search
 * over docs/*.md, the CLI page against the command registry, and the pages
 * served by `bdk serve` (gone with --no-docs).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPages, readPage, renderPage, searchDocs } from "../app/docs/library.ts";
import { renderMarkdown } from "../app/docs/markdown.ts";
import { commands } from "../cli/commands/index.ts";
import { freePort, KIT_DIR, type RunningServer, startServer } from "./support/bdk-server.ts";
import { runBdk } from "./support/run-process.ts";

function bdkDocs(args: string[]) {
  return runBdk(["docs", ...args]);
}

describe("renderMarkdown", () => {
  it("renders headings with anchors, lists, tables, code and links", () => {
    const { html, title, headings } = renderMarkdown(
      [
        "---",
        "title: ignored",
        "---",
        "# Getting `started`",
        "",
        "Run **this** and *that*; keep snake_case_names and `BDK_MODEL` as they are.",
        "",
        "- one",
        "- two",
        "  - nested",
        "",
        "1. first",
        "2. second",
        "",
        "| flag | default |",
        "| --- | :-: |",
        "| `--port` | `3000` |",
        "",
        "```bash",
        "npx bdk dev",
        "```",
        "",
        "See [auth](auth.md#bearer) and https://example.com/a?b=1&c=2.",
        "",
        "## Getting started",
      ].join("\n"),
      { rewriteHref: (href) => href.replace(/^(\w+)\.md/, "/docs/$1") },
    );
    expect(title).toBe("Getting started");
    expect(headings.map((heading) => heading.id)).toEqual(["getting-started", "getting-started-1"]);
    expect(html).toContain('<h1 id="getting-started">Getting <code>started</code> <a class="anchor" href="#getting-started"');
    expect(html).toContain("<p>Run <strong>this</strong> and <em>that</em>; keep snake_case_names and <code>BDK_MODEL</code> as they are.</p>");
    expect(html).toContain("<ul><li>one</li><li>two\n<ul><li>nested</li></ul></li></ul>");
    expect(html).toContain("<ol><li>first</li><li>second</li></ol>");
    expect(html).toContain('<th>flag</th><th style="text-align:center">default</th>');
    expect(html).toContain("<td><code>--port</code></td>");
    expect(html).toContain('<pre><code class="language-bash">npx bdk dev</code></pre>');
    expect(html).toContain('<a href="/docs/auth#bearer">auth</a>');
    expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=2">https://example.com/a?b=1&amp;c=2</a>.');
    expect(html).not.toContain("title: ignored");
  });

  it("escapes HTML everywhere and drops unsafe link targets", () => {
    const { html } = renderMarkdown(
      [
        '# <img src=x onerror="alert(1)">',
        "",
        "<script>alert(1)</script> and `<b>code</b>`",
        "",
        "[click](javascript:alert(1)) [data](data:text/html,hi)",
        "",
        "| <i>cell</i> |",
        "| --- |",
        "| <svg onload=alert(1)> |",
        "",
        "```",
        "</code></pre><script>x</script>",
        "```",
      ].join("\n"),
    );
    expect(html).not.toMatch(/<(script|img|svg|i)[\s>]/);
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("data:text");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("<code>&lt;b&gt;code&lt;/b&gt;</code>");
    expect(html).toContain("&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;");
  });
});

describe("the docs library", () => {
  it("lists the user pages, the index first, without the contributors' rules", () => {
    const slugs = listPages().map((page) => page.slug);
    expect(slugs[0]).toBe("README");
    expect(slugs).toEqual(expect.arrayContaining(["getting-started", "tools", "http-api", "cli", "auth", "deployment", "project-layout"]));
    expect(slugs).not.toContain("CONTRIBUTING-HELPERS");
    expect(readPage("../package")).toBeUndefined();
  });

  it("finds the auth page when searching for bearer, with a snippet around the match", () => {
    const hits = searchDocs("bearer");
    expect(hits[0].slug).toBe("auth");
    expect(hits[0].snippet.match.toLowerCase()).toBe("bearer");
    expect(hits[0].snippet.before.length + hits[0].snippet.after.length).toBeGreaterThan(40);
    expect(searchDocs("bearer systemd")[0].slug).toBe("deployment");
    expect(searchDocs("zzzz-nothing-matches")).toEqual([]);
  });

  it("links between pages as /docs routes, each to an existing page and heading", () => {
    const pages = listPages();
    const anchors = new Map(pages.map((page) => [page.slug, new Set(renderPage(page).headings.map((heading) => heading.id))]));
    for (const page of pages) {
      for (const [, target, anchor] of renderPage(page).html.matchAll(/href="\/docs(?:\/([A-Za-z0-9_-]+))?(?:#([^"]+))?"/g)) {
        const slug = target ?? "README";
        expect(anchors.has(slug), `${page.slug} → ${slug}`).toBe(true);
        if (anchor) expect(anchors.get(slug)!.has(anchor), `${page.slug} → ${slug}#${anchor}`).toBe(true);
      }
    }
  });
});

describe("docs/cli.md", () => {
  it("documents every command and flag of the registry", () => {
    const text = readFileSync(path.join(KIT_DIR, "docs", "cli.md"), "utf8");
    for (const command of commands()) {
      expect(text, command.name).toContain(`## bdk ${command.name}\n`);
      for (const flag of command.flags) expect(text, `${command.name} --${flag.name}`).toContain(`--${flag.name}`);
    }
  });
});

describe("/docs on a running server", () => {
  let server: RunningServer;
  let withoutDocs: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dir: path.join(KIT_DIR, "bot-examples", "hello") });
    withoutDocs = await startServer({ dir: path.join(KIT_DIR, "bot-examples", "hello"), args: ["--no-docs"] });
  }, 240_000);
  afterAll(async () => {
    await Promise.all([server?.stop(), withoutDocs?.stop()]);
  });

  it("serves the index, a page and search results as HTML", async () => {
    const index = await fetch(`${server.url}/docs`);
    expect(index.status).toBe(200);
    const indexHtml = await index.text();
    expect(/<form role="search"[^>]* action="\/docs" method="get">/.test(indexHtml), "search form").toBe(true);
    expect(indexHtml.includes('href="/docs/getting-started"'), "link to a page").toBe(true);

    const auth = await (await fetch(`${server.url}/docs/auth`)).text();
    expect(auth.includes('<h2 id="remote-access-bearer-tokens">'), "auth page heading").toBe(true);

    const search = await (await fetch(`${server.url}/docs?q=bearer`)).text();
    expect(/data-testid="search-results"><li><a href="\/docs\/auth"/.test(search), "auth is the first hit").toBe(true);
    expect(search.includes("<mark"), "highlighted match").toBe(true);

    expect((await fetch(`${server.url}/docs/no-such-page`)).status).toBe(404);
  });

  it("--no-docs removes them", async () => {
    expect((await fetch(`${withoutDocs.url}/docs`)).status).toBe(404);
    expect((await fetch(`${withoutDocs.url}/docs/auth`)).status).toBe(404);
    expect((await fetch(`${withoutDocs.url}/health`)).status).toBe(200);
  });

  it("bdk docs prints the server's docs URL, or the local folder when no server serves them", async () => {
    expect((await bdkDocs(["--url", server.url])).stdout).toBe(`${server.url}/docs\n`);
    expect((await bdkDocs(["auth", "--url", server.url])).stdout).toBe(`${server.url}/docs/auth\n`);

    const disabled = await bdkDocs(["--url", withoutDocs.url]);
    expect(disabled.stdout).toBe(`${path.join(KIT_DIR, "docs")}\n`);
    expect(disabled.stderr).toContain("--no-docs");

    const nobody = await bdkDocs(["tools", "--url", `http://127.0.0.1:${await freePort()}`]);
    expect(nobody).toEqual({ code: 0, stdout: `${path.join(KIT_DIR, "docs", "tools.md")}\n`, stderr: "" });

    const unknown = await bdkDocs(["nope", "--url", server.url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("getting-started");
  });
});
