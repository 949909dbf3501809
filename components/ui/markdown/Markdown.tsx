"use client";
import { memo, useMemo, type ReactNode } from "react";
import { CopyButton } from "../CopyButton.tsx";
import { cx } from "../cx.ts";
import { parseBlocks, type Block } from "./parse-blocks.ts";
import { parseInline, type Inline } from "./parse-inline.ts";

/** Renders model Markdown as React elements (no innerHTML, so raw HTML in the text stays text). */
export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  const blocks = useMemo(() => parseBlocks(text), [text]);
  return <div className={cx("space-y-3 text-sm leading-relaxed break-words", className)}>{blocks.map(renderBlock)}</div>;
});

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.kind) {
    case "code":
      return <CodeBlock key={key} lang={block.lang} text={block.text} />;
    case "heading": {
      const sizes = ["text-lg", "text-base", "text-sm", "text-sm", "text-sm", "text-sm"];
      const Tag = `h${Math.min(block.level + 1, 6)}` as "h2";
      return (
        <Tag key={key} className={cx("font-semibold tracking-tight", sizes[block.level - 1])}>
          {renderInline(parseInline(block.text))}
        </Tag>
      );
    }
    case "rule":
      return <hr key={key} className="border-line" />;
    case "quote":
      return (
        <blockquote key={key} className="space-y-2 border-l-2 border-line-strong pl-3 text-fg-muted">
          {block.blocks.map(renderBlock)}
        </blockquote>
      );
    case "list": {
      const items = block.items.map((item, index) => (
        <li key={index} className="space-y-1 pl-1">
          {item.map((child, childKey) => (child.kind === "paragraph" ? <div key={childKey}>{renderInline(parseInline(child.text))}</div> : renderBlock(child, childKey)))}
        </li>
      ));
      return block.ordered ? (
        <ol key={key} start={block.start} className="list-decimal space-y-1 pl-5 marker:text-fg-dim">
          {items}
        </ol>
      ) : (
        <ul key={key} className="list-disc space-y-1 pl-5 marker:text-fg-dim">
          {items}
        </ul>
      );
    }
    case "table":
      return (
        <div key={key} className="overflow-x-auto">
          <table className="min-w-full border-collapse text-xs">
            <thead>
              <tr>
                {block.header.map((cell, index) => (
                  <th key={index} style={{ textAlign: block.align[index] }} className="border-b border-line-strong px-2 py-1 text-left font-semibold">
                    {renderInline(parseInline(cell))}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex}>
                  {row.map((cell, index) => (
                    <td key={index} style={{ textAlign: block.align[index] }} className="border-b border-line px-2 py-1">
                      {renderInline(parseInline(cell))}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "paragraph":
      return <p key={key}>{renderInline(parseInline(block.text))}</p>;
  }
}

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, key) => {
    switch (node.kind) {
      case "text":
        return node.text;
      case "break":
        return <br key={key} />;
      case "code":
        return (
          <code key={key} className="rounded bg-surface-hover px-1 py-0.5 font-mono text-[0.85em] text-fg">
            {node.text}
          </code>
        );
      case "strong":
        return (
          <strong key={key} className="font-semibold">
            {renderInline(node.children)}
          </strong>
        );
      case "em":
        return <em key={key}>{renderInline(node.children)}</em>;
      case "del":
        return <del key={key}>{renderInline(node.children)}</del>;
      case "link":
        return (
          <a key={key} href={node.href} target="_blank" rel="noopener noreferrer nofollow" className="text-accent-fg underline decoration-link-line underline-offset-2 hover:decoration-accent-solid">
            {renderInline(node.children)}
          </a>
        );
    }
  });
}

function CodeBlock({ lang, text }: { lang: string; text: string }) {
  return (
    <div className="overflow-hidden rounded-md border border-line">
      <div className="flex items-center justify-between bg-surface-inset px-3 py-0.5 text-caption text-fg-muted">
        <span className="font-mono">{lang || "code"}</span>
        <CopyButton text={() => text} className="h-6" />
      </div>
      <pre className="overflow-x-auto bg-surface-code px-3 py-2 font-mono text-xs leading-relaxed text-fg scrollbar-thin">
        <code>{text}</code>
      </pre>
    </div>
  );
}
