import { cx } from "../../ui/cx.ts";

export function UserMessage({ text, files, pending = false }: { text: string; files?: string[]; pending?: boolean }) {
  return (
    <div className="flex justify-end" data-testid="user-message">
      <div
        className={cx(
          "max-w-[85%] rounded-2xl rounded-br-sm bg-accent px-3.5 py-2 text-sm leading-relaxed whitespace-pre-wrap break-words text-white shadow-sm",
          pending && "opacity-70",
        )}
      >
        {text}
        {files?.length ? <p className="mt-1 text-xs opacity-80">Attached: {files.join(", ")}</p> : null}
      </div>
    </div>
  );
}
