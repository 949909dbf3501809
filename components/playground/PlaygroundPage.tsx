import { TOKEN_KEY } from "../api/auth-store.ts";
import { requestSessionEventsEarly } from "../api/early-request.ts";
import { Playground } from "./Playground.tsx";

const earlyEvents = `(${requestSessionEventsEarly.toString()})(${JSON.stringify(TOKEN_KEY)})`;

/**
 * The playground's HTML: the inline script asks for the opened session's
 * events before the app's JavaScript has loaded (see `early-request.ts`),
 * then the client app renders.
 */
export function PlaygroundPage() {
  return (
    <>
      <script dangerouslySetInnerHTML={{ __html: earlyEvents }} />
      <Playground />
    </>
  );
}
