"use client";
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { cx } from "./cx.ts";

export interface TabItem<T extends string> {
  id: T;
  label: string;
  badge?: ReactNode;
}

export const tabId = (prefix: string, id: string) => `${prefix}-tab-${id}`;
export const panelId = (prefix: string, id: string) => `${prefix}-panel-${id}`;

/**
 * A WAI-ARIA tab list with a roving tabindex: Tab enters on the active tab,
 * arrows / Home / End move between tabs and select them.
 */
export function TabList<T extends string>({
  tabs,
  active,
  onChange,
  idPrefix,
  label,
}: {
  tabs: ReadonlyArray<TabItem<T>>;
  active: T;
  onChange: (id: T) => void;
  idPrefix: string;
  label: string;
}) {
  const refs = useRef(new Map<T, HTMLButtonElement>());
  // On a narrow screen the list scrolls sideways: keep the active tab in view (a deep link, a tab picked by code).
  useEffect(() => {
    refs.current.get(active)?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [active]);

  function onKeyDown(event: KeyboardEvent) {
    const current = tabs.findIndex((tab) => tab.id === active);
    const moves: Record<string, number> = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = tabs[(moves[event.key] + tabs.length) % tabs.length];
    onChange(next.id);
    refs.current.get(next.id)?.focus();
  }

  return (
    <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex gap-1 overflow-x-auto scrollbar-thin px-1 py-1">
      {tabs.map((tab) => {
        const selected = tab.id === active;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) refs.current.set(tab.id, element);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={tabId(idPrefix, tab.id)}
            aria-selected={selected}
            aria-controls={panelId(idPrefix, tab.id)}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab.id)}
            className={cx(
              "relative inline-flex h-8 shrink-0 items-center gap-1.5 rounded-md px-3 text-sm font-medium transition-colors",
              selected
                ? "bg-surface-inverse text-fg-on-inverse"
                : "text-fg-muted hover:bg-surface-hover hover:text-fg-strong",
            )}
          >
            {tab.label}
            {tab.badge}
          </button>
        );
      })}
    </div>
  );
}

/** Inactive panels unmount, unless `keepMounted` (their state, such as a chat draft, survives a tab switch). */
export function TabPanel({
  idPrefix,
  id,
  active,
  children,
  className,
  keepMounted = false,
}: {
  idPrefix: string;
  id: string;
  active: boolean;
  children: ReactNode;
  className?: string;
  keepMounted?: boolean;
}) {
  if (!active && !keepMounted) return null;
  return (
    <div role="tabpanel" id={panelId(idPrefix, id)} aria-labelledby={tabId(idPrefix, id)} hidden={!active} className={cx(className, !active && "hidden")}>
      {children}
    </div>
  );
}
