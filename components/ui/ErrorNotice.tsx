import { errorMessage, isApiError } from "../api/errors.ts";
import { AlertIcon } from "./icons.tsx";
import { cx } from "./cx.ts";

/** An API failure in words; 401 points at the token field. */
export function ErrorNotice({ error, className, title }: { error: unknown; className?: string; title?: string }) {
  const needsToken = isApiError(error, 401);
  return (
    <div
      role="alert"
      className={cx(
        "flex items-start gap-2 rounded-md border border-tone-danger-line bg-tone-danger-soft px-3 py-2 text-sm text-tone-danger",
        className,
      )}
    >
      <AlertIcon className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0">
        {title ? <p className="font-medium">{title}</p> : null}
        <p className="break-words">{errorMessage(error)}</p>
        {needsToken ? <p className="mt-1 text-xs opacity-80">Enter the server&apos;s bearer token in the navbar.</p> : null}
      </div>
    </div>
  );
}
