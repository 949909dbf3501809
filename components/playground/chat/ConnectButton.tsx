"use client";
import { useMutation } from "@tanstack/react-query";
import { errorMessage } from "../../api/errors.ts";
import { Button } from "../../ui/Button.tsx";
import { ExternalIcon } from "../../ui/icons.tsx";
import { useApi } from "../api-context.tsx";

/**
 * Connect for a call parked on an OAuth connection (`serve --dev`): starts
 * the flow and opens the authorization page in a new tab. The turn goes on
 * by itself once the tab comes back to the server's callback.
 */
export function ConnectButton({ connection, authorizePath }: { connection: string; authorizePath: string }) {
  const api = useApi();
  const connect = useMutation({
    mutationFn: async () => {
      // Opened during the click, so popup blockers allow it; pointed at the page once the server answers.
      const tab = window.open("about:blank", "_blank");
      if (tab) tab.opener = null;
      try {
        const { authorizationUrl } = await api.authorizeConnection(authorizePath);
        if (!authorizationUrl) tab?.close();
        else if (tab) tab.location.href = authorizationUrl;
        else window.open(authorizationUrl, "_blank", "noopener");
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
  });

  return (
    <div className="space-y-1.5">
      <Button size="sm" variant="primary" disabled={connect.isPending} onClick={() => connect.mutate()}>
        <ExternalIcon className="size-3.5" /> Connect {connection}
      </Button>
      {connect.isSuccess ? (
        <p className="text-xs text-fg-muted">Finish signing in in the new tab; the turn continues by itself.</p>
      ) : null}
      {connect.isError ? (
        <p role="alert" className="text-xs text-tone-danger">
          {errorMessage(connect.error)}
        </p>
      ) : null}
    </div>
  );
}
