// eve's HTTP channel fails closed outside `eve dev`; the bench calls it
// anonymously on 127.0.0.1, as it calls BDK and Mastra.
import { none } from "eve/channels/auth";
import { eveChannel } from "eve/channels/eve";

export default eveChannel({ auth: [none()] });
