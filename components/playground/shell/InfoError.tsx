import { ErrorNotice } from "../../ui/ErrorNotice.tsx";

/** The agent description could not be loaded (server down, wrong slug, missing token). */
export function InfoError({ error }: { error: unknown }) {
  return (
    <div className="px-4 py-2">
      <ErrorNotice error={error} title="Could not load the agent" className="mx-auto max-w-7xl" />
    </div>
  );
}
