import { notes } from "../lib/notes-extension.ts";

export default notes({ team: "support" });
