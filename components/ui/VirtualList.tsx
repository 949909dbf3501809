"use client";
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { cx } from "./cx.ts";

/**
 * A windowed list with a fixed row height: only the rows in view (plus a
 * margin) are in the DOM, so thousands of rows cost what a screenful does.
 * With `followTail`, new rows keep it scrolled to the bottom unless the user
 * scrolled up.
 */
export function VirtualList({
  count,
  rowHeight,
  renderRow,
  className,
  overscan = 10,
  followTail = false,
  label,
  header,
}: {
  count: number;
  rowHeight: number;
  renderRow: (index: number) => ReactNode;
  className?: string;
  overscan?: number;
  followTail?: boolean;
  label: string;
  /** Sticky content above the rows (e.g. a time axis), inside the scroller. */
  header?: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const atBottom = useRef(true);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setViewport(element.clientHeight));
    observer.observe(element);
    setViewport(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (followTail && element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [count, followTail]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  const rows: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    rows.push(
      <div key={index} role="listitem" className="absolute inset-x-0" style={{ top: index * rowHeight, height: rowHeight }}>
        {renderRow(index)}
      </div>,
    );
  }

  return (
    <div
      ref={scroller}
      tabIndex={0}
      aria-label={label}
      className={cx("relative overflow-auto scrollbar-thin", className)}
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < rowHeight * 2;
        setScrollTop(element.scrollTop);
      }}
    >
      {header}
      <div role="list" className="relative" style={{ height: count * rowHeight }}>
        {rows}
      </div>
    </div>
  );
}
